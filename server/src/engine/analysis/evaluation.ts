/**
 * What the engine knows about one board position: exact value and optimal moves, or bounds, or nothing yet.
 * Values are for the player to move, over the boxes not yet claimed (the spec's convention).
 */
import { provenOptimal } from './prove';

export type EvaluationMethod = 'over' | 'loony-endgame' | 'search';

export interface Evaluation {
  status: 'exact' | 'unknown' | 'pending';
  method: EvaluationMethod;
  value: number | null;
  /** Proven bounds on the value (equal to value when exact). */
  lower: number;
  upper: number;
  /** Every optimal line (indices), empty when unknown. */
  best: number[];
  /** Value after each legal move from the mover's point of view (boxes completed + rest), when computed. */
  moveValues?: Map<number, number | null>;
  nodes?: number;
  /** Why it is not exact (budget, cancelled, …). */
  note?: string;
  /** Search time (ms), when searched. */
  ms?: number;
  /** The search was cancelled (not out of budget): worth asking again. */
  cancelled?: boolean;
  /**
   * When the optimal moves are not known: the move the deepest finished search found best. An
   * estimate, never proven optimal; always shown as "best found so far, not proven".
   */
  bestSoFar?: number;
  /**
   * Search nodes of the search whose table gave bestSoFar: how well informed the estimate is (of two,
   * the one with more search behind it is kept: betterEstimate).
   */
  bestSoFarNodes?: number;
  /**
   * Proven: bestSoFar is worth at least this to the player to move (the move refuted a window
   * search: prove.ts, provenMove). With the exact value it makes bestSoFar an optimal move; with a
   * proven result it can prove that the move keeps it (phrasebook/proofs.ts, estimateStanding).
   */
  bestSoFarLower?: number;
  /** The Nimstring view, when computed. */
  nim?: import('./nim').NimSummary;
}

/** Supplies evaluations for positions that quick analysis cannot settle (search). */
export interface Evaluator {
  /** Returns an evaluation, or undefined while it is still being computed elsewhere. */
  evaluate(key: string, state: import('../board/state').BoardState): Evaluation | undefined;
}

/** An evaluation that knows nothing yet: no value, the trivial bounds (every box left to either side), no moves. */
export function nothingProven(
  state: import('../board/state').BoardState,
  status: 'unknown' | 'pending' = 'unknown',
  note?: string,
): Evaluation {
  const open = state.openBoxCount();
  const e: Evaluation = { status, method: 'search', value: null, lower: -open, upper: open, best: [] };
  if (note !== undefined) e.note = note;
  return e;
}

/**
 * A move proven optimal, or undefined: the least of the optimal moves when they are known, else the
 * least of those proven without every move searched (prove.ts, provenOptimal).
 */
export function provenBestMove(e: Evaluation): number | undefined {
  const known =
    e.best.length > 0
      ? e.best
      : provenOptimal(e.status === 'exact' ? e.value : null, e.best, e.moveValues, e.bestSoFar, e.bestSoFarLower);
  return known.length > 0 ? Math.min(...known) : undefined;
}

/**
 * A best move found so far (its optimality not proven) and the search nodes behind it; `lower`, when
 * given, is proven: the move is worth at least that to the player to move.
 */
export interface Estimate {
  move: number;
  nodes: number;
  lower?: number;
}

/** The estimate of `e`, when it has one and its optimal moves are not known (a proven move outranks any estimate). */
export function estimateOf(
  e: Pick<Evaluation, 'best' | 'bestSoFar' | 'bestSoFarNodes' | 'bestSoFarLower'>,
): Estimate | undefined {
  if (e.best.length > 0 || e.bestSoFar === undefined) return undefined;
  return {
    move: e.bestSoFar,
    nodes: e.bestSoFarNodes ?? 0,
    ...(e.bestSoFarLower !== undefined ? { lower: e.bestSoFarLower } : {}),
  };
}

/**
 * Of two estimates of one position, the better: the one proven to be worth more (a proven bound
 * beats none), then the one with more search behind it; `a` on a tie (callers pass the one kept
 * first, so an answer does not flip between equal searches). Every place that keeps estimates (the
 * proof store, the CLI, the editor's knowledge) decides with this.
 */
export function betterEstimate(a: Estimate | undefined, b: Estimate | undefined): Estimate | undefined {
  if (!a) return b;
  if (!b) return a;
  const la = a.lower ?? -Infinity,
    lb = b.lower ?? -Infinity;
  if (la !== lb) return lb > la ? b : a;
  return b.nodes > a.nodes ? b : a;
}

/** `e` with `est` as its best move found so far (none when `e` names its optimal moves). */
export function withEstimate(e: Evaluation, est: Estimate | undefined): Evaluation {
  const out: Evaluation = { ...e };
  delete out.bestSoFar;
  delete out.bestSoFarNodes;
  delete out.bestSoFarLower;
  if (est && e.best.length === 0) {
    out.bestSoFar = est.move;
    out.bestSoFarNodes = est.nodes;
    if (est.lower !== undefined) out.bestSoFarLower = est.lower;
  }
  return out;
}
