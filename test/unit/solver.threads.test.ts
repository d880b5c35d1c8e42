// The threaded solver (one shared table, lazy SMP) against the brute force: values, best moves,
// move values and window bounds on thousands of chain-rich positions, with a table small enough
// that the threads overwrite each other's buckets all the time (the shared table's sequence locks
// must never let a torn entry through), several board sizes in a row (a new shared table per
// geometry), and a helper thread that dies.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Worker } from 'node:worker_threads';
import { BoardGeometry } from '../../server/src/engine/board/geometry';
import { BoardState } from '../../server/src/engine/board/state';
import { bruteForce } from '../../server/src/engine/solver';
import { ThreadedSolver, readSolve, writeSolve } from '../../server/src/engine/solver/threads';
import { Solver, type SolverConfig } from '../../server/src/engine/solver';
import { mulberry32 as rng } from '../support/random';
import { playedPosition } from '../support/boards';
import { sourceThreads } from '../support/threads';

const sizes: [number, number, number][] = [
  [3, 3, 17],
  [4, 4, 19],
  [5, 5, 19],
  [4, 5, 19],
  [2, 5, 16],
];

/** Cautious play, then a few random lines (sacrifices, partial captures). */
function position(r: () => number, i: number): BoardState {
  const [w, h, maxU] = sizes[i % sizes.length];
  const st = playedPosition(w, h, 6 + Math.floor(r() * (maxU - 5)), r);
  for (let k = Math.floor(r() * 3); k > 0 && !st.isOver(); k--) {
    const all = st.undrawnLines();
    st.play(all[Math.floor(r() * all.length)]);
  }
  return st;
}

for (const [name, cfg, count] of [
  ['tiny shared table', { tableBits: 8 }, 400],
  ['moves another thread searches are deferred at every node', { tableBits: 8, deferMinUndrawn: 0 }, 200],
] as const)
  test(`threaded solver (2 threads, ${name}): values, best moves and move values equal brute force`, async () => {
    await threadedAgainstBruteForce(cfg, count);
  });

