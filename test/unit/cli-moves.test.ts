// The CLI's record schedule (cli/search.ts proveDocument) and the optimal moves of exact positions:
// a position a mistake was played from gets its moves searched at once, with a fifth of the
// per-position budget, before any earlier position is proven; the other exact positions, and
// mistakes not finished then, wait until the proofs are done, mistakes first. A stand-in search
// gives exact values from a fixed rule, so which moves are mistakes is known here without it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readDab } from '../../server/src/engine/notation';
import type { BoardState } from '../../server/src/engine/board/state';
import type { Evaluation } from '../../server/src/engine/analysis/evaluation';
import { quickEvaluate } from '../../server/src/engine/analysis/evaluatePosition';
import { proveDocument, type SearchCache } from '../../server/src/cli/search';
import { plausibleRecord } from '../support/boards';
import { mulberry32 } from '../support/random';

const BUDGET = 100;

function schedule(seed: number, recordBudgetMs: number) {
  const doc = readDab(plausibleRecord(4, 4, 40, mulberry32(seed), 'moves'));
  const m = doc.models[0];
  const plyOf = (s: BoardState) => m.states.indexOf(s);
  // exact values by a rule of the ply alone (of the remaining boxes' parity), so that some played moves lose value
  const value = (ply: number) => {
    const R = m.states[ply].openBoxCount();
    const v = (ply * 7) % 5 === 0 ? R : ply % 3 === 0 ? 2 : 0;
    return Math.min(R, ((v - R) & 1) !== 0 ? v + 1 : v);
  };
  const log: { kind: 'prove' | 'moves'; ply: number; ms: number }[] = [];
  const cache: SearchCache = {
    lookup: () => {
      throw new Error('not used by proveDocument');
    },
    nim: () => ({}) as never,
    prove(s, b) {
      const ply = plyOf(s);
      log.push({ kind: 'prove', ply, ms: b.ms });
      const v = value(ply);
      return { status: 'exact', method: 'search', value: v, lower: v, upper: v, best: [], ms: 1 } as Evaluation;
    },
    completeMoves(s, ms) {
      log.push({ kind: 'moves', ply: plyOf(s), ms });
      return undefined;
    },
  };
  proveDocument(cache, doc, { positionBudgetMs: BUDGET, recordBudgetMs });
  // the mistakes, worked out here: a searched position whose played move is worth less than it
  const searched = (ply: number) => !quickEvaluate(m.states[ply]);
  const mistakes = new Set<number>();
  // the next position's value: the closed form's where it needs no search
  const next = (ply: number) => quickEvaluate(m.states[ply])?.evaluation.value ?? value(ply);
  for (let k = 0; k + 1 < m.states.length; k++) {
    if (!searched(k)) continue;
    const c = m.states[k].openBoxCount() - m.states[k + 1].openBoxCount();
    const again = c > 0 && m.states[k + 1].toMove === m.states[k].toMove;
    const moveValue = again ? c + next(k + 1)! : c - next(k + 1)!;
    if (moveValue < value(k)) mistakes.add(k);
  }
  return { log, mistakes, searched, plies: m.states.length };
}

test('the best move instead of a mistake is searched right after the position is proven, before earlier positions', () => {
  for (const seed of [1, 2, 3, 4]) {
    const { log, mistakes } = schedule(seed, 60_000);
    assert.ok(mistakes.size >= 2, `seed ${seed}: the rule makes mistakes`);
    for (const k of mistakes) {
      const i = log.findIndex((x) => x.kind === 'prove' && x.ply === k);
      assert.ok(i >= 0, `seed ${seed}: ply ${k} proven`);
      assert.deepEqual(log[i + 1], { kind: 'moves', ply: k, ms: 0.2 * BUDGET }, `seed ${seed}: ply ${k}`);
    }
    // no other position gets its moves searched during the proofs
    const firstAfter = log.findIndex((x) => x.kind === 'moves' && x.ms === BUDGET);
    assert.ok(log.slice(firstAfter).every((x) => x.kind === 'moves'));
    const during = log.slice(0, firstAfter).filter((x) => x.kind === 'moves');
    assert.deepEqual(
      during.map((x) => x.ply).sort((a, b) => a - b),
      [...mistakes].sort((a, b) => a - b),
    );
  }
});

test('after the proofs, the mistakes first, then every other exact searched position, each line from its end', () => {
  for (const seed of [1, 2, 3, 4]) {
    const { log, mistakes, searched, plies } = schedule(seed, 60_000);
    const lastProve = log.map((x) => x.kind).lastIndexOf('prove');
    // after the last proof: ply 0's quick search when a mistake was played from it, then the rest
    const after = log.slice(lastProve + 1).filter((x) => !(x.ply === 0 && x.ms < BUDGET));
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

test('a record budget spent by the proofs leaves no time for moves: none are searched with a zero grant', () => {
  const { log } = schedule(1, 0);
  assert.ok(log.some((x) => x.kind === 'prove'));
  assert.ok(
    log.every((x) => x.kind === 'prove' || x.ms > 0),
    JSON.stringify(log.filter((x) => x.ms === 0)),
  );
});
