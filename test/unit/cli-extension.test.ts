// The CLI's record schedule (cli/search.ts proveDocument) with a stand-in search whose proofs
// depend only on the time it is given: a result-only search that leaves a position's result unproven is
// followed at once by a second, result-only search with what the record's budget has beyond one
// position budget (at most four), and the position's result decides whether earlier positions get
// full searches or probes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readDab } from '../../server/src/engine/notation';
import type { BoardState } from '../../server/src/engine/board/state';
import type { Evaluation } from '../../server/src/engine/analysis/evaluation';
import { quickEvaluate } from '../../server/src/engine/analysis/evaluatePosition';
import { proveDocument, type PositionBudget, type SearchCache } from '../../server/src/cli/search';
import type { NimSummary } from '../../server/src/engine/analysis/nim';
import { plausibleRecord } from '../support/boards';
import { mulberry32 } from '../support/random';

/**
 * A search that proves a position's result (a win for the mover) when given at least need(ply) ms in
 * all (a second search goes on from the first: b.ms counts both), and nothing otherwise; it never
 * claims what it was not given the time for. Every call is logged, with the search's own time.
 */
function standIn(plyOf: (s: BoardState) => number, need: (ply: number) => number) {
  const calls: { ply: number; ms: number; own: number; resultOnly: boolean }[] = [];
  const known = new Map<number, Evaluation>();
  const unknown = (s: BoardState): Evaluation => {
    const R = s.openBoxCount();
    return { status: 'unknown', method: 'search', value: null, lower: -R, upper: R, best: [], ms: 0 };
  };
  const cache: SearchCache = {
    lookup: (s) => known.get(plyOf(s)) ?? unknown(s),
    nim: () => ({}) as never,
    prove(s: BoardState, b: PositionBudget) {
      const ply = plyOf(s);
      calls.push({ ply, ms: b.ms, own: b.searchMs ?? b.ms, resultOnly: b.resultOnly === true });
      const old = known.get(ply) ?? unknown(s);
      // a win by the score lead + 1 at least: the mover wins whatever the score so far
      const lead = s.score[s.toMove] - s.score[1 - s.toMove];
      const e: Evaluation =
        b.ms >= need(ply) ? { ...old, lower: Math.max(old.lower, 1 - lead), ms: b.ms } : { ...old, ms: b.ms };
      known.set(ply, e);
      return e;
    },
    completeMoves: (s) => known.get(plyOf(s)),
    nimView: () => undefined,
  };
  return { cache, calls, known };
}

function record() {
  const doc = readDab(plausibleRecord(5, 5, 60, mulberry32(3), 'extension'));
  const m = doc.models[0];
  const searched = m.states.map((s, ply) => (quickEvaluate(s) ? -1 : ply)).filter((p) => p >= 0);
  // plies whose next move completes no box: the stand-in's proofs there give the position before
  // them no lower bound (playedMoveFloor), so its own search alone decides its result
  const quiet = searched.filter((p) => p + 1 < m.states.length && m.states[p + 1].toMove !== m.states[p].toMove);
  return { doc, m, last: Math.max(...searched), quiet, plyOf: (s: BoardState) => m.states.indexOf(s) };
}

test('a full search that leaves the result unproven gets a second one at once; proven, the earlier positions get full searches', () => {
  const { doc, last, quiet, plyOf } = record();
  const budget = 100;
  // three quiet plies below the latest searched one: the first needs 5x the budget, the next 3x, the
  // last 6x (more than both searches have); the plies between them 1 ms, earlier ones 6x
  const [a, b, c] = quiet
    .filter((p) => p < last)
    .slice(-3)
    .reverse();
  const need = (ply: number) => (ply === a ? 5 * budget : ply === b ? 3 * budget : ply <= c ? 6 * budget : 1);
  const { cache, calls, known } = standIn(plyOf, need);
  const [proof] = proveDocument(cache, doc, { positionBudgetMs: budget, recordBudgetMs: 60_000 });
  const probe = Math.max(20, budget * 0.15);
  const expected: [number, number, number, boolean][] = [];
  const margins: [number, number, number, boolean][] = [];
  for (let ply = a; ply >= c - 2; ply--) {
    if (ply < c) expected.push([ply, probe, probe, true]);
    else {
      const second = ply === a || ply === b || ply === c;
      expected.push(
        [ply, budget, budget, true],
        ...(second ? [[ply, 5 * budget, 4 * budget, true] as [number, number, number, boolean]] : []),
      );
      // a proven result's margin, at once and briefly (the stand-in never proves one)
      const total = second ? 5 * budget : budget;
      if (ply !== c) margins.push([ply, total + 0.2 * budget, 0.2 * budget, false]);
    }
  }
  const near = calls
    .filter((x) => x.ply >= c - 2 && x.ply <= a)
    .map((x): [number, number, number, boolean] => [x.ply, x.ms, x.own, x.resultOnly]);
  // the first pass's searches are result-only: its results first, the margins after them
  assert.deepEqual(
    near.filter((x) => x[3]),
    expected,
    JSON.stringify(near),
  );
  assert.deepEqual(
    near.filter((x) => !x[3] && x[2] < budget),
    margins,
    JSON.stringify(near),
  );
  // the second pass, after every result: a margin search of a whole budget each, going on from the
  // first pass's, until three fail (the stand-in never proves one)
  const second = calls.filter((x) => !x.resultOnly && x.own === budget);
  const lastResult = calls.map((x) => x.resultOnly).lastIndexOf(true);
  assert.ok(second.length > 0 && second.length <= 3, JSON.stringify(second));
  for (const x of second) {
    assert.ok(calls.indexOf(x) > lastResult);
    const before = calls.filter((y) => y.ply === x.ply && y !== x).at(-1)!;
    assert.equal(x.ms, before.ms + budget);
  }
  for (const ply of [a, b]) assert.ok(known.get(ply)!.lower > -known.get(ply)!.upper, `ply ${ply} proven`);
  const u = (ply: number) => proof.unproven.find((x) => x.ply === ply);
  // proven by the second search: reads as searched with the whole budget (as a warm run sees it)
  assert.deepEqual([u(a)?.reason, u(a)?.resultProven], ['budget', true]);
  assert.deepEqual([u(c)?.reason, u(c)?.resultProven], ['extended', false]);
  assert.equal(u(c - 1)?.reason, 'probe');
  // the plies between a and c are proven by their first search, c is not
  assert.equal(proof.firstResultPly, c + 1);
});

