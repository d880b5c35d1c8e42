/**
 * The analysis of a whole document: every position of every entry valued (or marked unknown /
 * pending), every move reviewed (boxes thrown away, best moves, result changes) and the
 * diagnostics that follow from it. A pure function of the text and an evaluator, so the server
 * can re-run it cheaply whenever a search result arrives, and the CLI prints the same thing.
 */
import type { BoardState } from '../board/state';
import { evaluatePlay, type EndgameAnalysis, analyzeEndgame, type PlayStep as EndgamePlayStep } from '../endgame';
import {
  entryWork,
  readDab,
  type DabDocument,
  type Diagnostic,
  type EntryModel,
  type LineModel,
  type Range,
  type Severity,
  type Variation,
} from '../notation';
import type { BoardGeometry } from '../board/geometry';
import { MAX_ENDGAME_PLAY_WORK } from '../limits';
import { nothingProven, type Evaluation } from './evaluation';
import { quickEvaluate, type LoonyAnalysis } from './evaluatePosition';
import {
  NOTE_NEEDS_SEARCH,
  NOTE_SEARCHING,
  endOpenedWords,
  glyphMessage,
  mistakeMessage,
  notAnalysedHereMessage,
  playNotAnalysedMessage,
  valueUncheckedMessage,
  wrongValueMessage,
  wrongValueBoundsMessage,
  MOVES_NOT_FOUND,
  shownName,
} from '../phrasebook';
import type { NimSummary } from './nim';
import {
  estimateStanding,
  flipResult,
  playedMoveFloor,
  provenOptimalMoves,
  resultOf,
  type GameResult,
  type ProvenStanding,
} from './prove';

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

export function analyzeText(text: string, options: AnalysisOptions = {}): DocumentReport {
  return analyzeDocument(readDab(text, { maxWork: options.maxWork }), options);
}

export function analyzeDocument(doc: DabDocument, options: AnalysisOptions = {}): DocumentReport {
  const diagnostics = doc.diagnostics.slice();
  const entries = doc.models.map((model, index) => {
    // left out by readDab's work bound: nothing to analyse (the report says why, through its model)
    if (model.leftOut) return emptyReport(model, index);
    const report =
      model.kind === 'endgame' ? analyzeEndgameEntry(model, index) : analyzeBoardEntry(model, index, options);
    for (const line of report.lines) for (const p of line.positions) p.result = resultFor(p, p.toMove);
    if (options.shownNames) {
      report.players = [shownName(report.players[0]), shownName(report.players[1])];
      if (report.title !== null) report.title = shownName(report.title);
    }
    for (const d of reviewDiagnostics(report, options)) diagnostics.push(d);
    return report;
  });
  const leftOut = doc.models.filter((m) => m.leftOut);
  if (leftOut.length > 0)
    diagnostics.push({
      severity: 'warning',
      range: leftOut[0].entry.headerRange,
      code: 'not-analysed-here',
      message: notAnalysedHereMessage(
        leftOut.length,
        doc.maxWork ?? 0,
        doc.boundBy ?? 'editor',
        // the first entry left out is larger than the bound on its own: splitting the file cannot help
        entryWork(leftOut[0].entry) > (doc.maxWork ?? 0),
      ),
    });
  diagnostics.sort((a, b) => a.range.line - b.range.line || a.range.character - b.range.character);
  return { doc, entries, diagnostics };
}

function emptyReport(model: EntryModel, index: number): EntryReport {
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
    summary: { lost: [0, 0], lostAtLeast: [false, false], resultChanging: 0, unknownMoves: 0 },
  };
  report.lines.push(report);
  return report;
}

// ---------------------------------------------------------------------------------------------
// Board entries (game, position)

function evaluatePosition(
  state: BoardState,
  search: SearchLookup | undefined,
): { evaluation: Evaluation; loony?: LoonyAnalysis } {
  const quick = quickEvaluate(state);
  if (quick) return quick;
  const found = search?.(state);
  if (found) return { evaluation: found };
  return {
    evaluation: search
      ? nothingProven(state, 'pending', NOTE_SEARCHING)
      : nothingProven(state, 'unknown', NOTE_NEEDS_SEARCH),
  };
}

function analyzeBoardEntry(model: EntryModel, index: number, options: AnalysisOptions): EntryReport {
  const report = emptyReport(model, index);
  const g = model.geometry;
  if (!g || model.states.length === 0) return report;
  reviewBoardLine(report, model, report, g, options);
  return report;
}

