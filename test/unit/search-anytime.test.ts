// The anytime search's parts alone: the knowledge merge (answers never get worse, bounds only
// tighten), the scheduling policy (cursor first, end of record first, frontier, budget), and one
// solver reused across aborted attempts (as the search worker does) against the brute force.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Evaluation } from '../../server/src/engine/analysis/evaluation';
import { mergeEvaluations, neverWorse } from '../../server/src/search/knowledge';
import {
  attemptBudget,
  budgetLeft,
  pickJob,
  CURSOR_LEAD,
  FRONTIER,
  type DocumentPlan,
  type PositionState,
} from '../../server/src/search/schedule';
import { createSolver, searchEvaluate } from '../../server/src/engine/analysis/evaluatePosition';
import { bruteForce } from '../../server/src/engine/solver';
import { playedPosition, plausibleRecord } from '../support/boards';
import { lcg, mulberry32 } from '../support/random';
import { readDab } from '../../server/src/engine/notation';

const unknown = (lower: number, upper: number): Evaluation => ({
  status: 'unknown',
  method: 'search',
  value: null,
  lower,
  upper,
  best: [],
});
const exact = (v: number): Evaluation => ({
  status: 'exact',
  method: 'search',
  value: v,
  lower: v,
  upper: v,
  best: [1],
});

test('merging evaluations: bounds intersect, exact values stay, nothing gets worse', () => {
  const r = mulberry32(8);
  for (let i = 0; i < 2000; i++) {
    const truth = Math.floor(r() * 21) - 10;
    let known: Evaluation | undefined;
    for (let k = 0; k < 6; k++) {
      // every input is a proof: it contains the truth
      const e = r() < 0.2 ? exact(truth) : unknown(truth - Math.floor(r() * 12), truth + Math.floor(r() * 12));
      const merged = mergeEvaluations(known, e);
      if (known) assert.ok(neverWorse(known, merged), JSON.stringify({ known, e, merged }));
      assert.ok(merged.lower <= truth && truth <= merged.upper);
      if (merged.status === 'exact') assert.equal(merged.value, truth);
      known = merged;
    }
  }
  const m = mergeEvaluations(unknown(-3, 9), unknown(1, 15));
  assert.deepEqual([m.lower, m.upper, m.status], [1, 9, 'unknown']);
  const e = mergeEvaluations(exact(4), unknown(-20, 20));
  assert.equal(e.value, 4);
});

test('merging evaluations: the better informed best move found so far stays, and none beside proven moves', () => {
  const guess = (e: Evaluation, move: number, nodes: number): Evaluation => ({
    ...e,
    bestSoFar: move,
    bestSoFarNodes: nodes,
  });
  const a = guess(unknown(-3, 9), 7, 5000);
  // a progress message (bounds only) or a weaker search keeps it; a better informed one replaces it
  assert.equal(mergeEvaluations(a, unknown(1, 9)).bestSoFar, 7);
  assert.equal(mergeEvaluations(a, guess(unknown(1, 9), 8, 100)).bestSoFar, 7);
  assert.equal(mergeEvaluations(a, guess(unknown(1, 9), 8, 5000)).bestSoFar, 7, 'a tie keeps the one shown');
  const m = mergeEvaluations(a, guess(unknown(1, 9), 8, 9000));
  assert.deepEqual([m.bestSoFar, m.bestSoFarNodes], [8, 9000]);
  // an exact value without its optimal moves keeps an estimate; proven optimal moves end it
  const valueOnly: Evaluation = { ...exact(3), best: [] };
  assert.equal(mergeEvaluations(a, valueOnly).bestSoFar, 7);
  assert.equal(mergeEvaluations(valueOnly, a).bestSoFar, 7);
  for (const e of [mergeEvaluations(a, exact(3)), mergeEvaluations(exact(3), a)]) {
    assert.deepEqual([e.best, e.bestSoFar, e.bestSoFarNodes], [[1], undefined, undefined]);
  }
});

function plan(n: number, extra: Partial<DocumentPlan> = {}): DocumentPlan {
  return {
    owner: 'doc',
    positions: Array.from({ length: n }, (_, i) => ({
      key: `p${n - 1 - i}`,
      group: 0,
      label: `after move ${n - 1 - i}`,
    })),
    spentMs: 0,
    budgetMs: 60_000,
    lastActive: 1,
    ...extra,
  };
}

