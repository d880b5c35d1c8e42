// A record's budget trace (cli/recordClock.ts): a run whose record budget ran out keeps the grants
// it made, and a later run of the same record with the same budgets, reading every proof from the
// store, replays them and so makes exactly the same searches with exactly the same budgets, instead
// of spending its whole budget where the cold run's was cut short.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readDab } from '../../server/src/engine/notation';
import type { BoardState } from '../../server/src/engine/board/state';
import type { Evaluation } from '../../server/src/engine/analysis/evaluation';
import { proveDocument, type ProveOptions, type SearchCache } from '../../server/src/cli/search';
import { quickEvaluate } from '../../server/src/engine/analysis/evaluatePosition';
import { parseTrace, RecordClock, traceKey, type Grant } from '../../server/src/cli/recordClock';
import { plausibleRecord } from '../support/boards';
import { mulberry32 } from '../support/random';

function busy(ms: number): void {
  const end = Date.now() + ms;
  while (Date.now() < end);
}

/**
 * A stand-in search over a shared stand-in store: a search takes the whole time it is given (a busy
 * wait) and proves a position's result when given at least `need` ms; the store answers a position
 * searched before with at least as much time, at once, as the real store does (searchOnce, and
 * completeMoves' tried).
 */
function standIn(
  plyOf: (s: BoardState) => number,
  stored: Map<string, { e: Evaluation; ms: number }>,
  need: number | ((ply: number) => number),
) {
  const needOf = typeof need === 'number' ? () => need : need;
  const calls: string[] = [];
  let searches = 0;
  const unknown = (s: BoardState): Evaluation => {
    const R = s.openBoxCount();
    return { status: 'unknown', method: 'search', value: null, lower: -R, upper: R, best: [], ms: 0 };
  };
  const cache: SearchCache = {
    lookup: (s) => stored.get(`p${plyOf(s)}`)?.e ?? unknown(s),
    nim: () => ({}) as never,
    prove(s, b) {
      const key = `p${plyOf(s)}`;
      calls.push(`prove ${plyOf(s)} ${b.ms}`);
      const old = stored.get(key);
      if (old && old.ms >= b.ms) return old.e;
      searches++;
      // a second search goes on from the first: it takes only its own time
      busy(b.searchMs ?? b.ms);
      const lead = s.score[s.toMove] - s.score[1 - s.toMove];
      const e: Evaluation =
        b.ms >= needOf(plyOf(s)) ? { ...unknown(s), lower: 1 - lead, ms: b.ms } : { ...unknown(s), ms: b.ms };
      stored.set(key, { e, ms: Math.max(b.ms, old?.ms ?? 0) });
      return e;
    },
    completeMoves(s, ms) {
      const key = `m${plyOf(s)}`;
      calls.push(`moves ${plyOf(s)} ${ms}`);
      if ((stored.get(key)?.ms ?? 0) < ms) {
        searches++;
        busy(ms);
        stored.set(key, { e: unknown(s), ms });
      }
      return stored.get(`p${plyOf(s)}`)?.e;
    },
    nimView: () => undefined,
  };
  return { cache, calls, searches: () => searches };
}

function record() {
  const doc = readDab(plausibleRecord(5, 5, 60, mulberry32(5), 'trace'));
  const m = doc.models[0];
  return { doc, plyOf: (s: BoardState) => m.states.indexOf(s) };
}