/**
 * Review one line of a board entry into `out`: value every position, then every legal move (the
 * boxes it throws away against best play), then each move's variations, recursively. The main line
 * and the variations go through this one function, so a variation's mistake is judged exactly like
 * the main line's.
 */
function reviewBoardLine(
  report: EntryReport,
  line: LineModel,
  out: LineReport,
  g: BoardGeometry,
  options: AnalysisOptions,
): void {
  const evals = line.states.map((s) => evaluatePosition(s, options.search));
  line.states.forEach((state, k) => {
    const { evaluation: e, loony } = evals[k];
    const remaining = state.openBoxCount();
    const moveValues = e.moveValues
      ? new Map([...e.moveValues].map(([l, v]) => [g.lineName(l), v] as [string, number | null]))
      : undefined;
    let controlledValue: number | null = null;
    if (loony && loony.phase === 'loony' && loony.endgame.controlledValue !== null)
      controlledValue = -loony.endgame.controlledValue + 0;
    out.positions.push({
      ply: line.startPly + k,
      toMove: state.toMove,
      score: [state.score[0], state.score[1]],
      ...(report.model.unassigned > 0 ? { unowned: report.model.unassigned } : {}),
      remaining,
      value: e.value,
      exact: e.status === 'exact',
      pending: e.status === 'pending',
      lower: e.status === 'exact' ? e.value : e.lower,
      upper: e.status === 'exact' ? e.value : e.upper,
      controlledValue,
      best: e.best.map((l) => g.lineName(l)).sort(),
      method: e.status === 'exact' ? (e.method === 'search' ? 'search' : e.method) : 'unknown',
      note: e.note,
      endgame: loony?.endgame,
      loony,
      state,
      moveValues,
      result: null,
      ...(e.best.length === 0 && e.bestSoFar !== undefined
        ? {
            bestSoFar: [g.lineName(e.bestSoFar)],
            ...(e.bestSoFarLower !== undefined ? { bestSoFarLower: e.bestSoFarLower } : {}),
          }
        : {}),
      nim: e.nim ?? (e.method !== 'search' ? options.nim?.(state) : undefined),
    });

    if (e.status === 'pending') report.pending++;
  });
  // bounds that met (merged from several searches) are the value
  for (const p of out.positions)
    if (!p.exact && !p.pending && p.lower !== null && p.lower === p.upper) makeExact(p, p.lower);
  boundsFromPlayedMoves(line, out);
  line.plies.forEach((mv, k) => {
    const before = out.positions[k],
      after = out.positions[k + 1];
    const player = mv.player!;
    const completes = mv.completed.length;
    // what the move achieves for the mover (boxes completed + the rest), exact or bounded
    const worth = provenWorth(before, mv.name!);
    let achieved: [number, number] | null = worth && worth[0] === worth[1] ? worth : null;
    if (achieved === null && after.lower !== null && after.upper !== null) {
      achieved =
        after.toMove === player
          ? [completes + after.lower, completes + after.upper]
          : [completes - after.upper, completes - after.lower];
    }
    // the move played is the best move found so far, with a proven bound on what it achieves
    if (worth && worth[0] !== worth[1]) {
      const b = worth[0];
      if (achieved === null) achieved = before.upper !== null ? [b, before.upper] : null;
      else if (b > achieved[0] && b <= achieved[1]) achieved = [b, achieved[1]];
    }
    let lossBounds: [number, number] | null = null;
    if (before.best.includes(mv.name!)) lossBounds = [0, 0];
    else if (achieved && before.lower !== null && before.upper !== null)
      lossBounds = [Math.max(0, before.lower - achieved[1]), Math.max(0, before.upper - achieved[0])];
    const loss = lossBounds && lossBounds[0] === lossBounds[1] ? lossBounds[0] : null;
    pushMove(
      out,
      {
        ply: mv.ply!,
        move: mv.name!,
        player,
        completes,
        loss,
        best: before.best,
        range: mv.range,
        glyph: mv.glyph,
        comment: mv.comment,
      },
      before,
      after,
      lossBounds,
      achieved,
    );
  });
  // Variations: reviewed like this line; nested under the move played from the position they start
  // from (the move they replace, or after an illegal move, which is skipped, the next legal one);
  // after the line's last legal move, they start from its last position (endVariations).
  const reportAt = new Map(out.moves.map((m) => [m.ply, m]));
  for (const mv of line.moves) {
    for (const v of mv.variations) {
      const vr: VariationReport = {
        variation: v.variation,
        replaces: v.startPly + 1,
        startPly: v.startPly,
        positions: [],
        moves: [],
        endVariations: [],
        summary: { lost: [0, 0], lostAtLeast: [false, false], resultChanging: 0, unknownMoves: 0 },
      };
      const replaced = reportAt.get(vr.replaces);
      if (replaced) replaced.variations.push(vr);
      else out.endVariations.push(vr);
      report.lines.push(vr);
      if (v.states.length) reviewBoardLine(report, v, vr, g, options);
    }
  }
}