test('no more than one position budget left, or no time left in the run: no second search', () => {
  const { doc, plyOf } = record();
  for (const o of [
    { positionBudgetMs: 100, recordBudgetMs: 110 },
    { positionBudgetMs: 100, recordBudgetMs: 60_000, deadline: Date.now() - 1 },
  ]) {
    const { cache, calls } = standIn(plyOf, () => 1e9);
    proveDocument(cache, doc, o);
    assert.ok(calls.length > 0);
    assert.ok(
      calls.every((c) => c.ms <= 100),
      JSON.stringify(calls.filter((c) => c.ms > 100)),
    );
  }
});

test('a second search gets what the record has beyond one position budget, and says so when it proves nothing', () => {
  const { doc, last, quiet, plyOf } = record();
  const a = quiet.filter((p) => p < last).at(-1)!;
  const { cache, calls } = standIn(plyOf, (ply) => (ply > a ? 1 : 1e9));
  const t0 = Date.now();
  const slow: SearchCache = {
    ...cache,
    prove(s, b) {
      const e = cache.prove(s, b);
      // the first search of ply a takes all but 300 ms of the record's budget: 100 ms are kept
      if (plyOf(s) === a && b.ms === 100) while (Date.now() - t0 < 4700) e.ms = Date.now() - t0;
      return e;
    },
  };
  const [proof] = proveDocument(slow, doc, { positionBudgetMs: 100, recordBudgetMs: 5000 });
  const second = calls.find((c) => c.ply === a && c.ms > 100);
  // the record's budget starts when proveDocument does, a moment after t0: a few ms of slack
  assert.ok(
    second && second.own <= 205 && second.own >= 150 && second.ms === 100 + second.own && second.resultOnly,
    JSON.stringify(calls.filter((c) => c.ply === a)),
  );
  assert.equal(proof.unproven.find((x) => x.ply === a)?.reason, 'extended');
});

test('between the passes, the positions whose result stays unproven get a Nimstring view, from the end, until two say nothing', () => {
  const { doc, m, last, quiet, plyOf } = record();
  const budget = 100;
  // every position from ply a back stays unproven; the view says who wins the chain fight at a - 1 alone
  const a = quiet.filter((p) => p < last).at(-1)!;
  const { cache } = standIn(plyOf, (ply) => (ply > a ? 1 : 1e9));
  const log: { kind: 'prove' | 'nim'; ply: number; ms: number; resultOnly?: boolean }[] = [];
  const logged: SearchCache = {
    ...cache,
    prove(s, b) {
      log.push({ kind: 'prove', ply: plyOf(s), ms: b.searchMs ?? b.ms, resultOnly: b.resultOnly === true });
      return cache.prove(s, b);
    },
    nimView(s, _regions, ms) {
      log.push({ kind: 'nim', ply: plyOf(s), ms });
      return plyOf(s) === a - 1 ? ({ moverWinsChainFight: true } as NimSummary) : ({} as NimSummary);
    },
  };
  const [proof] = proveDocument(logged, doc, { positionBudgetMs: budget, recordBudgetMs: 60_000 });
  const lastResult = log.map((x) => x.kind === 'prove' && x.resultOnly).lastIndexOf(true);
  const firstMargin = log.findIndex((x, i) => i > lastResult && x.kind === 'prove');
  assert.ok(lastResult >= 0 && firstMargin > lastResult, JSON.stringify(log.slice(-20)));
  // the unproven positions, latest first: a (its second search failed), then the probes and skipped ones
  const dark = m.states.map((_, ply) => ply).filter((ply) => ply <= a && !quickEvaluate(m.states[ply]));
  dark.reverse();
  const between = log.slice(lastResult + 1, firstMargin);
  assert.deepEqual(
    between.map((x) => [x.kind, x.ply, x.ms]),
    dark.slice(0, 3).map((ply) => ['nim', ply, 0.2 * budget]),
    JSON.stringify(between),
  );
  // none of them had a view in the first pass (they were not searched with their whole budget)
  const firstPassViews = log
    .slice(0, lastResult)
    .filter((x) => x.kind === 'nim')
    .map((x) => x.ply);
  assert.ok(firstPassViews.length > 0 && firstPassViews.every((ply) => ply > a), JSON.stringify(firstPassViews));
  assert.equal(proof.unproven.find((x) => x.ply === a)?.reason, 'extended');
});
