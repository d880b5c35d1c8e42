/**
 * What the server has proven about each board position, merged over every attempt so that an
 * answer never gets worse: bounds only tighten (the lower bound is the greatest proven, the upper
 * the least), an exact value is kept once found, per-move values once proven stay, and the
 * Nimstring view is kept once computed; the best move found so far (an estimate, with or without a
 * proven bound on its value) is the better of the two (betterEstimate), and none once the optimal
 * moves are proven. Every input is a proof (a finished, budget-exhausted or cancelled search reports
 * only bounds it proved), so the intersection is a proof as well.
 */
import { betterEstimate, estimateOf, withEstimate, type Evaluation } from '../engine/analysis/evaluation';
import { nimKnowledge } from '../engine/analysis/nim';
import { inconsistentBoundsIgnored } from '../engine/phrasebook';

/** The merge of two evaluations of the same position (either may be undefined). */
export function mergeEvaluations(old: Evaluation | undefined, next: Evaluation): Evaluation {
  if (!old) return next;
  // of two exact answers, the one that names the optimal moves (an attempt's budget may not reach them)
  if (old.status === 'exact' && !(next.status === 'exact' && old.best.length === 0 && next.best.length > 0))
    return withExtras(old, next, old, next);
  if (next.status === 'exact') return withExtras(next, old, old, next);
  const lower = Math.max(old.lower, next.lower);
  const upper = Math.min(old.upper, next.upper);
  const merged: Evaluation = withEstimate(
    {
      ...next,
      lower,
      upper,
      moveValues: mergeMoveValues(old.moveValues, next.moveValues),
      nodes: (old.nodes ?? 0) + (next.nodes ?? 0),
      nim: betterNim(next.nim, old.nim),
    },
    betterEstimate(estimateOf(old), estimateOf(next)),
  );
  if (lower > upper) {
    // Two proofs that contradict each other: a solver bug. Keep the older answer rather than
    // show an impossible interval, and say so.
    return { ...old, note: inconsistentBoundsIgnored(old.note) };
  }
  return merged;
}

/**
 * Keep `main`'s answer; take the Nimstring view and per-move values `other` has and `main` lacks,
 * and the better estimate of `old` and `next` (betterEstimate; none when `main` names its optimal moves).
 */
function withExtras(main: Evaluation, other: Evaluation, old: Evaluation, next: Evaluation): Evaluation {
  return withEstimate(
    {
      ...main,
      moveValues: mergeMoveValues(other.moveValues, main.moveValues),
      nim: betterNim(main.nim, other.nim),
    },
    betterEstimate(estimateOf(old), estimateOf(next)),
  );
}

/** The Nimstring view that knows more (nimKnowledge); `a` on a tie. */
export function betterNim(a: Evaluation['nim'], b: Evaluation['nim']): Evaluation['nim'] {
  if (!a) return b;
  if (!b) return a;
  return nimKnowledge(b) > nimKnowledge(a) ? b : a;
}

function mergeMoveValues(
  a: Map<number, number | null> | undefined,
  b: Map<number, number | null> | undefined,
): Map<number, number | null> | undefined {
  if (!a) return b;
  if (!b) return a;
  const out = new Map(a);
  for (const [l, v] of b) if (v !== null || !out.has(l)) out.set(l, v);
  return out;
}

/** True when `e` is narrower than or equal to `old` on every count (for tests and assertions). */
export function neverWorse(old: Evaluation, e: Evaluation): boolean {
  if (old.status === 'exact') return e.status === 'exact' && e.value === old.value;
  return e.lower >= old.lower && e.upper <= old.upper;
}
