/**
 * One move's review, the same for board lines and abstract endgames: what it throws away, the
 * results it goes between, and what it adds to its line's summary. Only what is proven: a result
 * changes when the proven results before and after differ, whatever is unknown of the margins.
 */
import { flipResult, resultOf, type GameResult } from './prove';
import type { LineReport, MoveReport, PositionReport } from './report';

/** Predicted final margin (whole game) for `player` from a position, or null when its value is unknown. */
export function finalMargin(p: PositionReport, player: 0 | 1): number | null {
  if (p.value === null) return null;
  const rest = p.toMove === player ? p.value : -p.value;
  return p.score[player] - p.score[1 - player] + rest;
}

/** The result for `player` (with the score) that the position's proven bounds decide, or null. */
export function resultFor(p: PositionReport, player: 0 | 1): GameResult | null {
  if (p.lower === null || p.upper === null) return null;
  const lead = p.score[player] - p.score[1 - player];
  if (p.toMove === player) return resultOf(p.lower, p.upper, lead);
  return flipResult(resultOf(p.lower, p.upper, -lead));
}

/**
 * Review one move from the positions before and after it into the line's report: the boxes it throws
 * away (exact or proven bounds), the margins and results before and after, whether it is proven to
 * change the result, and the line's summary.
 */
export function pushMove(
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
  /** Board lines: the moves proven better than the one played (MoveReport.provenInstead), given whether it changes the result. */
  instead?: (changesResult: boolean) => Pick<MoveReport, 'provenInstead'>,
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
    ...(instead ? instead(changesResult) : {}),
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
