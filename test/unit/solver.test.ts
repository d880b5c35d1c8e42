import { test } from 'node:test';
import assert from 'node:assert/strict';
import { geometryOf } from '../../server/src/engine/board/geometry';
import { BoardState } from '../../server/src/engine/board/state';
import { MAX_TABLE_MB, Solver, bruteForce, type LeafEvaluator } from '../../server/src/engine/solver';
import { MAX_TABLE_BITS, entryBytes, tableBitsFor } from '../../server/src/engine/solver/table';
import { mulberry32 as rng } from '../support/random';

function sidesOf(st: BoardState, b: number): number {
  return st.sidesDrawn(b);
}

/** Would drawing `l` give a box its third side? */
function givesAway(st: BoardState, l: number): boolean {
  return st.geometry.boxesOfLine(l).some((b) => sidesOf(st, b) === 2);
}

/**
 * A random position: `kind` 'random' draws uniformly random lines; 'play' draws like a cautious
 * player (a line that gives nothing away while one exists, then any line), which produces the
 * chains, loops and opened chains of real endgames.
 */
function randomPosition(
  w: number,
  h: number,
  maxUndrawn: number,
  r: () => number,
  kind: 'random' | 'play',
): BoardState {
  const g = geometryOf(w, h);
  const st = new BoardState(g);
  const minUndrawn = 0;
  const target = minUndrawn + Math.floor(r() * (Math.min(maxUndrawn, g.lineCount) - minUndrawn + 1));
  while (g.lineCount - st.drawnCount > target) {
    const undrawn = st.undrawnLines();
    let pool = undrawn;
    if (kind === 'play') {
      const safe = undrawn.filter((l) => !givesAway(st, l));
      if (safe.length > 0) pool = safe;
    }
    st.play(pool[Math.floor(r() * pool.length)]);
  }
  return st;
}

function check(st: BoardState, solver: Solver, label: string, leaf?: LeafEvaluator | null): void {
  const bf = bruteForce(st);
  const res = solver.solve(st, { moveValues: true, leafEvaluator: leaf });
  assert.equal(res.status, 'exact', label);
  assert.equal(res.value, bf.value, `${label}: value`);
  assert.deepEqual(res.best, bf.best, `${label}: best moves`);
  assert.deepEqual(res.moveValues, bf.moveValues, `${label}: move values`);
  // without moveValues the best set comes from null-window tests: must agree too
  const res2 = solver.solve(st);
  assert.equal(res2.value, bf.value, `${label}: value (2nd call)`);
  assert.deepEqual(res2.best, bf.best, `${label}: best moves (2nd call)`);
  // value only (root searched as an inner node) and single window searches: sound and exact
  const fresh = new Solver({ tableBits: 8 });
  const res3 = fresh.solve(st, { valueOnly: true });
  assert.equal(res3.status, 'exact', `${label}: valueOnly status`);
  assert.equal(res3.value, bf.value, `${label}: valueOnly value`);
  for (const t of [bf.value - 1, bf.value, bf.value + 1, 0]) {
    const w = fresh.searchWindow(st, t - 1, t);
    assert.equal(w.status, 'done');
    assert.ok(
      w.lower <= bf.value && bf.value <= w.upper,
      `${label}: window (${t - 1}, ${t}) bounds [${w.lower}, ${w.upper}] vs ${bf.value}`,
    );
    assert.ok(w.lower >= t || w.upper <= t - 1, `${label}: window (${t - 1}, ${t}) undecided [${w.lower}, ${w.upper}]`);
  }
}

test('empty boards: the published values', () => {
  const cases: [number, number, number][] = [
    [1, 1, -1],
    [2, 1, 0],
    [1, 2, 0],
    [2, 2, 2],
    [2, 3, -2],
    [3, 2, -2],
    [3, 3, -3],
  ];
  for (const [w, h, v] of cases) {
    const r = new Solver().solve(new BoardState(geometryOf(w, h)));
    assert.equal(r.status, 'exact');
    assert.equal(r.value, v, `${w}x${h}`);
    assert.equal(r.lower, v);
    assert.equal(r.upper, v);
  }
});