async function threadedAgainstBruteForce(cfg: SolverConfig, count: number): Promise<void> {
  const solver = new ThreadedSolver(cfg, sourceThreads(2));
  try {
    // the first solve starts the helper; wait until it has searched (loading it takes seconds, more
    // on a loaded machine) before the small positions below, which are over before a late helper joins
    const warm = rng(1);
    for (const start = Date.now(); solver.helperNodesSearched === 0 && Date.now() - start < 60_000;) {
      solver.solve(playedPosition(3, 3, 14, warm));
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const helperNodesBefore = solver.helperNodesSearched,
      sharedBefore = solver.stats.shared;
    assert.ok(helperNodesBefore > 0, 'the helper never searched in a minute of warm-up solves');
    const r = rng(4242);
    let helped = 0;
    for (let i = 0; i < count; i++) {
      const st = position(r, i);
      if (st.isOver()) continue;
      const bf = bruteForce(st);
      const label = `#${i} ${st.key()}`;
      const res = solver.solve(st, { moveValues: i % 2 === 0 });
      assert.equal(res.status, 'exact', label);
      assert.equal(res.value, bf.value, `${label}: value`);
      assert.deepEqual(res.best, bf.best, `${label}: best moves`);
      if (res.moveValues) assert.deepEqual(res.moveValues, bf.moveValues, `${label}: move values`);
      const vo = solver.solve(st, { valueOnly: true });
      assert.equal(vo.value, bf.value, `${label}: value only`);
      // a null window at the value and just above it
      const t = bf.value;
      const at = solver.searchWindow(st, t - 1, t);
      assert.ok(
        at.status === 'done' && at.lower >= t && at.lower <= bf.value,
        `${label}: >= ${t}: ${JSON.stringify(at)}`,
      );
      const above = solver.searchWindow(st, t + 1, t + 2);
      assert.ok(above.status === 'done' && above.upper <= t + 1 && above.upper >= bf.value, `${label}: < ${t + 2}`);
      if (res.nodes > 0) helped++;
    }
    assert.ok(helped > (count * 3) / 4, `${helped} positions searched`);
    // the helpers really took part (whose answer comes first is a race: both are exact; on a loaded
    // machine a helper may finish each search only after the caller has moved on, so count those too)
    const shared = solver.stats.shared - sharedBefore;
    assert.ok(shared > count * 2.5, `${shared} searches shared`);
    assert.ok(solver.helperNodesSearched > helperNodesBefore, 'the helper searched no node');
    if (cfg.deferMinUndrawn === 0) {
      // on a loaded machine the helper may lag behind the caller through all of the positions
      // above (only the caller's deferrals are counted): more of them until the caller defers one
      for (let i = count, start = Date.now(); solver.deferrals() === 0 && Date.now() - start < 60_000; i++) {
        const st = position(r, i);
        solver.solve(st, { moveValues: true });
        solver.solve(st, { valueOnly: true });
      }
      assert.ok(solver.deferrals() > 0, 'no move was ever deferred');
    }
  } finally {
    solver.dispose();
  }
}

test('threaded solver: budgets give unknown with sound bounds; a dead helper leaves the answers exact', async () => {
  const solver = new ThreadedSolver({ tableBits: 12 }, sourceThreads(3));
  try {
    const r = rng(77);
    const st = playedPosition(5, 5, 40, r);
    const cut = solver.solve(st, { nodeBudget: 20_000 });
    assert.equal(cut.status, 'unknown');
    assert.ok(cut.lower <= cut.upper);
    // kill the helpers: the next solves run on the calling thread alone (and start new helpers)
    solver.dispose();
    for (let i = 0; i < 40; i++) {
      const p = position(r, i);
      if (p.isOver()) continue;
      const bf = bruteForce(p);
      const res = solver.solve(p, { moveValues: true });
      assert.equal(res.value, bf.value);
      assert.deepEqual(res.moveValues, bf.moveValues);
    }
    // a bounded search of a hard position: its bounds hold the value the exact search finds later
    const hard = playedPosition(5, 5, 34, r);
    const partial = solver.solve(hard, { nodeBudget: 5_000 });
    const exact = solver.solve(hard);
    assert.equal(exact.status, 'exact');
    assert.ok(partial.lower <= exact.value! && exact.value! <= partial.upper, 'bounds hold the value');
  } finally {
    solver.dispose();
  }
  await new Promise((resolve) => setTimeout(resolve, 10));
});

test('a helper answer crosses threads unchanged (values, best moves, move values and bounds, unknowns)', () => {
  const r = rng(9);
  const solver = new Solver({ tableBits: 14 });
  for (let i = 0; i < 60; i++) {
    const st = position(r, i);
    const L = st.geometry.lineCount;
    const res = solver.solve(st, { moveValues: i % 2 === 0, nodeBudget: i % 3 === 0 ? 50 : undefined });
    const a = new Int32Array(ThreadedSolver.answerWords(L));
    writeSolve(a, res, L);
    assert.deepEqual(readSolve(a, L), { ...res, ms: 0 });
  }
});

test('threaded solver: a result counts the helpers’ nodes even when the calling thread finishes first', async () => {
  const solver = new ThreadedSolver({ tableMb: 64 }, sourceThreads(2));
  const idle = async (before: number) => {
    // a helper adds its nodes to the all-task count when its search has ended
    for (const start = Date.now(); solver.helperNodesSearched === before && Date.now() - start < 30_000;)
      await new Promise((resolve) => setTimeout(resolve, 50));
  };
  try {
    const warm = rng(1);
    for (const start = Date.now(); solver.helperNodesSearched === 0 && Date.now() - start < 60_000;) {
      solver.solve(playedPosition(3, 3, 14, warm));
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const r = rng(77);
    const drivers = ['solve', 'solve valueOnly', 'searchWindow'];
    const checked = [0, 0, 0];
    // positions until each driver has two large enough to tell (on a loaded machine the helper may join late)
    for (let i = 0, start = Date.now(); checked.some((c) => c < 2) && i < 30 && Date.now() - start < 150_000; i++) {
      const d = i % 3;
      if (checked[d] >= 2) continue;
      // a window search ends sooner than a solve: one more undrawn line keeps its helper busy long enough
      const st = playedPosition(4, 4, d === 2 ? 32 : 31, r);
      solver.clear();
      const all0 = solver.helperNodesSearched,
        counted0 = solver.stats.helperNodes;
      // the three drivers in turn: solve(), solve({ valueOnly }) and one window search
      const res = d === 2 ? solver.searchWindow(st, -1, 0) : solver.solve(st, { valueOnly: d === 1 });
      assert.ok(res.status === 'exact' || res.status === 'done', `position ${i}: ${res.status}`);
      await idle(all0);
      const helperAll = solver.helperNodesSearched - all0,
        counted = solver.stats.helperNodes - counted0;
      if (helperAll < 500_000) continue; // too small to tell
      checked[d]++;
      // all but the helper's last report interval (65,536 nodes, noticed within 4,096), and one more
      // when a report races with the end of the task
      assert.ok(
        counted >= helperAll - 140_000,
        `position ${i} (${drivers[d]}): the result counts ${counted} of the helper's ${helperAll} nodes (${res.nodes} in all)`,
      );
      assert.ok(res.nodes >= counted, `position ${i}: ${res.nodes} nodes in all, ${counted} of them the helper's`);
    }
    assert.ok(
      checked.every((c) => c >= 1),
      `positions large enough to check, per driver: ${drivers.map((x, k) => `${x} ${checked[k]}`).join(', ')}`,
    );
  } finally {
    solver.dispose();
  }
});

test('threaded solver: one table per board size, whichever geometry object names it (helpers get the table the calling thread searches)', () => {
  // a helper that never answers: records the tasks it is sent (the calling thread then searches alone)
  const tasks: { mem: { entries: SharedArrayBuffer } }[] = [];
  const fake = {
    postMessage: (t: (typeof tasks)[number]) => tasks.push(t),
    on: () => fake,
    unref: () => undefined,
    terminate: async () => 0,
  };
  const solver = new ThreadedSolver(
    { tableBits: 10 },
    { threads: 2, helperScript: 'unused', spawn: () => fake as unknown as Worker },
  );
  const r = rng(5);
  const a = playedPosition(4, 4, 12, r);
  // the same size named by another geometry object (a second copy of the module, another bundle)
  const other = new BoardGeometry(4, 4);
  assert.notEqual(other, a.geometry);
  const b = new BoardState(other);
  for (const l of a.geometry.allLines()) if (a.drawn[l]) b.drawSilently(l);
  try {
    assert.equal(solver.solve(a).status, 'exact');
    assert.equal(solver.solve(b).status, 'exact');
    assert.equal(tasks.length, 2);
    const table = solver.tableOf(a.geometry) as unknown as { tab: Int32Array };
    for (const t of tasks)
      assert.equal(t.mem.entries, table.tab.buffer, 'the helpers search the calling thread’s table');
  } finally {
    solver.dispose();
  }
});