test('scheduling: end of the record first, every position once before longer attempts, then the frontier', () => {
  const states = new Map<string, PositionState>();
  const st = (k: string) => states.get(k) ?? { level: 0, settled: false };
  const d = plan(10);
  const order: string[] = [];
  for (let i = 0; i < 10; i++) {
    const j = pickJob([d], st, new Set(), 10_000)!;
    order.push(j.key);
    assert.equal(j.level, 0);
    assert.equal(j.budgetMs, attemptBudget(0, 10_000).ms);
    states.set(j.key, { level: 1, settled: false });
  }
  assert.deepEqual(order, ['p9', 'p8', 'p7', 'p6', 'p5', 'p4', 'p3', 'p2', 'p1', 'p0']);
  // p9 is solved: the frontier is p8, p7, p6; longer attempts go there only.
  states.set('p9', { level: 1, settled: true });
  const seen = new Set<string>();
  for (let i = 0; i < 6; i++) {
    // levels 1 and 2 (1 s, 4 s) for each of the frontier
    const j = pickJob([d], st, new Set(), 10_000)!;
    seen.add(j.key);
    states.set(j.key, { level: j.level + 1, settled: attemptBudget(j.level, 10_000).last });
  }
  assert.deepEqual([...seen].sort(), ['p6', 'p7', 'p8'].slice(0, FRONTIER).sort());
  // Once the frontier is given up, the next positions get their turn.
  for (const k of ['p8', 'p7', 'p6']) states.set(k, { level: 4, settled: true });
  assert.equal(pickJob([d], st, new Set(), 10_000)!.key, 'p5');
});

test('scheduling: the cursor first (up to CURSOR_LEAD levels ahead), busy keys skipped, budget respected', () => {
  const states = new Map<string, PositionState>();
  const st = (k: string) => states.get(k) ?? { level: 0, settled: false };
  const d = plan(10, { cursorKey: 'p2' });
  let j = pickJob([d], st, new Set(), 0)!;
  assert.deepEqual([j.key, j.reason], ['p2', 'cursor']);
  states.set('p2', { level: CURSOR_LEAD + 1, settled: false });
  j = pickJob([d], st, new Set(), 0)!;
  assert.deepEqual([j.key, j.reason], ['p9', 'record']);
  assert.equal(pickJob([d], st, new Set(['p9']), 0)!.key, 'p8');
  // The most recently used document first; a spent budget means no work.
  const other = { ...plan(3), owner: 'other', lastActive: 5 };
  assert.equal(pickJob([d, other], st, new Set(), 0)!.owner, 'other');
  other.spentMs = other.budgetMs;
  assert.equal(budgetLeft(other), 0);
  assert.equal(pickJob([d, other], st, new Set(), 0)!.owner, 'doc');
  d.spentMs = d.budgetMs - 100;
  assert.equal(pickJob([d, other], st, new Set(), 0)!.budgetMs, 100, 'an attempt never exceeds the budget left');
  d.spentMs = d.budgetMs;
  assert.equal(pickJob([d, other], st, new Set(), 0), null);
});

test('attempt budgets grow 4x up to the per-attempt limit', () => {
  assert.deepEqual(
    [0, 1, 2, 3, 4].map((l) => attemptBudget(l, 10_000)),
    [
      { ms: 250, last: false },
      { ms: 1000, last: false },
      { ms: 4000, last: false },
      { ms: 10_000, last: true },
      { ms: 10_000, last: true },
    ],
  );
  assert.equal(attemptBudget(3, 0).last, false);
});

test('one solver reused across aborted attempts (as the search worker does) stays exact', { timeout: 120_000 }, () => {
  // Aborted attempts at the positions of a record, end first (before the fix of Engine.load this
  // sequence left forced captures on the solver's stack and the attempt at the start never ended).
  const m = readDab(plausibleRecord(5, 5, 10, lcg(12), 'aborts')).models[0];
  const solver = createSolver();
  for (let ply = 10; ply >= 0; ply--) {
    const e = searchEvaluate(solver, m.states[ply], { nodeBudget: 30_000 });
    assert.equal(e.status, 'unknown');
    assert.ok(e.nodes! < 40_000, `ply ${ply}: the attempt kept to its budget (${e.nodes} nodes)`);
  }
  const r = mulberry32(21);
  for (let i = 0; i < 3; i++) {
    const late = playedPosition(5, 5, 16 + i, r);
    const e = searchEvaluate(solver, late, {});
    assert.equal(e.status, 'exact', `case ${i}`);
    assert.equal(e.value, bruteForce(late).value, `case ${i}`);
  }
});
