/** The solver's public types: options of one solve, its results, and the solver's configuration. */
import type { BoardState } from '../board/state';

/** Table memory of a Solver by default (MiB): an editor's share. */
export const DEFAULT_TABLE_MB = 32;
/** Table memory for batch work (the CLI, the benchmarks) by default (MiB). */
export const BATCH_TABLE_MB = 128;
/** The largest table (MiB) a setting may ask for (2^28 entries of 16 bytes on boards up to 64 lines, table.ts's MAX_TABLE_BITS). */
export const MAX_TABLE_MB = 4096;

/** Symmetries moving more root lines than this are not kept (their images rarely meet in one search). */
export const DEFAULT_SYMMETRY_SLACK = 2;

export type LeafEvaluator = (state: BoardState) => number | undefined;

export interface SolveProgress {
  nodes: number;
  ms: number;
  /** Proven bounds on the value so far. */
  lower: number;
  upper: number;
  /** Root moves finished / total. */
  movesDone: number;
  movesTotal: number;
}

export interface SolveOptions {
  /** Give up (status 'unknown') after about this many nodes. */
  nodeBudget?: number;
  /** Give up after about this many milliseconds. */
  timeBudgetMs?: number;
  /** Also compute the exact value of every legal move (slower: full window for every move). */
  moveValues?: boolean;
  /** Polled every 4096 nodes; returning true cancels the search (status 'unknown'). */
  shouldStop?: () => boolean;
  /** Called after each root move and every ~65536 nodes. */
  onProgress?: (info: SolveProgress) => void;
  /**
   * Exact evaluator consulted when every unclaimed box has 2 or 3 sides drawn (after the built-in
   * chains-and-loops evaluator, which takes the all-2-sides case); returns undefined to decline.
   * null = none. Default: the Solver's (which defaults to the endgame module's loonyEndgameValue).
   */
  leafEvaluator?: LeafEvaluator | null;
  /**
   * Only the value: the root is searched like any inner node (rules 1-4 apply, symmetric moves are
   * found in the table) by null-window tests around the table's guess. `best` is then [] and
   * moveValues is ignored. Cheapest way to prove a value (default false).
   */
  valueOnly?: boolean;
}

/** Result of Solver.searchWindow: proven bounds from one window search. */
export interface WindowResult {
  /** 'done', or 'unknown' when a budget or stop request cut the search (bounds are then the trivial ones or the table's). */
  status: 'done' | 'unknown';
  /** Proven bounds on the value (lower === upper when the value fell inside the window). */
  lower: number;
  upper: number;
  nodes: number;
  ms: number;
  /**
   * When the search ended above alpha: a move from the position (own orientation) proven to be worth
   * at least `lower` to the player to move (the move that refuted the window, or the value's move).
   * It is one of the optimal moves when `lower` is the exact value.
   */
  move?: { line: number; lower: number };
}

export interface SolveResult {
  status: 'exact' | 'unknown';
  /** Value for the player to move (net boxes of the remaining boxes), null when unknown. */
  value: number | null;
  /** Proven bounds on the value (equal to value when exact). */
  lower: number;
  upper: number;
  /** All optimal moves (line indices, ascending); [] when unknown. */
  best: number[];
  /**
   * With options.moveValues: moveValues[line] = exact value of drawing `line` now, for the player
   * to move (boxes it completes included); null for drawn lines and for moves left unknown.
   */
  moveValues?: (number | null)[];
  /** With options.moveValues: proven [lower, upper] per legal line (null for drawn lines). */
  moveBounds?: ([number, number] | null)[];
  nodes: number;
  ms: number;
}

export interface SolverConfig {
  /**
   * Memory of the transposition table in MiB (default DEFAULT_TABLE_MB, sized for an editor; the CLI
   * and the benchmarks pass more). The table is allocated once, at this size rounded down to a power
   * of two entries, and never grows.
   */
  tableMb?: number;
  /** log2 of the table's entries (4..28, MAX_TABLE_BITS); overrides tableMb. */
  tableBits?: number;
  /** Store positions under their least symmetric image (default true). */
  symmetry?: boolean;
  /**
   * Keep only the symmetries that move at most this many drawn lines of the searched position off
   * its drawn set (default DEFAULT_SYMMETRY_SLACK; Infinity: every symmetry; see SearchPosition.active).
   */
  symmetrySlack?: number;
  /** Root moves by null-window (MTD) tests instead of one wide window (default true). */
  rootMtd?: boolean;
  /** Apply rule 2 (opened chains) (default true). Rule 1 is always applied. */
  chainRule?: boolean;
  /**
   * Where the player to move may take or decline two boxes (a 3-box, then a 2-box), the value is
   * at least 0: windows at or below it are cut without search (proof in search.ts) (default true).
   */
  pairFloor?: boolean;
  /**
   * On several threads: a move that another thread is searching now is searched last at its node
   * (simplified ABDADA; only the order changes) (default true).
   */
  deferBusy?: boolean;
  /** deferBusy only at nodes with at least this many undrawn lines (default 18). */
  deferMinUndrawn?: number;
  /** Enhanced transposition cutoffs (look up every child before searching any) (default false). */
  etc?: boolean;
  /** Rule 6 (moves.ts): skip chain and loop openings whose static bound cannot raise alpha (default true). */
  openingBound?: boolean;
  /** Apply rule 4 (chains.ts; equivalent moves: edge lines of a box, 1- and 2-chains, edge-to-edge chains, loops, parallel chains) (default true). */
  equivalentMoves?: boolean;
  /**
   * Table replacement in a full bucket: evict the entry with the smaller search effort behind it
   * ('work': log2 of the subtree's nodes, default) or with fewer undrawn lines ('depth').
   */
  replacement?: 'work' | 'depth';
  /** Search the table move before generating the other moves (saves move generation at most cut nodes) (default true). */
  lazyMoves?: boolean;
  /** Positions with fewer undrawn lines than this skip the table (re-searching is cheaper than a probe) (default 0). */
  tableMinUndrawn?: number;
  /** Table entries per bucket: 1, 2, 4 or 8 (default 4: one 64-byte cache line when keys take 2 words, i.e. up to 64 lines). */
  bucket?: 1 | 2 | 4 | 8;
  /**
   * Apply rule 5 (chains.ts: a 2-chain is offered by its middle line: the half-hearted handout, an end line, is
   * never better) with rule 4 (default true; off when equivalentMoves is off).
   */
  handoutRule?: boolean;
  /**
   * Apply rule 4f (chains.ts: every line of a chain of 3 or more 2-boxes opens it with one value, so
   * one is searched) with rule 4 (default true; off when equivalentMoves is off).
   */
  openingEquivalence?: boolean;
  /** Killer move per ply: the last safe line that refuted a sibling is tried right after the table move (default false: more nodes on 4x4). */
  killers?: boolean;
  /**
   * At solve()'s root, a line that rule 4 finds equivalent to a smaller line (an automorphism of the
   * strings-and-coins graph, or rules 1 and 3) gets that line's value instead of a search of its own
   * (default true).
   */
  rootEquivalence?: boolean;
  /** Apply rule 3 (with a capturable box: only captures and the double-dealing line) (default true). */
  captureRule?: boolean;
  /**
   * Evaluate positions made only of isolated chains and loops (every unclaimed box has exactly 2
   * sides drawn) exactly by the built-in component recursion (default true).
   */
  simpleEndgames?: boolean;
  /** Default leaf evaluator for solve() calls that do not pass one (default: endgame's loonyEndgameValue; null = none). */
  leafEvaluator?: LeafEvaluator | null;
}
