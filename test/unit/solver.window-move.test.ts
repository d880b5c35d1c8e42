/**
 * A window search's proven move (WindowResult.move): a root move worth at least `lower`. Checked
 * against the brute force's move values on thousands of positions and windows, on one thread and on
 * two, with small tables (replacement), with the restriction rules on and off, and round-tripped
 * through the helpers' answer buffer.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { BoardState } from '../../server/src/engine/board/state';
import { bruteForce, Solver, type SolverConfig } from '../../server/src/engine/solver';
import { ThreadedSolver, readWindow, writeWindow } from '../../server/src/engine/solver/threads';
import type { WindowResult } from '../../server/src/engine/solver/types';
import { mulberry32 } from '../support/random';
import { playedPosition } from '../support/boards';
import { sourceThreads } from '../support/threads';

const SIZES: [number, number, number][] = [
  [2, 2, 12],
  [3, 2, 17],
  [3, 3, 20],
  [4, 3, 20],
  [4, 4, 19],
  [5, 5, 18],
];

function position(r: () => number, i: number): BoardState {
  const [w, h, maxU] = SIZES[i % SIZES.length];
  const st = playedPosition(w, h, 4 + Math.floor(r() * (maxU - 3)), r);
  // now and then a capture left open (forced captures at the root)
  if (r() < 0.3 && !st.isOver()) {
    const all = st.undrawnLines();
    st.play(all[Math.floor(r() * all.length)]);
  }
  return st;
}

/** Checks one window result against the brute force; returns whether it named a move. */
function check(
  label: string,
  st: BoardState,
  alpha: number,
  w: WindowResult,
  truth: ReturnType<typeof bruteForce>,
): boolean {
  assert.equal(w.status, 'done', label);
  if (!w.move) {
    return false;
  }
  const { line, lower } = w.move;
  assert.equal(st.drawn[line], 0, `${label}: the move ${line} is a legal line`);
  const v = truth.moveValues[line]!;
  assert.ok(v >= lower, `${label}: move ${line} is worth ${v}, claimed at least ${lower}`);
  assert.ok(lower > alpha, `${label}: a move is named only above alpha (${lower} <= ${alpha})`);
  assert.ok(
    lower <= w.upper && lower >= w.lower,
    `${label}: the move's bound ${lower} within [${w.lower}, ${w.upper}]`,
  );
  if (lower === truth.value) assert.ok(truth.best.includes(line), `${label}: a move worth the value is optimal`);
  return true;
}

const CONFIGS: [string, SolverConfig][] = [
  ['default', { tableBits: 10 }],
  ['tiny table', { tableBits: 5 }],
  ['rules off', { tableBits: 10, chainRule: false, pairFloor: false, lazyMoves: false }],
];

for (const [name, cfg] of CONFIGS)
  test(`window searches name a move worth at least their lower bound (${name}): brute force`, () => {
    const r = mulberry32(1234 + name.length);
    const solver = new Solver(cfg);
    let named = 0,
      fails = 0;
    for (let i = 0; i < 700; i++) {
      const st = position(r, i);
      if (st.isOver()) continue;
      const truth = bruteForce(st);
      // windows below, at and above the value, in an order that leaves the table's bounds about
      for (const d of [0, -2, 2, -1, 1, -4, 4]) {
        const t = truth.value + d;
        const w = solver.searchWindow(st, t - 1, t);
        if (check(`#${i} (${t - 1}, ${t})`, st, t - 1, w, truth)) named++;
        else if (w.lower < t) fails++;
      }
      // a full window: the exact value and a move worth it
      const full = solver.searchWindow(st, -100, 100);
      assert.equal(full.lower, truth.value);
      check(`#${i} full`, st, -100, full, truth);
      if (i % 50 === 0) solver.clear();
    }
    // most windows at or below the value fail high with a move: the check above is not vacuous
    assert.ok(named > 1000, `moves named: ${named}`);
    assert.ok(fails > 500, `windows that failed low: ${fails}`);
  });

test('a window answer crosses threads unchanged (with and without a move)', () => {
  const r = mulberry32(77);
  const solver = new Solver({ tableBits: 12 });
  let moves = 0;
  for (let i = 0; i < 80; i++) {
    const st = position(r, i);
    if (st.isOver()) continue;
    const t = Math.floor(r() * 7) - 3;
    const w = solver.searchWindow(st, t - 1, t, i % 5 === 0 ? { nodeBudget: 20 } : {});
    if (w.move) moves++;
    const a = new Int32Array(ThreadedSolver.answerWords(st.geometry.lineCount));
    writeWindow(a, w);
    assert.deepEqual(readWindow(a), { ...w, ms: 0 });
  }
  assert.ok(moves > 10);
});

test('two threads: every window move holds against the brute force', async () => {
  const solver = new ThreadedSolver({ tableBits: 8, deferMinUndrawn: 0 }, sourceThreads(2));
  try {
    const r = mulberry32(99);
    let named = 0;
    for (let i = 0; i < 240; i++) {
      const st = position(r, i);
      if (st.isOver()) continue;
      const truth = bruteForce(st);
      for (const d of [0, -2, 2]) {
        const t = truth.value + d;
        if (check(`#${i} (${t - 1}, ${t})`, st, t - 1, solver.searchWindow(st, t - 1, t), truth)) named++;
      }
    }
    assert.ok(named > 200, `moves named: ${named}`);
  } finally {
    solver.dispose();
  }
  await new Promise((resolve) => setTimeout(resolve, 10));
});
