import { test } from 'node:test';
import assert from 'node:assert/strict';
import { geometryOf, parseLine } from '../../server/src/engine/board/geometry';
import { BoardState } from '../../server/src/engine/board/state';
import {
  nimstring,
  bruteValue,
  bruteWins,
  NimCache,
  naiveValue,
  regionValue,
  newContext,
  canonicalKey,
  cellsOfState,
  simplify,
  LOONY,
} from '../../server/src/engine/nimstring/index';
import { bruteLosingHeaps, clearBruteMemo } from '../../server/src/engine/nimstring/brute';
import { lcg as rng } from '../support/random';
import { randomPosition } from '../support/boards';

/** A board with every line drawn except the named ones. */
function onlyUndrawn(w: number, h: number, names: string[]): BoardState {
  const g = geometryOf(w, h);
  const s = new BoardState(g);
  const keep = new Set(
    names.map((n) => {
      const p = parseLine(g, n);
      if (!p.ok) throw new Error(p.message);
      return p.line;
    }),
  );
  for (const l of g.allLines()) if (!keep.has(l)) s.drawSilently(l);
  return s;
}

function crossCheck(w: number, h: number, count: number, minDrawn: number, seed: number, withMoves: number) {
  const r = rng(seed);
  const cache = new NimCache();
  const seen = new Map<string, number>();
  let checked = 0;
  for (let it = 0; it < count; it++) {
    const s = randomPosition(w, h, r, minDrawn, it % 2 === 0);
    const res = nimstring(s, { cache, moveValues: it < withMoves });
    const b = bruteValue(s);
    assert.equal(res.nimber, b, `${w}x${h} ${s.key()}: nimstring ${res.nimber} vs brute ${b}`);
    assert.equal(res.nimber === 0, !bruteWins(s), `${s.key()}: zero iff player to move loses`);
    // the nim-value is the ONLY heap the position loses against
    const losing = bruteLosingHeaps(s, g(s) + 2);
    assert.deepEqual(losing, b === 'loony' ? [] : [b], `${s.key()} losing heaps`);
    for (const m of res.moveValues) {
      const after = s.clone();
      after.drawSilently(m.line);
      assert.equal(m.nimber, bruteValue(after), `${s.key()} move ${m.name}`);
      assert.equal(m.winning, m.capture ? bruteWins(after) : !bruteWins(after), `${s.key()} move ${m.name} winning`);
    }
    seen.set(String(b), (seen.get(String(b)) ?? 0) + 1);
    checked++;
  }
  return { checked, seen };
}
const g = (s: BoardState) => s.geometry.lineCount - s.drawnCount;

test('pinned values: chains, loops, single boxes, opened chains', () => {
  // 1x1 box with all four strings: *1 (first player wins Nimstring: the second completes the box and loses)
  assert.equal(nimstring(new BoardState(geometryOf(1, 1))).nimber, 1);
  // a box with one string left: the player to move must complete the last box and loses
  assert.equal(nimstring(onlyUndrawn(1, 1, ['a1-b1'])).nimber, 0);
  // isolated 1-chain (two strings to the ground): *1
  assert.equal(nimstring(onlyUndrawn(1, 1, ['a1-b1', 'a2-b2'])).nimber, 1);
  // isolated 2-chain: *1 (cut in the middle; opening at an end is loony)
  const two = onlyUndrawn(2, 1, ['a1-a2', 'b1-b2', 'c1-c2']);
  assert.equal(nimstring(two).nimber, 1);
  // isolated long chains (3, 4, 5 boxes): 0 — every move is loony
  assert.equal(nimstring(onlyUndrawn(3, 1, ['a1-a2', 'b1-b2', 'c1-c2', 'd1-d2'])).nimber, 0);
  assert.equal(nimstring(onlyUndrawn(4, 1, ['a1-a2', 'b1-b2', 'c1-c2', 'd1-d2', 'e1-e2'])).nimber, 0);
  // a 4-loop (2x2 with the outside drawn): 0
  const loop = onlyUndrawn(2, 2, ['a2-b2', 'b2-c2', 'b1-b2', 'b2-b3']);
  assert.equal(nimstring(loop).nimber, 0);
  assert.ok(nimstring(loop).moveValues.every((m) => m.nimber === 'loony' && !m.winning));
  // opened 3-chain: loony (player to move wins by taking all or all-but-two)
  assert.equal(nimstring(onlyUndrawn(3, 1, ['b1-b2', 'c1-c2', 'd1-d2'])).nimber, LOONY);
  // 2-chain opened at its end: loony; opened in the middle: two free boxes, 0
  assert.equal(nimstring(onlyUndrawn(2, 1, ['b1-b2', 'c1-c2'])).nimber, LOONY);
  assert.equal(nimstring(onlyUndrawn(2, 1, ['a1-a2', 'c1-c2'])).nimber, 0);
  // sums: 1-chain + 1-chain = 0; 1-chain + 2-chain = 0; 1-chain + long chain = 1
  const oneTwo = onlyUndrawn(3, 1, ['a1-b1', 'a2-b2', 'b1-c1', 'c1-c2', 'd1-d2']);
  assert.equal(nimstring(oneTwo).regions.length, 2);
  assert.deepEqual(
    nimstring(oneTwo).regions.map((r) => r.nimber),
    [1, 1],
  );
  assert.equal(nimstring(oneTwo).nimber, 0);
  assert.equal(bruteValue(oneTwo), 0);
  // empty boards (checked against the brute force in the random tests as well)
  assert.equal(nimstring(new BoardState(geometryOf(2, 2))).nimber, bruteValue(new BoardState(geometryOf(2, 2))));
  assert.equal(nimstring(new BoardState(geometryOf(2, 3))).nimber, bruteValue(new BoardState(geometryOf(2, 3))));
  for (const s of [two, loop]) assert.equal(nimstring(s).nimber, bruteValue(s));
});

