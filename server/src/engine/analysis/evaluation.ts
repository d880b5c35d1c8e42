/**
 * What the engine knows about one board position: exact value and optimal moves, or bounds, or nothing yet.
 * Values are for the player to move, over the boxes not yet claimed (the spec's convention).
 */
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
  /** The Nimstring view, when computed. */
  nim?: import('./nim').NimSummary;
}

/** Supplies evaluations for positions that quick analysis cannot settle (search). */
export interface Evaluator {
  /** Returns an evaluation, or undefined while it is still being computed elsewhere. */
  evaluate(key: string, state: import('../board/state').BoardState): Evaluation | undefined;
}