/**
 * What the move played is proven worth to its player (boxes it completes included), from the
 * position before it: [v, v] when a search valued it, [b, Infinity] when it is the best move so far
 * with the proven bound b; undefined when neither.
 */
function provenWorth(before: PositionReport, name: string): [number, number] | undefined {
  const valued = before.moveValues?.get(name);
  if (typeof valued === 'number') return [valued, valued];
  if (before.bestSoFar?.[0] === name && before.bestSoFarLower !== undefined) return [before.bestSoFarLower, Infinity];
  return undefined;
}

/**
 * MoveReport.provenInstead, when the optimal moves are not all known: the moves other than the one
 * played that are proven optimal (valued at the exact value, or the best move so far whose proven
 * bound reaches it); else the best move so far when its bound proves it keeps the mover's win and
 * the move played is proven to change the result ('keeps-win'), or proves it better than the move
 * played (`achieved`: what the move played is proven to achieve; 'better').
 */
function provenInsteadOf(
  before: PositionReport,
  played: string,
  achieved: [number, number] | null,
  changesResult: boolean,
): Pick<MoveReport, 'provenInstead'> {
  if (before.best.length > 0) return {};
  const optimal = provenOptimalMoves(before).filter((m) => m !== played);
  if (optimal.length > 0) return { provenInstead: { moves: optimal, standing: 'optimal' } };
  const estimate = before.bestSoFar?.[0],
    b = before.bestSoFarLower;
  if (estimate === undefined || estimate === played || b === undefined) return {};
  const keepsWin = changesResult && estimateStanding(before) === 'keeps-win';
  const better = achieved !== null && b > achieved[1];
  if (!keepsWin && !better) return {};
  return {
    provenInstead: {
      moves: [estimate],
      standing: keepsWin ? 'keeps-win' : 'better',
      atLeast: b,
      ...(achieved !== null ? { playedAtMost: achieved[1] } : {}),
    },
  };
}

/** Proven bounds that meet: the exact value, its optimal moves not found. */
function makeExact(p: PositionReport, value: number): void {
  p.value = value;
  p.exact = true;
  p.method = 'search';
  p.note = MOVES_NOT_FOUND;
}

/**
 * A position is worth at least the move played from it: v(P) >= c + v(next) when the move
 * completes c boxes and the same player moves again, v(P) >= c - v(next) otherwise. Read both ways,
 * what is proven about one of the two positions bounds the other: the next position's bounds give
 * this one a lower bound (a proven win after the winner's move is a proven win before it; from the
 * end of the line backwards), and this one's upper bound bounds the next (after any move from a
 * proven loss, the loss stays proven; from the start forwards), and so does what the move played is
 * proven worth (its value, or the proven bound of the best move so far when it is that move). Where
 * bounds meet, the value is exact (its optimal moves are still unsearched).
 */
