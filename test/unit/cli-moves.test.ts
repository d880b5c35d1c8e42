// The CLI's record schedule (cli/search.ts proveDocument) and the optimal moves of exact positions:
// a position a mistake was played from gets its moves searched in the second pass (after the
// results), with a fifth of the per-position budget; the other exact positions, and mistakes not
// finished then, wait until both passes are done, mistakes first. A stand-in search
// gives exact values from a fixed rule, so which moves are mistakes is known here without it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { allLines, readDab, type DabDocument } from '../../server/src/engine/notation';
import type { BoardState } from '../../server/src/engine/board/state';
import type { Evaluation } from '../../server/src/engine/analysis/evaluation';
import { quickEvaluate } from '../../server/src/engine/analysis/evaluatePosition';
import { proveDocument, type ProveOptions, type SearchCache } from '../../server/src/cli/search';
import { plausibleRecord } from '../support/boards';
import { mulberry32 } from '../support/random';

const BUDGET = 100;
const QUICK = 0.2 * BUDGET;

type Call = { kind: 'prove' | 'moves'; ply: number; ms: number };

function busy(ms: number): void {
  const end = Date.now() + ms;
  while (Date.now() < end);
}

/** A record on 4x4, with the line of a variation when `variation` (its plies count from the record's start too). */
function recordOf(seed: number, variation = false): DabDocument {
  const text = plausibleRecord(4, 4, 40, mulberry32(seed), 'moves');
  if (!variation) return readDab(text);
  // a variation instead of move 21: the record's moves 22-30, played from the position after move 20
  const moves = /moves (.*)\n/.exec(text)![1].split(' ');
  const varied = [...moves.slice(0, 21), `(${moves.slice(21, 30).join(' ')})`, ...moves.slice(21)];
  return readDab(text.replace(/moves .*\n/, `moves ${varied.join(' ')}\n`));
}

/**
 * The stand-in: exact values by a rule of the position (of the remaining boxes' parity), so that
 * some played moves lose value; `boundsAt(state)`: a position given bounds only, [v, v + 2]. Its
 * move searches find nothing and take their whole grant when `slowMoves`; `stored`: what an earlier
 * run's move searches tried, as the store keeps it (a search not longer than that is not made again).
 */
function standIn(o: { boundsAt?: (s: BoardState) => boolean; slowMoves?: boolean; stored?: Map<string, number> } = {}) {
  const log: Call[] = [];
  let searches = 0;
  const valueOf = (s: BoardState) => {
    const R = s.openBoxCount();
    const n = R * 31 + s.drawn.filter(Boolean).length;
    const v = n % 5 === 0 ? R : n % 3 === 0 ? 2 : 0;
    return Math.min(R, ((v - R) & 1) !== 0 ? v + 1 : v);
  };
  const evaluationOf = (s: BoardState): Evaluation => {
    const v = valueOf(s);
    if (o.boundsAt?.(s)) {
      const R = s.openBoxCount();
      return { status: 'unknown', method: 'search', value: null, lower: v, upper: Math.min(R, v + 2), best: [], ms: 1 };
    }
    return { status: 'exact', method: 'search', value: v, lower: v, upper: v, best: [], ms: 1 };
  };
  let plyOf: (s: BoardState) => number = () => -1;
  const cache: SearchCache = {
    lookup: () => {
      throw new Error('not used by proveDocument');
    },
    nim: () => ({}) as never,
    prove(s, b) {
      log.push({ kind: 'prove', ply: plyOf(s), ms: b.ms });
      return evaluationOf(s);
    },
    completeMoves(s, ms) {
      log.push({ kind: 'moves', ply: plyOf(s), ms });
      const key = s.key();
      if (o.slowMoves && (o.stored?.get(key) ?? 0) < ms) {
        searches++;
        busy(ms);
        o.stored?.set(key, ms);
      }
      return evaluationOf(s);
    },
    nimView: () => undefined,
  };
  return {
    cache,
    log,
    searches: () => searches,
    valueOf,
    setPlies: (f: (s: BoardState) => number) => (plyOf = f),
  };
}

/** The mistakes of the main line, worked out here: a searched exact position whose played move the next position's bounds prove worse. */
function mistakesOf(doc: DabDocument, valueOf: (s: BoardState) => number, boundsAt?: (s: BoardState) => boolean) {
  const states = doc.models[0].states;
  const searched = (ply: number) => !quickEvaluate(states[ply]);
  // the next position's bounds: the closed form's value where it needs no search
  const bounds = (s: BoardState): [number, number] => {
    const q = quickEvaluate(s)?.evaluation.value;
    if (q !== undefined && q !== null) return [q, q];
    const v = valueOf(s);
    return boundsAt?.(s) ? [v, Math.min(s.openBoxCount(), v + 2)] : [v, v];
  };
  const mistakes = new Set<number>();
  for (let k = 0; k + 1 < states.length; k++) {
    if (!searched(k) || boundsAt?.(states[k])) continue;
    const c = states[k].openBoxCount() - states[k + 1].openBoxCount();
    const again = c > 0 && states[k + 1].toMove === states[k].toMove;
    const [lo, hi] = bounds(states[k + 1]);
    if ((again ? c + hi : c - lo) < valueOf(states[k])) mistakes.add(k);
  }
  return { mistakes, searched, plies: states.length };
}

function run(seed: number, o: Partial<ProveOptions> & { boundsAt?: (s: BoardState) => boolean } = {}) {
  const doc = recordOf(seed);
  const s = standIn({ boundsAt: o.boundsAt });
  const states = doc.models[0].states;
  s.setPlies((x) => states.indexOf(x));
  proveDocument(s.cache, doc, { positionBudgetMs: BUDGET, recordBudgetMs: 60_000, ...o });
  return { log: s.log, ...mistakesOf(doc, s.valueOf, o.boundsAt) };
}

