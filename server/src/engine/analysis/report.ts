/**
 * What the analysis of a document is made of: the report of every position, move, line of play and
 * entry (the shapes the server's features, the CLI and the phrasebook read), and the options that
 * steer it. The analysis itself: analyzeDocument.ts (documents), boardLine.ts and endgameEntry.ts
 * (entries), moveReview.ts (one move), reviewDiagnostics.ts (the diagnostics that follow).
 */
import type { BoardState } from '../board/state';
import type { EndgameAnalysis } from '../endgame';
import type { DabDocument, Diagnostic, EntryModel, Range, Severity, Variation } from '../notation';
import type { Evaluation } from './evaluation';
import type { LoonyAnalysis } from './evaluatePosition';
import type { NimSummary } from './nim';
import type { GameResult, ProvenStanding } from './prove';

/** Supplies evaluations of positions that need search; undefined = not known yet (pending). */
export type SearchLookup = (state: BoardState) => Evaluation | undefined;

export interface AnalysisOptions {
  search?: SearchLookup;
  /** Nimstring values of board positions (budgeted; may answer undefined while computing). */
  nim?: (state: BoardState) => NimSummary | undefined;
  /** Smallest loss (boxes) that gets a diagnostic. */
  minLoss?: number;
  /** Severity of a mistake that changes the result, and of one that does not. */
  resultChangeSeverity?: Severity;
  lossSeverity?: Severity;
  /** analyzeText only: readDab's work bound (ReadOptions.maxWork). Default: no bound. */
  maxWork?: number;
  /**
   * The editor: players' names and titles in the reports as its sentences show them (shownName: cut,
   * right-to-left text isolated). Without it, as written (the CLI; its JSON).
   */
  shownNames?: boolean;
}

export interface PositionReport {
  ply: number;
  toMove: 0 | 1;
  score: [number, number];
  /**
   * Boxes complete at the start with no owner (no `score`, no initial): they count for nobody, so
   * `score` and the final scores and results built on it leave them out. Absent when there are none.
   */
  unowned?: number;
  /** Boxes not yet claimed. */
  remaining: number;
  /** For the player to move, over the remaining boxes; null when unknown or pending. */
  value: number | null;
  exact: boolean;
  pending: boolean;
  lower: number | null;
  upper: number | null;
  /** Controlled value for the player to move (-c(G) for the opener), when defined. */
  controlledValue: number | null;
  /** Every optimal move in canonical form. */
  best: string[];
  method: 'endgame' | 'loony-endgame' | 'search' | 'over' | 'unknown';
  note?: string;
  /** Abstract endgames and loony board positions: the endgame analysis (paper conventions). */
  endgame?: EndgameAnalysis;
  /** Loony board positions: components and per-line values. */
  loony?: LoonyAnalysis;
  /** Board entries: the position itself. */
  state?: BoardState;
  /** Value of each legal move for the player to move (board: by line name; endgame: by component or decision). */
  moveValues?: Map<string, number | null>;
  /**
   * The game's result for the player to move (counting the score so far), when proven; it can be
   * proven while the value is not.
   */
  result: GameResult | null;
  /** When the optimal moves are unknown: the best move found so far by the deepest finished search (not proven). */
  bestSoFar?: string[];
  /**
   * Proven: bestSoFar is worth at least this to the player to move (net boxes of the rest, the boxes
   * it completes included). What that proves about the move (optimal, keeps the result): estimateStanding.
   */
  bestSoFarLower?: number;
  /** Board positions: the Nimstring view (the fallback truth when the exact value is unknown). */
  nim?: NimSummary;
  /** Abstract endgames: the components not yet opened (the one just opened excluded). */
  components?: { kind: 'chain' | 'loop'; size: number }[];
  /** Endgame positions after an opening: the controller's two options. */
  decision?: { keep: number | null; all: number; best: 'keep' | 'all' | 'either' };
}

