// Who wins the chain fight, carried along a record's moves (analysis/nim.ts, chainFightAlongLine):
// every verdict it adds is checked against the Nimstring brute force, on whole records.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeText } from '../../server/src/engine/analysis/analyzeDocument';
import { chainFightAlongLine, longChainFacts, type NimSummary } from '../../server/src/engine/analysis/nim';
import type { BoardState } from '../../server/src/engine/board/state';
import { bruteWins, clearBruteMemo } from '../../server/src/engine/nimstring/brute';
import { plausibleRecord } from '../support/boards';
import { mulberry32 } from '../support/random';

test('chain fight along a record: every verdict carried by a move played is the brute force’s', () => {
  let given = 0,
    carried = 0,
    checked = 0;
  for (const [w, h, records] of [
    [2, 2, 150],
    [2, 3, 150],
    [3, 3, 60],
  ] as const) {
    clearBruteMemo();
    for (let seed = 1; seed <= records; seed++) {
      const r = mulberry32(seed * 7919 + w * 31 + h);
      const text = plausibleRecord(w, h, Infinity, r);
      // a view with the true verdict at some positions, the long chain facts alone (no verdict) elsewhere
      const withVerdict = new Set<string>();
      const nim = (state: BoardState): NimSummary => {
        const facts = longChainFacts(state);
        if (r() < 0.35) return facts;
        withVerdict.add(state.key());
        const wins = bruteWins(state);
        return { ...facts, moverWinsChainFight: wins, ...(wins ? {} : { nimber: 0 }) };
      };
      const positions = analyzeText(text, { nim }).entries[0].positions;
      for (const p of positions) {
        if (!p.nim || !p.state) continue;
        const v = p.nim.moverWinsChainFight;
        if (v === undefined) continue;
        checked++;
        const truth = bruteWins(p.state);
        assert.equal(v, truth, `${w}x${h} seed ${seed} ply ${p.ply}: ${v} against the brute force's ${truth}`);
        if (!v) assert.equal(p.nim.nimber, 0, 'a lost chain fight is the nim-value 0');
        if (withVerdict.has(p.state.key())) given++;
        else carried++;
      }
    }
  }
  console.log(`carried ${carried} given ${given} checked ${checked}`);
  assert.ok(carried > 200, `${carried} verdicts carried (${given} given, ${checked} checked)`);
});

test('chain fight along a line: a verdict is never replaced, a position without a view gets none', () => {
  const view = (wins?: boolean): NimSummary => ({
    nimber: 'unknown',
    regions: [],
    longChains: 0,
    loops: 0,
    wantsLongChains: 'even',
    currentFavoursPlayerToMove: true,
    ...(wins === undefined ? {} : { moverWinsChainFight: wins }),
  });
  // 0 -(passes)-> 1 (lost) -(keeps)-> 2 -(passes)-> 3
  const views = [view(), view(false), view(), undefined];
  const out = chainFightAlongLine(views, [false, true, false]);
  assert.equal(out[0]?.moverWinsChainFight, true, 'a move that leaves a lost position wins');
  assert.equal(out[2]?.moverWinsChainFight, false, 'a lost position keeps its loss through a move that keeps the turn');
  assert.equal(out[3], undefined, 'no view: none made up');
  assert.equal(views[0]?.moverWinsChainFight, undefined, 'the views given are not changed');
  // a verdict already there stays, whatever the line says
  const kept = chainFightAlongLine([view(false), view(false)], [false]);
  assert.equal(kept[0]?.moverWinsChainFight, false);
  // a won position says nothing about the move played from it
  const won = chainFightAlongLine([view(true), view()], [false]);
  assert.equal(won[1]?.moverWinsChainFight, undefined);
});
