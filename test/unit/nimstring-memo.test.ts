// The Nimstring memo (NimCache, nimstring/cellEngine.ts): zero-test wins kept by key and heap, each
// map within its share of the bounds, and a memo too small for a search (cleared again and again in
// the middle of it) giving the values of a large one, on both engines, against the brute force.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bruteValue, chainFight, nimstring, NimCache } from '../../server/src/engine/nimstring/index';
import { clearBruteMemo } from '../../server/src/engine/nimstring/brute';
import { lcg as rng } from '../support/random';
import { randomPosition } from '../support/boards';

test('NimCache: a zero test won is known by its key and heap only, high heaps too, and goes when its map is cleared', () => {
  const cache = new NimCache();
  const keys = ['\uffffab', '\uffffab|3', '\uffffa', 'x|1'];
  const won = (k: number, h: number) => (k * 7 + h * 3) % 5 < 2;
  for (let k = 0; k < keys.length; k++) for (let h = 0; h <= 40; h++) if (won(k, h)) cache.addWin(keys[k], h);
  for (let k = 0; k < keys.length; k++)
    for (let h = 0; h <= 40; h++) assert.equal(cache.hasWin(keys[k], h), won(k, h), `${keys[k]} + *${h}`);
  // a value is not a win, and a win is not a value
  cache.set(keys[0], 2);
  assert.equal(cache.get(keys[0]), 2);
  assert.equal(cache.hasWin(keys[2], 2), won(2, 2));
  cache.clear();
  for (let h = 0; h <= 40; h++) assert.equal(cache.hasWin(keys[0], h), false);
  assert.equal(cache.size, 0);
});

test('NimCache: each map is cleared alone when it reaches its share of the bounds', () => {
  const cache = new NimCache(40, 1_000_000);
  for (let i = 0; i < 15; i++) cache.set(`v${i}`, i % 3);
  for (let i = 0; i < 9; i++) cache.addWin(`w${i}`, i % 4);
  cache.addWin('w0', 35);
  // wins: a share of 1/4 (10 entries, the high heaps counted): the 11th clears them, not the values
  assert.equal(cache.wins.size, 9);
  cache.addWin('w9', 0);
  assert.equal(cache.hasWin('w0', 0), false, 'the wins were cleared');
  assert.equal(cache.hasWin('w0', 35), false, 'the high heaps with them');
  assert.equal(cache.hasWin('w9', 0), true);
  assert.equal(cache.get('v14'), 2, 'the values stay');
  // values: a share of 1/2 (20 entries)
  for (let i = 15; i < 21; i++) cache.set(`v${i}`, 1);
  assert.ok(cache.map.size <= 20, `${cache.map.size} values`);
  assert.equal(cache.hasWin('w9', 0), true, 'the wins stay');
  // the characters too: a memo of 400 characters holds no more than its share of long keys
  const small = new NimCache(1_000_000, 400);
  for (let i = 0; i < 50; i++) small.addWin(`${'k'.repeat(30)}${i}`, 1);
  assert.ok(small.wins.size * 31 <= 100, `${small.wins.size} wins of 31 characters in a share of 100`);
});

test('a memo too small for its search, cleared again and again in the middle of it, gives the true values: both engines, brute force', () => {
  clearBruteMemo();
  const r = rng(4711);
  let cleared = 0;
  for (let i = 0; i < 60; i++) {
    const s = randomPosition(3, 3, r, 6 + (i % 6), i % 2 === 0);
    const truth = bruteValue(s);
    for (const engine of ['graph', 'cells'] as const) {
      const cache = new NimCache(24, 2_000);
      const res = nimstring(s, { cache, engine, budget: 1e7, zeroTestMinCoins: i % 3 === 0 ? 1 : undefined });
      assert.equal(res.nimber, truth, `${engine}: ${s.key()}`);
      const fight = chainFight(s, { cache: new NimCache(24, 2_000), engine, budget: 1e7 });
      assert.equal(fight.moverWins, truth === 'loony' || truth !== 0, `${engine} chain fight: ${s.key()}`);
      if (res.nodes > 24) cleared++;
      assert.ok(
        cache.map.size <= 12 && cache.wins.size <= 6 && cache.canonical.size <= 6,
        `${engine}: the maps within their shares`,
      );
    }
  }
  assert.ok(cleared >= 10, `searches larger than the memo: ${cleared}`);
});