export interface MoveReport {
  ply: number;
  move: string;
  player: 0 | 1;
  completes: number;
  /** Boxes thrown away against best play; null when unknown. */
  loss: number | null;
  /** Proven bounds on the boxes thrown away (equal to loss when it is known); null when nothing is known. */
  lossAtLeast: number | null;
  lossAtMost: number | null;
  /** The mover's result (with the score) before the move under best play, and after it; null when not proven. */
  resultBefore: GameResult | null;
  resultAfter: GameResult | null;
  best: string[];
  /**
   * When `best` is empty, moves other than the one played that are proven optimal (provenOptimalMoves);
   * or else the best move found so far, when its proven bound proves it keeps the mover's win
   * (estimateStanding) and the move played is proven to lose it ('keeps-win'), or when that bound is
   * above what the move played is proven to achieve at most ('better': `atLeast` > `playedAtMost`).
   */
  provenInstead?: { moves: string[]; standing: ProvenStanding | 'better'; atLeast?: number; playedAtMost?: number };
  range: Range;
  glyph: string | null;
  comment: string | null;
  /** Predicted final margin for the mover (whole game) before and after the move; null when unknown. */
  marginBefore: number | null;
  marginAfter: number | null;
  /** Proven: the results before and after the move differ (margins may be unknown). */
  changesResult: boolean;
  /** The variations written after this move (alternatives from the position before it), reviewed. */
  variations: VariationReport[];
}

/** What a line's review adds up to: boxes thrown away by each player, result-changing mistakes, unvalued moves. */
export interface ReviewSummary {
  /** Boxes each player threw away: exact losses plus the proven lower bounds of the others. */
  lost: [number, number];
  /** Per player: `lost` is a lower bound (a move of the player's loss is not known exactly), so it is "at least". */
  lostAtLeast: [boolean, boolean];
  /** Moves proven to change the result (with their margins known or not). */
  resultChanging: number;
  /** Moves whose loss is not known exactly. */
  unknownMoves: number;
}

/** A line of play reviewed: the main line of a record, or a variation. */
export interface LineReport {
  /** Plies played before the line's first move (0 for the main line). */
  startPly: number;
  /** positions[k] = the position after startPly + k plies (positions[0]: where the line starts). */
  positions: PositionReport[];
  /** moves[k] leads from positions[k] to positions[k + 1]; a move's `ply` is startPly + k + 1. */
  moves: MoveReport[];
  /**
   * Variations from the line's last position: written on an illegal (skipped) move after the line's
   * last legal one, so no move of the line replaces them.
   */
  endVariations: VariationReport[];
  summary: ReviewSummary;
}

/** A variation reviewed like the main line: its own values, losses and diagnostics. */
export interface VariationReport extends LineReport {
  variation: Variation;
  /** The ply of the move it replaces (startPly + 1). */
  replaces: number;
}

export interface EntryReport extends LineReport {
  index: number;
  model: EntryModel;
  kind: 'game' | 'position' | 'endgame';
  title: string | null;
  line: number;
  players: [string, string];
  /** The main line's positions and moves (see LineReport); its summary counts the main line only. */
  positions: PositionReport[];
  moves: MoveReport[];
  /** Every line: the main line (this report) first, then each variation, depth first in written order. */
  lines: LineReport[];
  /** Positions waiting for search (variations included). */
  pending: number;
  /** An endgame's play steps past MAX_ENDGAME_PLAY_WORK: not analysed, from the first of them. */
  playLeftOut?: { range: Range; steps: number };
}

export interface DocumentReport {
  doc: DabDocument;
  entries: EntryReport[];
  /** Parser, model and analysis diagnostics, sorted by position. */
  diagnostics: Diagnostic[];
}

/** The review summary of a line before any move. */
export function emptySummary(): ReviewSummary {
  return { lost: [0, 0], lostAtLeast: [false, false], resultChanging: 0, unknownMoves: 0 };
}

export function emptyReport(model: EntryModel, index: number): EntryReport {
  const report: EntryReport = {
    index,
    model,
    kind: model.kind,
    title: model.title,
    line: model.entry.headerRange.line,
    players: model.players,
    startPly: 0,
    positions: [],
    moves: [],
    endVariations: [],
    lines: [],
    pending: 0,
    summary: emptySummary(),
  };
  report.lines.push(report);
  return report;
}
