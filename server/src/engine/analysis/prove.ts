/**
 * The result before the margin. For a board position, first prove who wins the game from here
 * (win / tie / loss for the player to move, counting the boxes already scored) by zero-window
 * searches at the one or two thresholds that decide it, then narrow the margin by more zero-window
 * searches (MTD) while the budget lasts.
 *
 * Why it is sound: every number here is a bound returned by a finished window search of the
 * solver (fail-soft, rounded to the parity of the remaining boxes) or read from its table, which
 * only ever holds proven bounds. A search cut by the budget contributes nothing. The value v (net
 * boxes of the rest for the player to move) has the parity of the remaining boxes R, and with
 * d = the mover's score minus the other's, the mover wins iff v > -d, ties iff v = -d, loses iff
 * v < -d. So the result is decided by "v >= tWin" and "v >= tDraw" where tWin is the least value
 * of R's parity above -d and tDraw the least at or above -d (equal when no tie is possible).
 * test/unit/prove.test.ts checks every bound and result against bruteForce on thousands of
 * positions under tight budgets.
 */
import type { BoardState } from '../board/state';
import type { Solver } from '../solver';

export type GameResult = 'win' | 'tie' | 'loss';

export interface ProofBudget {
  timeBudgetMs?: number;
  nodeBudget?: number;
  shouldStop?: () => boolean;
  /** A guess of the value (for example the next position's), to order the threshold tests. */
  guess?: number;
  /**
   * Bounds already proven elsewhere (the proof store, an earlier attempt): the proof starts from
   * them, so only thresholds still open are tested. Should a search ever contradict them, the
   * search's own bounds are kept.
   */
  known?: { lower: number; upper: number };
  /** The mover's score minus the other's (default: from the state's score). */
  lead?: number;
  /** Stop after the result is proven (no margin search). */
  resultOnly?: boolean;
  /** Called after each finished window search. */
  onProgress?: (p: { lower: number; upper: number; nodes: number; ms: number }) => void;
}

export interface Proof {
  /** Proven bounds on the value (player to move, net boxes of the rest). */
  lower: number;
  upper: number;
  exact: boolean;
  /** The game's result for the player to move (with the score so far), when proven. */
  result: GameResult | null;
  nodes: number;
  ms: number;
  /** Finished window searches. */
  searches: number;
  /** Why the proof stopped short of the exact value. */
  stopped?: 'budget' | 'cancelled';
  /**
   * The move the solver's table holds for this position after the deepest finished search: the
   * move that refuted the last window, or the best of a failed one. Not proven optimal.
   */
  bestSoFar?: number;
  /**
   * A move proven to be worth at least `lower` to the player to move: of the window searches that
   * ended above their alpha, the move of the one with the highest bound (WindowResult.move). An
   * optimal move when `lower` is the exact value; a move that keeps the result when its bound proves it.
   */
  provenMove?: { line: number; lower: number };
}

/** Mover's score minus the other player's. */
export function scoreLead(state: BoardState): number {
  return state.score[state.toMove] - state.score[1 - state.toMove];
}

/** The result for the player to move that bounds [lower, upper] on the rest prove, with the lead so far. */
export function resultOf(lower: number, upper: number, lead: number): GameResult | null {
  if (lead + lower > 0) return 'win';
  if (lead + upper < 0) return 'loss';
  if (lead + lower >= 0 && lead + upper <= 0) return 'tie';
  return null;
}

/**
 * A position is worth at least the move played from it: the lower bound that move gives, from the
 * next position's proven bounds. The move completes `completes` boxes; `again`: its player moves
 * again (v >= completes + v(next)), else the other player does (v >= completes - v(next)).
 */
export function playedMoveFloor(completes: number, again: boolean, next: { lower: number; upper: number }): number {
  return again ? completes + next.lower : completes - next.upper;
}

/**
 * The move that leads from `before` to `after` (the next position of a line): the boxes it
 * completes, and whether its player moves again (playedMoveFloor's arguments).
 */
export function playedMove(before: BoardState, after: BoardState): { completes: number; again: boolean } {
  const completes = before.openBoxCount() - after.openBoxCount();
  return { completes, again: completes > 0 && after.toMove === before.toMove };
}

/** What a proven bound on a move (Evaluation.bestSoFarLower) proves about it: see estimateStanding. */
export type ProvenStanding = 'optimal' | 'keeps-win';

/**
 * What the best move found so far is proven to be, from its proven bound b (it is worth at least b
 * to the player to move) and the position's proven bounds, with `score` so far: 'optimal' when b is
 * the exact value (no move is worth more than the position); 'keeps-win' when the mover's lead plus
 * b is above 0 (whatever the rest of the game, the mover wins after it); else 'unproven' (only an
 * estimate of the best move). (A move that keeps a proven tie is optimal: a proven tie is an exact value.)
 */
export function estimateStanding(p: {
  exact: boolean;
  value: number | null;
  score: [number, number];
  toMove: 0 | 1;
  bestSoFarLower?: number;
}): ProvenStanding | 'unproven' {
  const b = p.bestSoFarLower;
  if (b === undefined) return 'unproven';
  if (p.exact && p.value === b) return 'optimal';
  const lead = p.score[p.toMove] - p.score[1 - p.toMove];
  return lead + b > 0 ? 'keeps-win' : 'unproven';
}

/**
 * The moves proven optimal while the optimal moves were not all searched, given the exact value
 * (null: not known): those a partial search valued at the value, and the best move so far when its
 * proven bound reaches it. [] when every optimal move is known (`best`) or the value is not. One
 * rule for both shapes: line names of a position's report (provenOptimalMoves), line indices of an
 * evaluation (evaluation.ts, provenBestMove).
 */
