/**
 * Evaluating one board position: the quick exact cases (game over, simple loony endgames by the
 * closed form) and the budgeted search. Shared by the CLI (in process) and the server's worker.
 */
import type { BoardState } from '../board/state';
import { analyzeBoardEndgame, type BoardEndgameAnalysis } from '../endgame';
import { Solver, ThreadedSolver, type SolveOptions, type ThreadOptions } from '../solver';
import { provenBestMove, type Evaluation } from './evaluation';
import { nimSummary } from './nim';
import { prove, type Proof } from './prove';
import { MOVES_NOT_FOUND, searchBudgetReached, unprovenNote } from '../phrasebook';

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
  /** Time for the Nimstring view after the search (default: no limit but nimBudget). */
  nimTimeBudgetMs?: number;
  nodeBudget?: number;
  timeBudgetMs?: number;
  shouldStop?: () => boolean;
  onProgress?: SolveOptions['onProgress'];
  /** A guess of the value (e.g. the next position's), to order the proof's window searches. */
  guess?: number;
  /** The mover's score minus the other's (default: from the state's score). */
  lead?: number;
  /** Bounds already proven (the proof store, earlier attempts): the proof starts from them. */
  known?: { lower: number; upper: number };
  /** Prove the result only, no margin (default false). */
  resultOnly?: boolean;
  /** Once the value is exact, also every move's value and every optimal move (default true). */
  moveValues?: boolean;
}

/**
 * A solver whose leaves use the closed form as soon as a position is a simple loony endgame;
 * `tableMb`: its transposition table's memory (default DEFAULT_TABLE_MB, an editor's share).
 */
/**
 * The solver of the editor and the CLI (leaves valued by the solver's default, the endgame
 * module's loonyEndgameValue); with `threads` of more than one thread, a ThreadedSolver.
 */
export function createSolver(tableMb?: number, threads?: ThreadOptions): Solver {
  return threads && threads.threads > 1 ? new ThreadedSolver({ tableMb }, threads) : new Solver({ tableMb });
}

/**
 * Budgeted proof (prove.ts): the result first, then the margin, then, when the value is exact and
 * the budget lasts, every optimal move and every move's value. Beyond the budget the answer is
 * 'unknown' with the tightest bounds proven and the best move found so far (not proven).
 */
export function searchEvaluate(solver: Solver, state: BoardState, budget: SearchBudget): Evaluation {
  const { nimBudget, onProgress } = budget;
  const t0 = Date.now();
  const proof = prove(solver, state, {
    timeBudgetMs: budget.timeBudgetMs,
    nodeBudget: budget.nodeBudget,
    shouldStop: budget.shouldStop,
    guess: budget.guess,
    known: budget.known,
    lead: budget.lead,
    resultOnly: budget.resultOnly,
    onProgress: onProgress ? (p) => onProgress({ ...p, movesDone: 0, movesTotal: 0 }) : undefined,
  });
  let nodes = proof.nodes;
  const moveValues = new Map<number, number | null>();
  let best: number[] = [];
  if (proof.exact && budget.moveValues !== false) {
    const timeLeft = budget.timeBudgetMs === undefined ? undefined : budget.timeBudgetMs - (Date.now() - t0);
    const nodesLeft = budget.nodeBudget === undefined ? undefined : budget.nodeBudget - nodes;
    if ((timeLeft === undefined || timeLeft > 0) && (nodesLeft === undefined || nodesLeft > 0)) {
      const r = solver.solve(state, {
        timeBudgetMs: timeLeft,
        nodeBudget: nodesLeft,
        shouldStop: budget.shouldStop,
        onProgress,
        moveValues: true,
      });
      nodes += r.nodes;
      if (r.status === 'exact' && r.value === proof.lower) best = r.best.slice();
      if (r.moveValues) {
        for (let l = 0; l < r.moveValues.length; l++) if (!state.drawn[l]) moveValues.set(l, r.moveValues[l]);
      }
    }
  }
  const stopped = budget.shouldStop?.() ?? false;
  const nim =
    nimBudget && !stopped
      ? nimSummary(state, nimBudget, true, {
          timeBudgetMs: budget.nimTimeBudgetMs,
          shouldStop: budget.shouldStop,
          wholeBoard: { hints: solver.tableOf(state.geometry) },
        })
      : undefined;
  const common = {
    method: 'search' as const,
    moveValues: moveValues.size ? moveValues : undefined,
    nodes,
    ms: Date.now() - t0,
    nim,
  };
  if (proof.exact) {
    return {
      status: 'exact',
      value: proof.lower,
      lower: proof.lower,
      upper: proof.upper,
      best,
      ...(best.length === 0 ? { note: MOVES_NOT_FOUND } : {}),
      ...(best.length === 0 ? estimateFields(proof) : {}),
      ...common,
    };
  }
  return {
    status: 'unknown',
    value: null,
    lower: proof.lower,
    upper: proof.upper,
    best: [],
    ...estimateFields(proof),
    // the store gives back the same sentence for the bounds it keeps (searchBudgetReached)
    note:
      proof.stopped === 'cancelled' || proof.nodes === 0
        ? unprovenNote(proof, state.openBoxCount())
        : searchBudgetReached(proof.nodes),
    ...(proof.stopped === 'cancelled' ? { cancelled: true } : {}),
    ...common,
  };
}

/** A proof's best move so far: its proven move (worth at least its bound) when it has one, else the table's. */
function estimateFields(proof: Proof): Pick<Evaluation, 'bestSoFar' | 'bestSoFarNodes' | 'bestSoFarLower'> {
  if (proof.provenMove)
    return { bestSoFar: proof.provenMove.line, bestSoFarNodes: proof.nodes, bestSoFarLower: proof.provenMove.lower };
  return proof.bestSoFar !== undefined ? { bestSoFar: proof.bestSoFar, bestSoFarNodes: proof.nodes } : {};
}

/**
 * An exact evaluation without its optimal moves (searched with moveValues: false, or cut short):
 * search every move's value within the budget. Returns the evaluation completed, or unchanged.
 */
export function completeMoves(
  solver: Solver,
  state: BoardState,
  e: Evaluation,
  budget: { timeBudgetMs?: number; shouldStop?: () => boolean },
): Evaluation {
  if (e.status !== 'exact' || e.best.length > 0 || e.method !== 'search') return e;
  const r = solver.solve(state, { ...budget, moveValues: true });
  if (r.status !== 'exact' || r.value !== e.value) return e;
  const moveValues = new Map<number, number | null>();
  if (r.moveValues)
    for (let l = 0; l < r.moveValues.length; l++) if (!state.drawn[l]) moveValues.set(l, r.moveValues[l]);
  const done: Evaluation = { ...e, best: r.best.slice(), moveValues, nodes: (e.nodes ?? 0) + r.nodes };
  delete done.note;
  delete done.bestSoFar;
  delete done.bestSoFarNodes;
  delete done.bestSoFarLower;
  return done;
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
    const best = e && provenBestMove(e);
    if (best === undefined) break;
    line.push(best);
    s.play(best);
  }
  return line;
}