function boundsFromPlayedMoves(line: LineModel, out: LineReport): void {
  const tighten = (p: PositionReport, lower: number, upper: number) => {
    if (p.exact || p.lower === null || p.upper === null) return;
    // (bounds that contradict proven ones would mean a bug elsewhere: nothing is made up from them)
    if (lower > p.upper || upper < p.lower || (lower <= p.lower && upper >= p.upper)) return;
    p.lower = Math.max(p.lower, lower);
    p.upper = Math.min(p.upper, upper);
    if (p.lower === p.upper) makeExact(p, p.lower);
  };
  const played = (k: number) => {
    const mv = line.plies[k],
      before = out.positions[k],
      after = out.positions[k + 1];
    const known = (p: PositionReport | undefined) => p !== undefined && p.lower !== null && p.upper !== null;
    return {
      c: mv.completed.length,
      again: after?.toMove === mv.player,
      before,
      after,
      ok: known(before) && known(after),
    };
  };
  for (let k = line.plies.length - 1; k >= 0; k--) {
    const { c, again, before, after, ok } = played(k);
    if (ok) tighten(before, playedMoveFloor(c, again, { lower: after.lower!, upper: after.upper! }), Infinity);
  }
  for (let k = 0; k < line.plies.length; k++) {
    const { c, again, before, after, ok } = played(k);
    if (!ok) continue;
    if (again) tighten(after, -Infinity, before.upper! - c);
    else tighten(after, c - before.upper!, Infinity);
    // what the move played is proven worth, w in [lo, hi]: v(after) = w - c (same player again) or c - w
    const worth = provenWorth(before, line.plies[k].name!);
    if (worth === undefined) continue;
    const [lo, hi] = worth;
    if (again) tighten(after, lo - c, hi - c);
    else tighten(after, c - hi, c - lo);
  }
}

/** Predicted final margin (whole game) for `player` from a position, or null when its value is unknown. */
function finalMargin(p: PositionReport, player: 0 | 1): number | null {
  if (p.value === null) return null;
  const rest = p.toMove === player ? p.value : -p.value;
  return p.score[player] - p.score[1 - player] + rest;
}

/** The result for `player` (with the score) that the position's proven bounds decide, or null. */
function resultFor(p: PositionReport, player: 0 | 1): GameResult | null {
  if (p.lower === null || p.upper === null) return null;
  const lead = p.score[player] - p.score[1 - player];
  if (p.toMove === player) return resultOf(p.lower, p.upper, lead);
  return flipResult(resultOf(p.lower, p.upper, -lead));
}

function pushMove(
  report: LineReport,
  m: Omit<
    MoveReport,
    | 'marginBefore'
    | 'marginAfter'
    | 'changesResult'
    | 'variations'
    | 'lossAtLeast'
    | 'lossAtMost'
    | 'resultBefore'
    | 'resultAfter'
  >,
  before: PositionReport,
  after: PositionReport,
  lossBounds: [number, number] | null = m.loss === null ? null : [m.loss, m.loss],
  /** Board lines: what the move played is proven to achieve (null: nothing), for provenInstead. */
  achieved?: [number, number] | null,
): void {
  const marginBefore = finalMargin(before, m.player);
  const marginAfter = marginBefore === null || m.loss === null ? null : marginBefore - m.loss;
  const resultBefore = resultFor(before, m.player);
  // after the move the mover gets at most what the position after proves, and at least before's minus the loss bound
  const resultAfter = resultFor(after, m.player);
  const changesResult =
    marginBefore !== null && marginAfter !== null
      ? Math.sign(marginBefore) !== Math.sign(marginAfter)
      : resultBefore !== null && resultAfter !== null && resultBefore !== resultAfter;
  report.moves.push({
    ...m,
    ...(achieved !== undefined ? provenInsteadOf(before, m.move, achieved, changesResult) : {}),
    lossAtLeast: lossBounds ? lossBounds[0] : null,
    lossAtMost: lossBounds ? lossBounds[1] : null,
    resultBefore,
    resultAfter,
    marginBefore,
    marginAfter,
    changesResult,
    variations: [],
  });
  const sum = report.summary;
  if (changesResult) sum.resultChanging++;
  if (m.loss !== null) sum.lost[m.player] += m.loss;
  else {
    sum.unknownMoves++;
    // the move's loss is not known, so the player's total is a lower bound; a proven lower bound counts
    sum.lostAtLeast[m.player] = true;
    if (lossBounds && lossBounds[0] > 0) sum.lost[m.player] += lossBounds[0];
  }
}

// ---------------------------------------------------------------------------------------------
// Abstract endgame entries

