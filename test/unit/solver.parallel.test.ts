// The multi-threaded value proof (solveParallel: root moves split between worker threads) against
// the brute force on small boards and late positions.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { geometryOf } from '../../server/src/engine/board/geometry';
import { BoardState } from '../../server/src/engine/board/state';
import { bruteForce } from '../../server/src/engine/solver';
import { solveParallel } from '../../server/src/engine/solver/parallel';
import { mulberry32 as rng } from '../support/random';

test('solveParallel: empty small boards and late positions equal brute force', async () => {
  const r = rng(99);
  const cases: BoardState[] = [
    new BoardState(geometryOf(2, 2)),
    new BoardState(geometryOf(2, 3)),
    new BoardState(geometryOf(1, 4)),
  ];
  const sizes: [number, number, number][] = [
    [4, 4, 18],
    [3, 3, 16],
    [5, 4, 18],
    [3, 4, 17],
  ];
  for (let i = 0; i < 12; i++) {
    const [w, h, u] = sizes[i % sizes.length];
    const g = geometryOf(w, h);
    const st = new BoardState(g);
    while (g.lineCount - st.drawnCount > u) {
      const all = st.undrawnLines();
      const safe = all.filter((l) => !g.boxesOfLine(l).some((b) => st.sidesDrawn(b) === 2));
      const pool = safe.length > 0 && r() < 0.9 ? safe : all;
      st.play(pool[Math.floor(r() * pool.length)]);
    }
    cases.push(st);
  }
  for (const [i, st] of cases.entries()) {
    const bf = bruteForce(st);
    // a wrong first guess on purpose for some: the root MTD must move the guess both ways
    const res = await solveParallel(st, {
      threads: 2,
      guess: i % 3 === 0 ? 4 : i % 3 === 1 ? -4 : 0,
      config: { tableBits: 12 },
    });
    assert.equal(res.status, 'exact', `#${i} ${st.key()}`);
    assert.equal(res.value, bf.value, `#${i} ${st.key()}: value`);
    assert.ok(res.tests > 0 || st.isOver());
  }
});

test('solveParallel: a tiny time budget gives unknown with sound bounds', async () => {
  const st = new BoardState(geometryOf(3, 3));
  const res = await solveParallel(st, { threads: 2, timeBudgetMs: 1, config: { tableBits: 12 } });
  if (res.status === 'exact') assert.equal(res.value, -3);
  else {
    assert.equal(res.value, null);
    assert.ok(res.lower <= -3 && -3 <= res.upper, `[${res.lower}, ${res.upper}]`);
  }
});
