// The chain fight's bitboard search (nimstring/bitSearch.ts) against the whole-board brute force
// (brute.ts: no rules, no tables), and then, as a second oracle, the region engine (chainFight) on
// 5x5 middle and late games, where the brute force cannot reach.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { geometryOf } from '../../server/src/engine/board/geometry';
import { NimBitSearch } from '../../server/src/engine/nimstring/bitSearch';
import { bruteWins } from '../../server/src/engine/nimstring/brute';
import { chainFight } from '../../server/src/engine/nimstring';
import { nimSummary } from '../../server/src/engine/analysis/nim';
import { NimCache } from '../../server/src/engine/nimstring/cellEngine';
import { Solver } from '../../server/src/engine/solver';
import { readDab } from '../../server/src/engine/notation';
import { plausibleRecord, randomPosition } from '../support/boards';
import { mulberry32 } from '../support/random';

test('bit search: who wins the chain fight equals the brute force on 2,400 random positions, 2x2 to 3x4', () => {
  let wins = 0;
  for (const [w, h, minDrawn] of [
    [2, 2, 0],
    [2, 3, 0],
    [3, 3, 4],
    [3, 4, 10],
  ] as const) {
    const g = geometryOf(w, h);
    const search = new NimBitSearch(g, 8);
    const r = mulberry32(100 + 10 * w + h);
    for (let i = 0; i < 600; i++) {
      const s = randomPosition(w, h, r, minDrawn + Math.floor(r() * (g.lineCount - minDrawn)), i % 2 === 0);
      const truth = bruteWins(s);
      assert.equal(search.moverWins(s), truth, `${s.key()}`);
      if (truth) wins++;
    }
  }
  // both outcomes are well represented (a search that always said one would fail above)
  assert.ok(wins > 400 && wins < 2000, `${wins} wins`);
});

test('bit search: every rule off gives the same outcomes (the rules only prune)', () => {
  const g = geometryOf(3, 3);
  const plain = new NimBitSearch(g, 8, { chainRule: false, captureRule: false, equivalentMoves: false });
  const ruled = new NimBitSearch(g, 8);
  const r = mulberry32(77);
  for (let i = 0; i < 300; i++) {
    const s = randomPosition(3, 3, r, 4 + Math.floor(r() * 16), false);
    assert.equal(ruled.moverWins(s), plain.moverWins(s), s.key());
  }
});

test('the region engine (chainFight) agrees with the bit search on 5x5 middle and late games', () => {
  const g = geometryOf(5, 5);
  const search = new NimBitSearch(g, 16);
  let compared = 0,
    wins = 0;
  for (const seed of [3, 4, 11]) {
    const states = readDab(plausibleRecord(5, 5, 60, mulberry32(seed), `nim ${seed}`)).models[0].states;
    for (let ply = 21; ply <= 36; ply++) {
      const s = states[ply];
      const regions = chainFight(s, { budget: 400_000 });
      const bits = search.moverWins(s, { nodeBudget: 20_000_000 });
      if (regions.moverWins !== 'unknown' && bits !== 'unknown') {
        assert.equal(regions.moverWins, bits, `seed ${seed} ply ${ply}`);
        compared++;
        if (bits) wins++;
      }
    }
  }
  assert.ok(compared >= 30, `${compared} positions compared`);
  assert.ok(wins > 0 && wins < compared, `${wins} of ${compared} won by the player to move`);
});

test("bit search: the boxes solver's table as move hints changes no outcome", () => {
  const g = geometryOf(3, 3);
  const solver = new Solver({ tableMb: 8 });
  const plain = new NimBitSearch(g, 8);
  const hinted = new NimBitSearch(g, 8);
  const r = mulberry32(91);
  let used = 0;
  for (let i = 0; i < 300; i++) {
    const s = randomPosition(3, 3, r, 4 + Math.floor(r() * 14), false);
    if (!s.isOver()) solver.solve(s);
    const hints = solver.tableOf(g);
    if (hints) used++;
    assert.equal(hinted.moverWins(s, { hints }), plain.moverWins(s), s.key());
    assert.equal(hinted.moverWins(s, { hints }), bruteWins(s), s.key());
  }
  assert.ok(used > 250, `${used} searches with hints`);
});

// The analysis' Nimstring view (analysis/nim.ts): where the region engine's zero test gives up, the
// whole-board search decides who wins the chain fight; each such verdict equals the region engine's
// given far more (an independent engine: regions, nim-values, its own memo).
test('the Nimstring view: where the region engine gives up, the whole-board search decides, and truly', () => {
  let decidedByBits = 0;
  for (const seed of [3, 4, 5, 6, 7, 8]) {
    const states = readDab(plausibleRecord(5, 5, 60, mulberry32(seed), `nim ${seed}`)).models[0].states;
    for (const ply of [18, 19, 20]) {
      const s = states[ply];
      const small = chainFight(s, { budget: 20_000, cache: new NimCache() }).moverWins;
      const view = nimSummary(s, 20_000, false, { wholeBoard: {} });
      if (small !== 'unknown' || view.moverWinsChainFight === undefined) continue;
      const truth = chainFight(s, { budget: 2_000_000, cache: new NimCache() }).moverWins;
      assert.notEqual(truth, 'unknown', `seed ${seed} ply ${ply}: the region engine decides with more`);
      assert.equal(view.moverWinsChainFight, truth, `seed ${seed} ply ${ply}`);
      decidedByBits++;
    }
  }
  assert.ok(decidedByBits >= 3, `${decidedByBits} verdicts of the whole-board search`);
});