test('empty 1x1..2x3 boards: best moves and move values equal brute force', () => {
  for (const [w, h] of [
    [1, 1],
    [1, 2],
    [2, 1],
    [1, 3],
    [2, 2],
    [2, 3],
    [3, 2],
  ]) {
    check(new BoardState(geometryOf(w, h)), new Solver(), `${w}x${h} empty`);
  }
});

test('thousands of random positions on 1x1..3x3 equal brute force (value, best set, move values)', () => {
  const r = rng(12345);
  const sizes: [number, number, number][] = [
    [1, 1, 4],
    [1, 2, 7],
    [2, 1, 7],
    [2, 2, 12],
    [1, 3, 10],
    [2, 3, 17],
    [3, 2, 17],
    [3, 3, 17],
    [1, 4, 13],
    [4, 1, 13],
  ];
  const shared = new Solver({ tableBits: 10 }); // small table: exercises replacement and reuse
  let n = 0;
  for (let i = 0; i < 2400; i++) {
    const [w, h, maxU] = sizes[i % sizes.length];
    const st = randomPosition(w, h, maxU, r, i % 2 === 0 ? 'random' : 'play');
    check(st, i % 3 === 0 ? shared : new Solver(), `${w}x${h} #${i} ${st.key()}`);
    n++;
  }
  assert.equal(n, 2400);
});

test('late positions on 4x4, 5x5 and 4x5 equal brute force', () => {
  const r = rng(777);
  const shared = new Solver();
  const sizes: [number, number][] = [
    [4, 4],
    [5, 5],
    [4, 5],
    [5, 4],
    [3, 4],
  ];
  for (let i = 0; i < 400; i++) {
    const [w, h] = sizes[i % sizes.length];
    const st = randomPosition(w, h, 16, r, i % 4 === 0 ? 'random' : 'play');
    check(st, i % 2 === 0 ? shared : new Solver(), `${w}x${h} #${i} ${st.key()}`);
  }
});

test('options: no symmetry, no chain rule, tiny table, no leaf evaluators, wide root window, replacement, buckets, lazy moves, killers all agree with brute force', () => {
  const r = rng(99);
  const solvers = [
    new Solver({ symmetry: false }),
    new Solver({ chainRule: false }),
    new Solver({ tableBits: 4 }),
    new Solver({ simpleEndgames: false, leafEvaluator: null }),
    new Solver({ rootMtd: false }),
    new Solver({ captureRule: false }),
    new Solver({ equivalentMoves: false }),
    new Solver({ captureRule: false, equivalentMoves: false, chainRule: false }),
    new Solver({ replacement: 'depth', tableBits: 6 }),
    new Solver({ killers: true }),
    new Solver({ tableBits: 5, killers: true }),
    new Solver({ bucket: 1, tableBits: 6 }),
    new Solver({ bucket: 8, tableBits: 7 }),
    new Solver({ lazyMoves: false }),
    new Solver({ lazyMoves: false, bucket: 2, replacement: 'depth', tableBits: 5 }),
    new Solver({ tableMinUndrawn: 7 }),
    new Solver({ rootEquivalence: false }),
    new Solver({ tableMb: 1 }),
  ];
  for (let i = 0; i < 400; i++) {
    const sizes: [number, number, number][] = [
      [2, 2, 12],
      [3, 3, 16],
      [4, 4, 14],
      [5, 5, 14],
    ];
    const [w, h, u] = sizes[i % sizes.length];
    const st = randomPosition(w, h, u, r, 'play');
    check(st, solvers[i % solvers.length], `${w}x${h} #${i}`);
  }
});

test("leaf evaluators (pluggable, built-in, the endgame module's, none) do not change results", () => {
  const r = rng(4242);
  let calls = 0;
  // an exact (brute-force) leaf evaluator: results must be unchanged and it must be called
  const leaf: LeafEvaluator = (s) => {
    calls++;
    return bruteForce(s).value;
  };
  const declining: LeafEvaluator = () => {
    calls++;
    return undefined;
  };
  for (let i = 0; i < 200; i++) {
    const st = randomPosition(i % 2 ? 4 : 3, 3, 16, r, 'play');
    check(st, new Solver({ simpleEndgames: false }), `leaf #${i}`, i % 2 ? leaf : declining);
    check(st, new Solver({ simpleEndgames: i % 3 === 0 }), `no leaf #${i}`, null);
  }
  assert.ok(calls > 0, 'leaf evaluator was never consulted');
});