export function provenOptimal<T>(
  value: number | null,
  best: T[],
  moveValues: Map<T, number | null> | undefined,
  bestSoFar: T | undefined,
  bestSoFarLower: number | undefined,
): T[] {
  if (value === null || best.length > 0) return [];
  const moves = new Set<T>();
  for (const [m, v] of moveValues ?? []) if (v === value) moves.add(m);
  if (bestSoFar !== undefined && bestSoFarLower === value) moves.add(bestSoFar);
  return [...moves];
}

/** provenOptimal for a position's report (names, sorted). */
export function provenOptimalMoves(p: {
  exact: boolean;
  value: number | null;
  best: string[];
  moveValues?: Map<string, number | null>;
  bestSoFar?: string[];
  bestSoFarLower?: number;
}): string[] {
  return provenOptimal(p.exact ? p.value : null, p.best, p.moveValues, p.bestSoFar?.[0], p.bestSoFarLower).sort();
}

/** The boxes a move is proven to throw away: its loss when known, else its proven least loss, else 0. */
export function provenLoss(m: { loss: number | null; lossAtLeast: number | null }): number {
  return m.loss ?? m.lossAtLeast ?? 0;
}

/** The same result seen by the other player. */
export function flipResult(r: GameResult | null): GameResult | null {
  return r === 'win' ? 'loss' : r === 'loss' ? 'win' : r;
}

/** Least value >= x with the parity of R. */
function atParity(x: number, R: number): number {
  return ((x - R) & 1) !== 0 ? x + 1 : x;
}

/** The next threshold t ("is v >= t?") that helps decide the result, or undefined when decided. */
function resultThreshold(lo: number, hi: number, lead: number, R: number, guess: number): number | undefined {
  const tWin = atParity(-lead + 1, R),
    tDraw = atParity(-lead, R);
  const useful = (t: number) => lo < t && t <= hi;
  if (resultOf(lo, hi, lead) !== null) return undefined;
  const first = guess >= tWin ? tWin : guess < tDraw ? tDraw : tWin;
  const second = first === tWin ? tDraw : tWin;
  if (useful(first)) return first;
  if (useful(second)) return second;
  return undefined;
}

/**
 * Prove what the budget allows about the position: bounds, the result, then the exact value.
 * Uses (and fills) the solver's table, so positions of one record help each other.
 */
export function prove(solver: Solver, state: BoardState, budget: ProofBudget = {}): Proof {
  const t0 = Date.now();
  const R = state.openBoxCount();
  const lead = budget.lead ?? scoreLead(state);
  let lo = -R,
    hi = R;
  for (const known of [solver.tableEntry(state), budget.known]) {
    if (!known || Math.max(lo, known.lower) > Math.min(hi, known.upper)) continue;
    lo = Math.max(lo, known.lower);
    hi = Math.min(hi, known.upper);
  }
  let nodes = 0,
    searches = 0;
  let stopped: Proof['stopped'];
  let provenMove: Proof['provenMove'];
  const deadline = budget.timeBudgetMs !== undefined ? t0 + budget.timeBudgetMs : Infinity;
  let guess = Math.max(lo, Math.min(hi, budget.guess ?? 0));
  const test = (t: number): boolean => {
    const timeLeft = deadline - Date.now();
    const nodesLeft = (budget.nodeBudget ?? Infinity) - nodes;
    if (budget.shouldStop?.()) {
      stopped = 'cancelled';
      return false;
    }
    if (timeLeft <= 0 || nodesLeft <= 0) {
      stopped = 'budget';
      return false;
    }
    const w = solver.searchWindow(state, t - 1, t, {
      timeBudgetMs: Number.isFinite(timeLeft) ? timeLeft : undefined,
      nodeBudget: Number.isFinite(nodesLeft) ? nodesLeft : undefined,
      shouldStop: budget.shouldStop,
    });
    nodes += w.nodes;
    if (w.status !== 'done') {
      stopped = budget.shouldStop?.() ? 'cancelled' : 'budget';
      return false;
    }
    searches++;
    if (w.move && (!provenMove || w.move.lower > provenMove.lower)) provenMove = w.move;
    if (Math.max(lo, w.lower) > Math.min(hi, w.upper)) {
      // bounds from elsewhere contradict a finished search: keep only what this search proved
      lo = Math.max(-R, w.lower);
      hi = Math.min(R, w.upper);
    }
    lo = Math.max(lo, w.lower);
    hi = Math.min(hi, w.upper);
    guess = w.lower >= t ? w.lower + 2 : w.upper;
    budget.onProgress?.({ lower: lo, upper: hi, nodes, ms: Date.now() - t0 });
    return true;
  };
  for (;;) {
    const t = resultThreshold(lo, hi, lead, R, guess);
    if (t === undefined || !test(t)) break;
  }
  if (!stopped && !budget.resultOnly) {
    while (lo < hi) {
      let t = Math.max(lo + 1, Math.min(hi, guess));
      t = atParity(t, R);
      if (t > hi) t = hi;
      if (!test(t)) break;
    }
  }
  const entry = solver.tableEntry(state);
  return {
    lower: lo + 0,
    upper: hi + 0,
    exact: lo === hi,
    result: resultOf(lo, hi, lead),
    nodes,
    ms: Date.now() - t0,
    searches,
    ...(lo < hi && stopped ? { stopped } : {}),
    ...(entry && entry.best >= 0 && !state.drawn[entry.best] ? { bestSoFar: entry.best } : {}),
    ...(provenMove ? { provenMove } : {}),
  };
}