function analyzeEndgameEntry(model: EntryModel, index: number): EntryReport {
  const report = emptyReport(model, index);
  const eg = model.endgame;
  // A component list with errors is not analysed: a value of what is left would mislead.
  const broken = [...model.entry.diagnostics, ...model.diagnostics].some(
    (d) => d.severity === 'error' && d.code === 'bad-component',
  );
  if (!eg || broken || (eg.components.length === 0 && model.entry.components)) return report;
  const total = eg.totalBoxes;
  const root = analyzeEndgame(eg.components);
  const rootValue = root.value === undefined ? null : -root.value + 0;
  report.positions.push({
    ply: 0,
    toMove: eg.opener,
    score: [eg.score[0], eg.score[1]],
    remaining: total,
    value: rootValue,
    exact: root.exact,
    pending: false,
    lower: rootValue,
    upper: rootValue,
    controlledValue: root.controlledValue === null ? null : -root.controlledValue + 0,
    best: root.value === undefined ? [] : root.best.slice(),
    result: null,
    method: root.exact ? 'endgame' : 'unknown',
    note: root.reason,
    endgame: root,
    components: eg.components.slice(),
    moveValues: new Map(root.openings.map((o) => [o.component, o.valueAfter === undefined ? null : -o.valueAfter + 0])),
  });
  const allLegal = eg.steps.filter((s) => s.legal && s.component);
  // each analysed step keeps the list of what is left: steps x components is bounded
  const analysable = Math.max(1, Math.floor(MAX_ENDGAME_PLAY_WORK / Math.max(1, eg.components.length)));
  const legal = allLegal.slice(0, analysable);
  if (allLegal.length > legal.length)
    report.playLeftOut = { range: allLegal[legal.length].range, steps: allLegal.length - legal.length };
  if (legal.length === 0) return report;
  const steps: EndgamePlayStep[] = legal.map((s) => ({
    text: s.step.text,
    component: s.component!,
    suffix: s.step.decision ?? undefined,
    start: 0,
    end: 0,
  }));
  const play = evaluatePlay(eg.components, steps);
  let score: [number, number] = [eg.score[0], eg.score[1]];
  let remaining = total;
  let rest = eg.components;
  play.steps.forEach((r, i) => {
    if (r.error) return;
    const sm = legal[i];
    const opener = sm.opener!,
      controller = sm.controller!;
    // After the opening: the controller to move, choosing keep or all.
    rest = remainingAfter(rest, [legal[i].component!]);
    const restComponents = rest; // this step's list (rest moves on at the next)
    const restAnalysis = restComponents.length > 0 ? analyzeEndgame(restComponents) : undefined;
    const vRest = restAnalysis ? restAnalysis.value : 0;
    const all = vRest === undefined ? null : r.size - vRest;
    const keep = vRest === undefined || !r.choice ? null : r.size - 2 * (r.kind === 'loop' ? 4 : 2) + vRest;
    const afterOpening: PositionReport = {
      ply: report.positions.length,
      toMove: controller,
      score: [score[0], score[1]],
      remaining,
      value: r.openingValue ?? null,
      exact: r.openingValue !== undefined,
      pending: false,
      lower: r.openingValue ?? null,
      upper: r.openingValue ?? null,
      controlledValue: null,
      best: r.bestDecision === undefined ? [] : r.bestDecision === 'either' ? ['all', 'keep'] : [r.bestDecision],
      result: null,
      method: r.openingValue !== undefined ? 'endgame' : 'unknown',
      components: restComponents,
      moveValues: new Map<string, number | null>([
        ['all', all],
        ...(r.choice ? [['keep', keep] as [string, number | null]] : []),
      ]),
    };
    if (all !== null && r.bestDecision) afterOpening.decision = { keep, all, best: r.bestDecision };
    const before = report.positions[report.positions.length - 1];
    // A 2-chain with a suffix was opened at an end (the controller could decline): another move than
    // the 2 of the position's openings (opened in its middle), valued and named as such.
    const endOpened = r.kind === 'chain' && r.size === 2 && r.choice;
    const move = endOpened ? endOpenedWords(r.component) : r.component;
    if (endOpened && before.moveValues && !before.moveValues.has(move))
      before.moveValues.set(move, r.openingValue === undefined ? null : -r.openingValue + 0);
    pushMove(
      report,
      {
        ply: afterOpening.ply,
        move,
        player: opener,
        completes: 0,
        loss: r.openerLoss ?? null,
        best: before.best,
        range: sm.step.nameRange,
        glyph: null,
        comment: sm.step.comment,
      },
      before,
      afterOpening,
    );
    report.positions.push(afterOpening);
    score = sm.scoreAfter ? [sm.scoreAfter[0], sm.scoreAfter[1]] : score;
    remaining -= r.size;
    const nextOpener =
      r.nextOpener === undefined ? controller : ((r.nextOpener === 0 ? eg.opener : 1 - eg.opener) as 0 | 1);
    const restValue = restAnalysis ? (restAnalysis.value === undefined ? null : -restAnalysis.value + 0) : 0;
    const afterDecision: PositionReport = {
      ply: report.positions.length,
      toMove: nextOpener,
      score: [score[0], score[1]],
      remaining,
      value: restValue,
      exact: restValue !== null,
      pending: false,
      lower: restValue,
      upper: restValue,
      controlledValue: restAnalysis && restAnalysis.controlledValue !== null ? -restAnalysis.controlledValue + 0 : null,
      best: restAnalysis?.value !== undefined ? restAnalysis.best.slice() : [],
      result: null,
      method: restValue === null ? 'unknown' : remaining === 0 ? 'over' : 'endgame',
      endgame: restAnalysis,
      components: restComponents,
      moveValues: restAnalysis
        ? new Map(
            restAnalysis.openings.map((o) => [o.component, o.valueAfter === undefined ? null : -o.valueAfter + 0]),
          )
        : undefined,
    };
    pushMove(
      report,
      {
        ply: afterDecision.ply,
        move: r.decision,
        player: controller,
        completes: r.decision === 'keep' ? r.size - (r.kind === 'loop' ? 4 : 2) : r.size,
        loss: r.controllerLoss ?? null,
        best: afterOpening.best,
        range: sm.step.decisionRange ?? sm.step.range,
        glyph: null,
        comment: null,
      },
      afterOpening,
      afterDecision,
    );
    report.positions.push(afterDecision);
  });
  return report;
}

