/**
 * Board entries (game, position): every position of the main line and of each variation valued, by
 * the closed forms or the search (pending or unknown beyond it), the bounds the moves played carry
 * from one position to the next, and every move reviewed against best play.
 */
import type { BoardGeometry } from '../board/geometry';
import type { BoardState } from '../board/state';
import type { EntryModel, LineModel } from '../notation';
import { MOVES_NOT_FOUND, NOTE_NEEDS_SEARCH, NOTE_SEARCHING } from '../phrasebook';
import { nothingProven, type Evaluation } from './evaluation';
import { quickEvaluate, type LoonyAnalysis } from './evaluatePosition';
import { pushMove } from './moveReview';
import { chainFightAlongLine } from './nim';
import { estimateStanding, playedMoveFloor, provenOptimalMoves } from './prove';
import {
  emptyReport,
  emptySummary,
  type AnalysisOptions,
  type EntryReport,
  type LineReport,
  type MoveReport,
  type PositionReport,
  type SearchLookup,
  type VariationReport,
} from './report';

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

export function analyzeBoardEntry(model: EntryModel, index: number, options: AnalysisOptions): EntryReport {
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
  chainFightAlongLine(
    out.positions.map((p) => p.nim),
    line.plies.map((mv) => mv.completed.length > 0),
  ).forEach((n, k) => (out.positions[k].nim = n));
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
      (changesResult) => provenInsteadOf(before, mv.name!, achieved, changesResult),
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
        summary: emptySummary(),
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