test('a cold run cut by its record budget keeps its trace; a warm run replays it: the same searches, none made again', () => {
  const { doc, plyOf } = record();
  const stored = new Map<string, { e: Evaluation; ms: number }>();
  const traces = new Map<string, string>();
  const keep = { trace: (k: string) => traces.get(k), keepTrace: (k: string, t: string) => void traces.set(k, t) };
  // results need 25 ms: the latest positions are proven, the budget of 400 ms runs out in the first pass
  const o: ProveOptions = { positionBudgetMs: 40, recordBudgetMs: 400, traces: keep };
  const cold = standIn(plyOf, stored, 25);
  const [coldProof] = proveDocument(cold.cache, doc, o);
  assert.equal(traces.size, 1, 'the cut trace is kept');
  assert.ok(cold.searches() > 3);
  assert.ok(
    coldProof.unproven.some((u) => u.reason === 'record-budget'),
    JSON.stringify(coldProof.unproven),
  );

  const warm = standIn(plyOf, stored, 25);
  const [warmProof] = proveDocument(warm.cache, doc, o);
  assert.deepEqual(warm.calls, cold.calls, 'every search asked for with the cold run’s budget');
  assert.equal(warm.searches(), 0, 'the store answers every one');
  assert.deepEqual({ ...warmProof, ms: 0 }, { ...coldProof, ms: 0 });
  assert.equal(traces.size, 1);

  // without the trace, the same store: the budget the cold run ran out of is there, and is spent
  const lost = standIn(plyOf, stored, 25);
  proveDocument(lost.cache, doc, { ...o, traces: { trace: () => undefined, keepTrace: () => {} } });
  assert.ok(lost.searches() > 0, 'without the trace, searches the cold run never made');
  assert.notDeepEqual(lost.calls, cold.calls);
});

test('with second searches: a warm run whose first search reads the second one’s proof replays the trace too', () => {
  const { doc, plyOf } = record();
  const m = doc.models[0];
  // a searched position near the end whose result needs more than the first search (40 ms) and less
  // than both (40 ms and up to 160 more: the record has far more than one position budget left then);
  // its next move completes no box, so the next position's proof gives it no lower bound (as in
  // cli-extension.test.ts)
  const searched = m.states.map((s, ply) => ply).filter((ply) => !quickEvaluate(m.states[ply]));
  const quiet = searched.filter((p) => p + 1 < m.states.length && m.states[p + 1].toMove !== m.states[p].toMove);
  const x = quiet.filter((p) => p < searched.at(-1)!).at(-1)!;
  const need = (ply: number) => (ply === x ? 100 : 25);
  const stored = new Map<string, { e: Evaluation; ms: number }>();
  const traces = new Map<string, string>();
  const keep = { trace: (k: string) => traces.get(k), keepTrace: (k: string, t: string) => void traces.set(k, t) };
  const o: ProveOptions = { positionBudgetMs: 40, recordBudgetMs: 600, traces: keep };
  const cold = standIn(plyOf, stored, need);
  const [coldProof] = proveDocument(cold.cache, doc, o);
  assert.ok(
    cold.calls.some((c) => c.startsWith(`prove ${x} `) && Number(c.split(' ')[2]) >= 100),
    `the second search of ${x} was made: ${cold.calls.join(', ')}`,
  );
  assert.equal(traces.size, 1, 'the budget ran out');
  const warm = standIn(plyOf, stored, need);
  const [warmProof] = proveDocument(warm.cache, doc, o);
  assert.equal(warm.searches(), 0, 'the store answers every one');
  assert.deepEqual({ ...warmProof, ms: 0 }, { ...coldProof, ms: 0 });
});

test('a run cut by its total budget: the warm run with the same total budget replays it, the same searches', () => {
  const { doc, plyOf } = record();
  const stored = new Map<string, { e: Evaluation; ms: number }>();
  const traces = new Map<string, string>();
  const keep = { trace: (k: string) => traces.get(k), keepTrace: (k: string, t: string) => void traces.set(k, t) };
  const o = (): ProveOptions => ({
    positionBudgetMs: 40,
    recordBudgetMs: 5000,
    deadline: Date.now() + 400,
    totalBudgetMs: 400,
    traces: keep,
  });
  const cold = standIn(plyOf, stored, 25);
  const [coldProof] = proveDocument(cold.cache, doc, o());
  assert.ok(
    coldProof.unproven.some((u) => u.reason === 'total-budget'),
    JSON.stringify(coldProof.unproven),
  );
  assert.equal(traces.size, 1, 'the cut trace is kept');
  const warm = standIn(plyOf, stored, 25);
  const [warmProof] = proveDocument(warm.cache, doc, o());
  assert.deepEqual(warm.calls, cold.calls, 'every search asked for with the cold run’s budget');
  assert.equal(warm.searches(), 0, 'the store answers every one');
  assert.deepEqual({ ...warmProof, ms: 0 }, { ...coldProof, ms: 0 });
  // a run without a total budget, or with another, does not replay it
  const lines = [doc.models[0].states.map((s) => s.key())];
  const key = (totalBudgetMs?: number) =>
    traceKey(lines, { positionBudgetMs: 40, recordBudgetMs: 5000, totalBudgetMs });
  assert.equal(new Set([key(), key(400), key(401)]).size, 3);
  assert.ok(traces.has(key(400)));
});