function remainingAfter(
  all: { kind: 'chain' | 'loop'; size: number }[],
  opened: { kind: 'chain' | 'loop'; size: number }[],
) {
  const left = all.slice();
  for (const c of opened) {
    const i = left.findIndex((x) => x.kind === c.kind && x.size === c.size);
    if (i >= 0) left.splice(i, 1);
  }
  return left;
}

// ---------------------------------------------------------------------------------------------
// Diagnostics that come from values: wrong claims, moves that throw boxes away, glyphs.

function reviewDiagnostics(report: EntryReport, options: AnalysisOptions): Diagnostic[] {
  const out: Diagnostic[] = [];
  if (report.playLeftOut)
    out.push({
      severity: 'warning',
      range: report.playLeftOut.range,
      code: 'play-not-analysed',
      message: playNotAnalysedMessage(report.playLeftOut.steps, report.model.endgame?.components.length ?? 0),
    });
  const minLoss = options.minLoss ?? 1;
  const claim = report.model.claimedValue;
  const start = report.positions[0];
  if (claim && start) {
    // without the value, what every value has (its parity, at most the boxes left) and the proven bounds
    const lower = Math.max(-start.remaining, start.lower ?? -Infinity),
      upper = Math.min(start.remaining, start.upper ?? Infinity);
    const ruledOut =
      start.value === null &&
      (claim.value < lower || claim.value > upper || Math.abs(claim.value - start.remaining) % 2 === 1);
    if (start.value !== null && start.exact && claim.value !== start.value) {
      out.push({
        severity: 'error',
        range: claim.range,
        code: 'wrong-value',
        message: wrongValueMessage(claim.value, start, report.players),
      });
    } else if (ruledOut) {
      out.push({
        severity: 'error',
        range: claim.range,
        code: 'wrong-value',
        message: wrongValueBoundsMessage(claim.value, start, lower, upper, report.players),
      });
    } else if (start.value === null && !start.pending) {
      out.push({
        severity: 'information',
        range: claim.range,
        code: 'value-unverified',
        message: valueUncheckedMessage(claim.value, start.note),
      });
    }
  }
  for (const m of report.lines.flatMap((l) => l.moves)) {
    // only what is proven: the exact loss, or a proven lower bound on it
    const proven = m.loss ?? m.lossAtLeast;
    if (proven !== null && proven >= minLoss) {
      out.push({
        severity: m.changesResult
          ? (options.resultChangeSeverity ?? 'warning')
          : (options.lossSeverity ?? 'information'),
        range: m.range,
        code: m.changesResult ? 'result-changing-mistake' : 'mistake',
        message: mistakeMessage(report.kind, m, report.players),
      });
    }
    const glyph = m.glyph && m.loss !== null ? glyphMessage(m.glyph, m.loss) : undefined;
    if (glyph) out.push({ severity: 'hint', range: m.range, code: 'glyph', message: glyph });
  }
  return out;
}