test('Brinker: a position whose every move is loony has nim-value 0', () => {
  // two long chains: every move opens one
  const s = onlyUndrawn(3, 2, ['a1-a2', 'b1-b2', 'c1-c2', 'd1-d2', 'a2-a3', 'b2-b3', 'c2-c3', 'd2-d3']);
  const r = nimstring(s);
  assert.ok(r.moveValues.every((m) => m.nimber === 'loony'));
  assert.equal(r.nimber, 0);
  assert.equal(r.regions.length, 2);
  assert.equal(r.longChains, 2);
});

test('exhaustive 2x2: every position agrees with the whole-board brute force', () => {
  const gg = geometryOf(2, 2);
  const cache = new NimCache();
  for (let mask = 0; mask < 1 << gg.lineCount; mask++) {
    const s = new BoardState(gg);
    for (let l = 0; l < gg.lineCount; l++) if (mask & (1 << l)) s.drawSilently(l);
    const res = nimstring(s, { cache });
    assert.equal(res.nimber, bruteValue(s), s.key());
    for (const m of res.moveValues) {
      const after = s.clone();
      after.drawSilently(m.line);
      assert.equal(m.winning, m.capture ? bruteWins(after) : !bruteWins(after));
    }
  }
});

test('random 2x3 positions agree with the brute force (value, win/loss, every move)', () => {
  const { checked, seen } = crossCheck(2, 3, 3000, 0, 11, 1000);
  assert.equal(checked, 3000);
  assert.ok((seen.get('3') ?? 0) > 10 && (seen.get('loony') ?? 0) > 10, JSON.stringify([...seen]));
});

test('random late 3x3 positions agree with the brute force', () => {
  const { seen } = crossCheck(3, 3, 2000, 10, 22, 500);
  assert.ok((seen.get('2') ?? 0) > 10 && (seen.get('0') ?? 0) > 10, JSON.stringify([...seen]));
});

test('random late 3x4 positions agree with the brute force', () => {
  const { seen } = crossCheck(3, 4, 400, 19, 33, 150);
  assert.ok((seen.get('1') ?? 0) > 10, JSON.stringify([...seen]));
  clearBruteMemo();
});

test('symmetric regions get the same canonical key and value', () => {
  const r = rng(5);
  const gg = geometryOf(3, 3);
  for (let it = 0; it < 200; it++) {
    const s = randomPosition(3, 3, r, 4, true);
    // rotate the board a quarter turn: box (x, y) -> (y, 2 - x); line by its dots
    const t = new BoardState(gg);
    for (let l = 0; l < gg.lineCount; l++) {
      if (!s.drawn[l]) continue;
      const [a, b] = gg.lineDots(l);
      const rot = (d: { x: number; y: number }) => ({ x: d.y, y: 3 - d.x });
      t.drawSilently(gg.lineBetween(rot(a), rot(b))!);
    }
    const ks = simplify(cellsOfState(s).cells);
    const kt = simplify(cellsOfState(t).cells);
    if (ks === LOONY || kt === LOONY) {
      assert.equal(ks, kt);
      continue;
    }
    assert.deepEqual(ks.map(canonicalKey).sort(), kt.map(canonicalKey).sort());
    assert.equal(nimstring(s).nimber, nimstring(t).nimber);
  }
});

test("memoized values equal Brinker's naive recursion", () => {
  const r = rng(9);
  for (let it = 0; it < 150; it++) {
    const s = randomPosition(3, 3, r, 10, true);
    const parts = simplify(cellsOfState(s).cells);
    if (parts === LOONY) continue;
    const ctx = newContext(1e7, new NimCache());
    let x = 0;
    for (const p of parts) x ^= regionValue(p, ctx);
    assert.equal(naiveValue(parts.flat(), { nodes: 0, budget: 1e7 }), x);
  }
});

test('budget exhausted gives unknown, never a guess', () => {
  const s = new BoardState(geometryOf(3, 3));
  const res = nimstring(s, { budget: 50, cache: new NimCache() });
  assert.equal(res.nimber, 'unknown');
  assert.equal(res.complete, false);
  assert.ok(
    res.moveValues.every((m) => m.nimber === 'unknown' || typeof m.nimber === 'number' || m.nimber === 'loony'),
  );
  assert.ok(res.moveValues.filter((m) => m.nimber === 'unknown').every((m) => m.winning === 'unknown'));
});

test('long chain rule: first player wants dots + long chains even', () => {
  for (const [w, h] of [
    [3, 3],
    [5, 5],
    [2, 3],
    [4, 5],
  ] as const) {
    const res = nimstring(new BoardState(geometryOf(w, h)), { moveValues: false, budget: 10 });
    const dots = (w + 1) * (h + 1);
    assert.equal(res.longChainRule.dots, dots);
    assert.equal(res.longChainRule.wantsLongChains, dots % 2 === 0 ? 'even' : 'odd');
  }
});