test('a trace is the record’s and its budgets’: another budget does not replay it', () => {
  const { doc, plyOf } = record();
  const traces = new Map<string, string>();
  const keep = { trace: (k: string) => traces.get(k), keepTrace: (k: string, t: string) => void traces.set(k, t) };
  proveDocument(standIn(plyOf, new Map(), 25).cache, doc, { positionBudgetMs: 40, recordBudgetMs: 300, traces: keep });
  proveDocument(standIn(plyOf, new Map(), 25).cache, doc, { positionBudgetMs: 40, recordBudgetMs: 301, traces: keep });
  assert.equal(traces.size, 2);
  const lines = [doc.models[0].states.map((s) => s.key())];
  assert.notEqual(
    traceKey(lines, { positionBudgetMs: 40, recordBudgetMs: 300 }),
    traceKey([lines[0].slice(1)], { positionBudgetMs: 40, recordBudgetMs: 300 }),
  );
});

test('RecordClock: replays while the asks match, then the real clock; only a real cut counts', () => {
  const trace: Grant[] = [
    [100, 100],
    [50, 7],
    [80, 0],
  ];
  const c = new RecordClock(1_000_000, trace);
  assert.equal(c.grant(100), 100);
  assert.equal(c.grant(50), 7, 'the replayed grant, not the clock’s');
  assert.equal(c.cut, false, 'a replayed cut is not a new one');
  assert.equal(c.grant(81), 81, 'another ask: the real clock');
  assert.equal(c.grant(80), 80, 'and no replay after it');
  assert.equal(c.cut, false);
  assert.deepEqual(parseTrace(c.trace()), [
    [100, 100],
    [50, 7],
    [81, 81],
    [80, 80],
  ]);
  const spent = new RecordClock(0);
  assert.equal(spent.grant(10), 0);
  assert.equal(spent.cut, true);
  assert.equal(spent.cutByTotal, false, 'the record’s budget cut it');
  // the run's total budget: a cut by it is marked, kept in the trace and replayed as such
  const late = new RecordClock(1_000_000, undefined, Date.now(), Date.now() - 1);
  assert.equal(late.grant(10), 0);
  assert.equal(late.cutByTotal, true);
  assert.equal(late.grant(10, 5), 0, 'keep applies to the record’s budget, the total cuts anyway');
  const again = new RecordClock(1_000_000, parseTrace(late.trace()));
  assert.equal(again.grant(10), 0);
  assert.equal(again.cutByTotal, true, 'replayed: still the total budget’s cut');
  assert.equal(again.grant(11), 11);
  assert.equal(again.cutByTotal, false);
  const kept = new RecordClock(100);
  assert.ok(kept.grant(1000, 60) <= 40, 'keep: what the record has beyond it');
});

test('parseTrace: anything but a list of [ask, granted ≤ ask] pairs is no trace', () => {
  for (const bad of [
    '',
    'x',
    '{}',
    '[[1]]',
    '[[1,2]]',
    '[[-1,-1]]',
    '[["1",1]]',
    '[[1,null]]',
    'null',
    '[[1e400,1]]',
    '[[5,5,0]]',
    '[[5,5,1,1]]',
  ])
    assert.equal(parseTrace(bad), undefined, bad);
  assert.equal(parseTrace(undefined), undefined);
  assert.equal(parseTrace(`[${'[1,1],'.repeat(1_000_000)}[1,1]]`), undefined, 'too long to be a record’s');
  assert.deepEqual(parseTrace('[[5,5],[5,0],[5,1,1]]'), [
    [5, 5],
    [5, 0],
    [5, 1, 1],
  ]);
});
