// The CLI's record schedule (cli/search.ts proveDocument) with a stand-in search whose proofs
// depend only on the time it is given: what is left of the record's budget goes back to the
// frontier (the latest positions whose result is still unproven), result first, up to 4 times the
// per-position budget each, latest first, and the first that stays unproven ends it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readDab } from '../../server/src/engine/notation';
import type { BoardState } from '../../server/src/engine/board/state';
import type { Evaluation } from '../../server/src/engine/analysis/evaluation';
import { quickEvaluate } from '../../server/src/engine/analysis/evaluatePosition';
import { proveDocument, type PositionBudget, type SearchCache } from '../../server/src/cli/search';
import { plausibleRecord } from '../support/boards';
import { mulberry32 } from '../support/random';

/**
 * A search that proves a position's result (a win for the mover, by at least 1 at parity) when it
 * is given at least need(ply) ms, and its exact value 1 when given twice that; never a value it has
 * not "proven". Every call is logged.
 */
function standIn(plyOf: (s: BoardState) => number, need: (ply: number) => number) {
  const calls: { ply: number; ms: number; resultOnly: boolean }[] = [];
  const known = new Map<number, Evaluation>();
  const cache: SearchCache = {
    lookup: (s) => known.get(plyOf(s)) ?? unknown(s),
    nim: () => ({}) as never,
    prove(s: BoardState, b: PositionBudget) {
      const ply = plyOf(s);
      calls.push({ ply, ms: b.ms, resultOnly: b.resultOnly === true });
      const R = s.openBoxCount();
      const odd = R % 2;
      const old = known.get(ply);
      let e: Evaluation = old ?? unknown(s);
      if (b.ms >= 2 * need(ply) && !b.resultOnly)
        e = exact(1 - (1 - odd)); // value of R's parity
      else if (b.ms >= need(ply) && e.status !== 'exact') e = { ...e, lower: Math.max(e.lower, odd ? 1 : 2), ms: b.ms };
      else if (e.status !== 'exact') e = { ...e, ms: b.ms };
      known.set(ply, e);
      return e;
    },
    completeMoves: (s) => known.get(plyOf(s)),
  };
  function unknown(s: BoardState): Evaluation {
    const R = s.openBoxCount();
    return { status: 'unknown', method: 'search', value: null, lower: -R, upper: R, best: [], ms: 0 };
  }
  function exact(v: number): Evaluation {
    return { status: 'exact', method: 'search', value: v, lower: v, upper: v, best: [], ms: 0 };
  }
  return { cache, calls, known };
}

test('the rest of the record budget goes back to the frontier, latest first, results only', () => {
  const doc = readDab(plausibleRecord(5, 5, 60, mulberry32(3), 'frontier'));
  const m = doc.models[0];
  const plyOf = (s: BoardState) => m.states.indexOf(s);
  // late positions are cheap; ply 20 needs 4x, ply 19 3x and ply 18 5x the per-position budget
  const budget = 100;
  const need = (ply: number) => (ply === 20 ? 4 * budget : ply === 19 ? 3 * budget : ply <= 18 ? 5 * budget : 1);
  const { cache, calls, known } = standIn(plyOf, need);
  const [proof] = proveDocument(cache, doc, { positionBudgetMs: budget, recordBudgetMs: 60_000 });
  const searched = [...new Set(calls.map((c) => c.ply))].filter((p) => !quickEvaluate(m.states[p]));
  assert.ok(searched.includes(20), `ply 20 searched: ${searched}`);
  // first pass: ply 20 fails at the full budget, 19 and 18 get short probes, earlier ones no search (ms 0: the table's bounds only)
  const first = calls.filter((c) => c.ply <= 20 && c.ms > 0 && c.ms <= budget);
  assert.deepEqual(
    first.map((c) => c.ply),
    [20, 19, 18],
    JSON.stringify(first),
  );
  // then the frontier again: 20 and 19 proven with 4x the budget, 18 tried and not, nothing earlier
  const again = calls.filter((c) => c.ms > budget);
  assert.deepEqual(
    again.map((c) => [c.ply, c.ms, c.resultOnly]),
    [
      [20, 4 * budget, true],
      [19, 4 * budget, true],
      [18, 4 * budget, true],
    ],
  );
  for (const ply of [20, 19]) assert.ok(known.get(ply)!.lower > 0, `ply ${ply} proven a win`);
  assert.ok(known.get(18)!.lower < 0, 'ply 18 still unproven');
  const u = (ply: number) => proof.unproven.find((x) => x.ply === ply);
  assert.deepEqual([u(20)?.reason, u(20)?.resultProven], ['record-budget', true]);
  assert.deepEqual([u(19)?.reason, u(19)?.resultProven], ['record-budget', true]);
  assert.deepEqual([u(18)?.reason, u(18)?.resultProven], ['record-budget', false]);
  assert.equal(u(17)?.reason, 'skipped');
});

test('no record budget left: no second search', () => {
  const doc = readDab(plausibleRecord(5, 5, 60, mulberry32(3), 'frontier'));
  const m = doc.models[0];
  const { cache, calls } = standIn(
    (s) => m.states.indexOf(s),
    (ply) => (ply <= 20 ? 1e9 : 1),
  );
  proveDocument(cache, doc, { positionBudgetMs: 100, recordBudgetMs: 60_000, deadline: Date.now() - 1 });
  assert.ok(
    calls.every((c) => c.ms <= 100),
    JSON.stringify(calls.filter((c) => c.ms > 100)),
  );
});