test('table size: the largest setting gives its memory, never more, on every board', () => {
  const MiB = 1024 * 1024;
  // 5x5 and 4x4 keys are 2 words: the largest setting is 2^MAX_TABLE_BITS entries of 16 bytes
  assert.equal(tableBitsFor(MAX_TABLE_MB * MiB, 2), MAX_TABLE_BITS);
  assert.equal(2 ** MAX_TABLE_BITS * entryBytes(2), MAX_TABLE_MB * MiB);
  for (let keyWords = 1; keyWords <= 10; keyWords++)
    for (const mb of [1, 32, 128, 1000, 2048, MAX_TABLE_MB]) {
      const bits = tableBitsFor(mb * MiB, keyWords);
      assert.ok(2 ** bits * entryBytes(keyWords) <= mb * MiB, `${mb} MiB, ${keyWords} key words: 2^${bits} entries`);
      // the next power of two would not fit (or the cap is reached)
      assert.ok(bits === MAX_TABLE_BITS || 2 ** (bits + 1) * entryBytes(keyWords) > mb * MiB);
      // every word of the largest table is addressable by a 32-bit index
      assert.ok(2 ** bits * (keyWords + 2) < 2 ** 31);
    }
});

test('budgets: an exhausted node budget or a stop request gives unknown with sound bounds', () => {
  const st = new BoardState(geometryOf(3, 3));
  const tiny = new Solver().solve(st, { nodeBudget: 5000, moveValues: true });
  assert.equal(tiny.status, 'unknown');
  assert.equal(tiny.value, null);
  assert.deepEqual(tiny.best, []);
  assert.ok(tiny.lower <= -3 && -3 <= tiny.upper, `bounds ${tiny.lower}..${tiny.upper} must contain -3`);
  assert.ok(tiny.moveValues!.every((v) => v === null || typeof v === 'number'));
  let polls = 0;
  const stopped = new Solver().solve(st, { shouldStop: () => ++polls > 2 });
  assert.equal(stopped.status, 'unknown');
  assert.ok(polls >= 3);
  const timed = new Solver().solve(new BoardState(geometryOf(5, 5)), { timeBudgetMs: 200 });
  assert.equal(timed.status, 'unknown');
  assert.ok(timed.ms < 2000);
  // the same solver still answers exactly afterwards
  const s = new Solver();
  s.solve(st, { nodeBudget: 1000 });
  assert.equal(s.solve(st).value, -3);
});

test('progress reports carry sound bounds', () => {
  const seen: number[][] = [];
  const r = new Solver().solve(new BoardState(geometryOf(3, 3)), {
    onProgress: (p) => seen.push([p.lower, p.upper, p.movesDone, p.movesTotal]),
  });
  assert.equal(r.value, -3);
  assert.ok(seen.length >= 24);
  for (const [lo, hi] of seen) assert.ok(lo <= -3 && -3 <= hi);
});

test('finished game and forced sequences', () => {
  const g = geometryOf(2, 2);
  const st = new BoardState(g);
  for (const l of g.allLines()) st.play(l);
  const r = new Solver().solve(st, { moveValues: true });
  assert.equal(r.status, 'exact');
  assert.equal(r.value, 0);
  assert.deepEqual(r.best, []);
});

test('late positions on large boards (up to 12x12) equal brute force', () => {
  const r = rng(31337);
  const sizes: [number, number][] = [
    [12, 12],
    [7, 9],
    [12, 1],
    [1, 12],
    [10, 6],
    [6, 6],
  ];
  const shared = new Solver();
  for (let i = 0; i < 36; i++) {
    const [w, h] = sizes[i % sizes.length];
    const st = randomPosition(w, h, 18, r, 'play');
    check(st, shared, `${w}x${h} #${i} ${st.key()}`);
  }
});