test('the best move instead of a mistake is searched in the second pass, before the other positions’ moves', () => {
  for (const seed of [1, 2, 3, 4]) {
    const { log, mistakes } = run(seed);
    assert.ok(mistakes.size >= 2, `seed ${seed}: the rule makes mistakes`);
    // the first pass proves; the second searches each mistake's best move briefly, from the end
    const lastProve = log.map((x) => x.kind).lastIndexOf('prove');
    assert.ok(log.slice(0, lastProve).every((x) => x.kind === 'prove'));
    const quick = log.slice(lastProve + 1).filter((x) => x.ms === QUICK);
    assert.deepEqual(
      quick,
      [...mistakes].sort((a, b) => b - a).map((ply) => ({ kind: 'moves', ply, ms: QUICK })),
      `seed ${seed}`,
    );
    // then the other positions' moves, with a whole budget each
    const firstAfter = log.findIndex((x) => x.kind === 'moves' && x.ms === BUDGET);
    assert.ok(firstAfter > log.lastIndexOf(quick.at(-1)!), 'moves searched after the quick ones');
    assert.ok(log.slice(firstAfter).every((x) => x.kind === 'moves' && x.ms === BUDGET));
  }
});

test('a mistake proven by the bounds of the position after it (no exact value there) gets its best move first too', () => {
  let checked = 0;
  for (const seed of [1, 2, 3, 4, 5, 6]) {
    // every fourth searched position has bounds only
    const boundsAt = (s: BoardState) => s.drawn.filter(Boolean).length % 4 === 1 && !quickEvaluate(s);
    const { log, mistakes } = run(seed, { boundsAt });
    const states = recordOf(seed).models[0].states;
    const full = log.findIndex((x) => x.kind === 'moves' && x.ms === BUDGET);
    for (const k of mistakes) {
      const i = log.findIndex((x) => x.kind === 'moves' && x.ply === k && x.ms === QUICK);
      assert.ok(i >= 0 && (full < 0 || i < full), `seed ${seed}: ply ${k}`);
      if (boundsAt(states[k + 1])) checked++;
    }
    // positions with bounds only never get a move search
    assert.ok(log.every((x) => x.kind === 'prove' || !boundsAt(states[x.ply])));
  }
  assert.ok(checked >= 2, `mistakes proven by bounds alone: ${checked}`);
});

test('after the proofs, the mistakes first, then every other exact searched position, each line from its end', () => {
  for (const seed of [1, 2, 3, 4]) {
    const { log, mistakes, searched, plies } = run(seed);
    const lastProve = log.map((x) => x.kind).lastIndexOf('prove');
    // after the last proof: the mistakes' quick searches (the test above), then the rest
    const after = log.slice(lastProve + 1).filter((x) => x.ms !== QUICK);
    assert.ok(after.every((x) => x.kind === 'moves' && x.ms === BUDGET));
    const descending = (xs: number[]) => xs.slice().sort((a, b) => b - a);
    const expected = [
      ...descending([...mistakes]),
      ...descending(Array.from({ length: plies }, (_, k) => k).filter((k) => searched(k) && !mistakes.has(k))),
    ];
    assert.deepEqual(
      after.map((x) => x.ply),
      expected,
    );
  }
});

test('with a variation: its positions get the same treatment, and nothing is searched with a zero grant', () => {
  const doc = recordOf(2, true);
  const lines = [...allLines(doc.models[0])];
  assert.equal(lines.length, 2);
  assert.equal(lines[1].plies.length, 9, 'the variation is legal');
  const s = standIn();
  // the main line's positions, then the variation's (its start, the main line's, maps to the first)
  const all = lines.flatMap((l) => l.states);
  s.setPlies((x) => all.indexOf(x));
  proveDocument(s.cache, doc, { positionBudgetMs: BUDGET, recordBudgetMs: 60_000 });
  const main = doc.models[0].states.length;
  assert.ok(
    s.log.some((x) => x.kind === 'moves' && x.ply >= main),
    'a variation position gets its moves searched',
  );
  // no budget at all: every grant is 0, and no move search is made with it
  const t = standIn();
  t.setPlies((x) => all.indexOf(x));
  proveDocument(t.cache, doc, { positionBudgetMs: BUDGET, recordBudgetMs: 0 });
  assert.ok(t.log.some((x) => x.kind === 'prove'));
  assert.ok(
    t.log.every((x) => x.kind === 'prove' || x.ms > 0),
    JSON.stringify(t.log.filter((x) => x.ms === 0)),
  );
});

test('a cold run whose move searches spend the record budget keeps its trace; a warm run replays it and searches nothing', () => {
  const doc = recordOf(3);
  const states = doc.models[0].states;
  const stored = new Map<string, number>();
  const traces = new Map<string, string>();
  const keep = { trace: (k: string) => traces.get(k), keepTrace: (k: string, t: string) => void traces.set(k, t) };
  // the move searches take their whole grant: 1.5 s runs out among them
  const o: ProveOptions = { positionBudgetMs: BUDGET, recordBudgetMs: 1500, traces: keep };
  const cold = standIn({ slowMoves: true, stored });
  cold.setPlies((x) => states.indexOf(x));
  proveDocument(cold.cache, doc, o);
  assert.equal(traces.size, 1, 'the cut trace is kept');
  assert.ok(cold.searches() > 3);
  const warm = standIn({ slowMoves: true, stored });
  warm.setPlies((x) => states.indexOf(x));
  proveDocument(warm.cache, doc, o);
  assert.deepEqual(warm.log, cold.log, 'every search asked for with the cold run’s grant');
  assert.equal(warm.searches(), 0, 'the store answers every one');
});
