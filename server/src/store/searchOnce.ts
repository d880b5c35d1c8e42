/**
 * A search that asks the proof store first and keeps what it proves: apart from store/index.ts (which
 * opens the database) so that the Markdown preview's bundle, which draws pictures with it but has no
 * store, does not carry the database.
 */
import type { BoardState } from '../engine/board/state';
import type { Evaluation } from '../engine/analysis/evaluation';
import type { ProofCache } from './index';

/**
 * Evaluate `state` by `search` unless the store already has the answer: its exact value, or bounds
 * that an attempt with at least `timeBudgetMs` could not narrow (the same search again would end
 * the same way; with 0, a position given no time, whose bounds a run's own table gave). The
 * search is given the stored bounds to start from; what it proves is
 * combined with them and kept.
 */
export function searchOnce(
  proofs: ProofCache | undefined,
  state: BoardState,
  search: (known?: { lower: number; upper: number }) => Evaluation,
  timeBudgetMs = 0,
): Evaluation {
  const stored = proofs?.lookup(state);
  if (stored?.evaluation.status === 'exact') return stored.evaluation;
  // tried as long before (a position given no time included: its bounds then came from the run's
  // table, which is not kept, so a later run must read them back rather than its own table's)
  if (stored && stored.triedMs >= timeBudgetMs) return stored.evaluation;
  const fresh = search(stored ? { lower: stored.evaluation.lower, upper: stored.evaluation.upper } : undefined);
  if (!proofs) return fresh;
  const e = proofs.combine(stored?.evaluation, fresh);
  proofs.put(state, e, e.status === 'exact' ? 0 : timeBudgetMs);
  return e;
}
