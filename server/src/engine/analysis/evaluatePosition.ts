/**
 * Evaluating one board position: the quick exact cases (game over, simple loony endgames by the
 * closed form) and the budgeted search. Shared by the CLI (in process) and the server's worker.
 */
import type { BoardState } from '../board/state';
import { analyzeBoardEndgame, loonyEndgameValue, type BoardEndgameAnalysis } from '../endgame';
import { Solver, type SolveOptions } from '../solver';
import type { Evaluation } from './evaluation';
import { nimSummary } from './nim';
import { searchBudgetReached } from '../phrasebook';

export type LoonyAnalysis = Extract<BoardEndgameAnalysis, { ok: true }>;

/** Exact evaluation without search, or undefined when the position needs search. */
export function quickEvaluate(state: BoardState): { evaluation: Evaluation; loony?: LoonyAnalysis } | undefined {
  if (state.isOver()) {
    return { evaluation: { status: 'exact', method: 'over', value: 0, lower: 0, upper: 0, best: [] } };
  }
  const a = analyzeBoardEndgame(state);
  if (!a.ok) return undefined;
  const moveValues = new Map<number, number | null>();
  for (const l of a.lines) moveValues.set(l.line, l.value);
  return {
    evaluation: {
      status: 'exact',
      method: 'loony-endgame',
      value: a.value,
      lower: a.value,
      upper: a.value,
      best: a.best.slice().sort((x, y) => x - y),
      moveValues,
    },
    loony: a,
  };
}

export interface SearchBudget {
  /** Nimstring regions to evaluate per position (0: no Nimstring). */
  nimBudget?: number;
  nodeBudget?: number;
  timeBudgetMs?: number;
  shouldStop?: () => boolean;
  onProgress?: SolveOptions['onProgress'];
}

/**
 * A solver whose leaves use the closed form as soon as a position is a simple loony endgame;
 * `tableMb`: its transposition table's memory (default DEFAULT_TABLE_MB, an editor's share).
 */
export function createSolver(tableMb?: number): Solver {
  return new Solver({ leafEvaluator: (s) => loonyEndgameValue(s), tableMb });
}

/** Budgeted exact search; beyond the budget the answer is 'unknown' with the bounds proven so far. */
export function searchEvaluate(solver: Solver, state: BoardState, budget: SearchBudget): Evaluation {
  const { nimBudget, ...solveBudget } = budget;
  const r = solver.solve(state, { ...solveBudget, moveValues: true });
  const stopped = budget.shouldStop?.() ?? false;
  const nim = nimBudget && !stopped ? nimSummary(state, nimBudget) : undefined;
  const moveValues = new Map<number, number | null>();
  if (r.moveValues) {
    for (let l = 0; l < r.moveValues.length; l++) if (!state.drawn[l]) moveValues.set(l, r.moveValues[l]);
  }
  if (r.status === 'exact') {
    return {
      status: 'exact',
      method: 'search',
      value: r.value,
      lower: r.value!,
      upper: r.value!,
      best: r.best.slice(),
      moveValues,
      nodes: r.nodes,
      nim,
    };
  }
  return {
    status: 'unknown',
    method: 'search',
    value: null,
    lower: r.lower,
    upper: r.upper,
    best: [],
    moveValues,
    nodes: r.nodes,
    note: searchBudgetReached(r.nodes),
    nim,
  };
}

/**
 * The best continuation from a position as far as it is known without new search: follow the
 * first optimal move while each next position is exact (closed form, or already solved).
 */
export function bestContinuation(
  state: BoardState,
  known: (s: BoardState) => Evaluation | undefined,
  maxPlies = 12,
): number[] {
  const line: number[] = [];
  const s = state.clone();
  for (let i = 0; i < maxPlies && !s.isOver(); i++) {
    const e = quickEvaluate(s)?.evaluation ?? known(s);
    if (!e || e.status !== 'exact' || e.best.length === 0) break;
    line.push(e.best[0]);
    s.play(e.best[0]);
  }
  return line;
}
