/** Values and results in words, so no reader has to know the sign convention. */
import type { PositionReport } from '../analysis/report';
import { VALUE_UNKNOWN, boxes, metBounds, signed } from './grammar';

/**
 * Who wins the boxes still unclaimed, for a value for the player to move: "Alice wins the rest by 2",
 * "Bob wins the rest by 1", "the rest is shared evenly" (the one wording of a tied rest).
 */
export function restWinner(value: number, mover: string, other: string): string {
  if (value > 0) return `${mover} wins the rest by ${value}`;
  if (value < 0) return `${other} wins the rest by ${-value}`;
  return TIED_REST;
}

/** A tied rest, whoever names the sides (players or roles). */
const TIED_REST = 'the rest is shared evenly';

/** The same by role, for abstract endgames: "the controller wins by 1", "the opener wins by 2". */
export function roleWinner(controllerMargin: number): string {
  if (controllerMargin > 0) return `the controller wins by ${controllerMargin}`;
  if (controllerMargin < 0) return `the opener wins by ${-controllerMargin}`;
  return TIED_REST;
}

/** Final score predicted from the current score, the remaining boxes and the value for the player to move. */
export function predictedFinal(
  score: [number, number],
  remaining: number,
  value: number,
  toMove: 0 | 1,
): [number, number] {
  const mine = (remaining + value) / 2;
  const theirs = (remaining - value) / 2;
  const out: [number, number] = [score[0], score[1]];
  out[toMove] += mine;
  out[1 - toMove] += theirs;
  return out;
}

/** "a 4-4 tie", "Alice wins 5-4". */
export function resultInWords(final: [number, number], players: [string, string]): string {
  if (final[0] === final[1]) return `a ${final[0]}-${final[1]} tie`;
  const w = final[0] > final[1] ? 0 : 1;
  return `${players[w]} wins ${final[w]}-${final[1 - w]}`;
}

/**
 * "predicted final score 6-3, Bob wins 6-3"; with `unowned` boxes (complete at the start, no owner)
 * it says they are left out: "…, Bob wins 6-3 (not counting 2 boxes with no owner)".
 */
export function finalInWords(final: [number, number], players: [string, string], unowned = 0): string {
  const left = unowned > 0 ? ` (not counting ${boxes(unowned)} with no owner)` : '';
  return `predicted final score ${final[0]}-${final[1]}, ${resultInWords(final, players)}${left}`;
}

/** A game's margin for one player, as a result: "a 3-box win", "a 5-box loss", "a tie". */
export function outcome(margin: number, article = true): string {
  const a = article ? 'a ' : '';
  if (margin > 0) return `${a}${margin}-box win`;
  if (margin < 0) return `${a}${-margin}-box loss`;
  return `${a}tie`;
}

/** "Bob wins the rest by 2; predicted final score 6-3, Bob wins 6-3"; "value unknown" when it is. */
export function valuePhrase(p: PositionReport, players: [string, string]): string {
  if (p.value === null) return VALUE_UNKNOWN;
  const rest = restWinner(p.value, players[p.toMove], players[1 - p.toMove]);
  return `${rest}; ${finalInWords(predictedFinal(p.score, p.remaining, p.value, p.toMove), players, p.unowned)}`;
}

/** A known value, short: "value +2", "value 0". */
export function valueWords(value: number): string {
  return `value ${signed(value)}`;
}

/** "game over: 5-4". */
export function gameOver(score: [number, number], unowned = 0): string {
  const left = unowned > 0 ? ` (not counting ${boxes(unowned)} with no owner)` : '';
  return `game over: ${score[0]}-${score[1]}${left}`;
}

/**
 * A value not known (yet): "searching… (value between -3 and +5)", "value unknown (between -3 and
 * +5) — not solved within the search budget (…)". The bounds are proven; trivial ones are left out.
 */
export function unknownValue(p: Pick<PositionReport, 'pending' | 'lower' | 'upper' | 'note'>): string {
  const known = p.lower !== null && p.upper !== null && Number.isFinite(p.lower) && Number.isFinite(p.upper);
  // bounds that met while the search goes on (for the optimal moves): the value is proven
  const met = metBounds(p.lower, p.upper);
  if (met !== null) return `value ${signed(met)} proven${p.pending ? ' (its best moves still being searched)' : ''}`;
  const bounds = known ? `between ${signed(p.lower)} and ${signed(p.upper)}` : '';
  if (p.pending) return `searching…${bounds ? ` (value ${bounds})` : ''}`;
  return `value unknown${bounds ? ` (${bounds})` : ''}${p.note ? ` — ${p.note}` : ''}`;
}

/**
 * "value -1 · controlled +3", the short form of an inlay hint; "value: searching… (-3 to +5)",
 * "value: unknown (-3 to +5)" with the bounds proven so far when they say more than the box count.
 */
export function valueLabel(p: PositionReport): string {
  if (p.value === null) {
    const proven =
      p.lower !== null &&
      p.upper !== null &&
      Number.isFinite(p.lower) &&
      Number.isFinite(p.upper) &&
      (p.lower > -p.remaining || p.upper < p.remaining);
    const met = metBounds(p.lower, p.upper);
    if (proven && met !== null) return `value ${signed(met)}${p.pending ? ' · searching…' : ''}`;
    const bounds = proven ? ` (${signed(p.lower)} to ${signed(p.upper)})` : '';
    return `${p.pending ? 'value: searching…' : 'value: unknown'}${bounds}`;
  }
  return `value ${signed(p.value)}${p.controlledValue !== null ? ` · controlled ${signed(p.controlledValue)}` : ''}`;
}

/** What the value of an inlay hint means. */
export const VALUE_LABEL_TOOLTIP = 'For the player to move at the start of the entry, over the boxes still unclaimed.';

/**
 * The hint after a move (inlayHints.afterEachMove): "loses 3" (boxes thrown away against best
 * play), "loses ≥ 3" (only bounded), "v +2" (the value after the move, for the player to move
 * then), "v ?" (not known yet); with a tooltip that says which.
 */
export function moveHint(
  loss: number | null,
  lossAtLeast: number | null,
  valueAfter: number | null,
): { label: string; tooltip: string } {
  if (loss !== null && loss > 0) return { label: `loses ${loss}`, tooltip: `${MOVE_HINT_LOSS}.` };
  if (loss === null && lossAtLeast !== null && lossAtLeast > 0)
    return { label: `loses ≥ ${lossAtLeast}`, tooltip: `${MOVE_HINT_LOSS} (at least; not known exactly yet).` };
  if (valueAfter === null) return { label: 'v ?', tooltip: 'The value after this move is not known yet.' };
  return {
    label: `v ${signed(valueAfter)}`,
    tooltip: 'The value after this move: for the player to move then, over the boxes still unclaimed.',
  };
}

const MOVE_HINT_LOSS = 'Boxes this move throws away against best play';

/** The facts line under a value: "Value +2 for Alice · controlled value +4 · 9 boxes left · score 3-1". */
export function valueFacts(p: PositionReport, mover: string): string {
  return `Value ${signed(p.value)} for ${mover}${p.controlledValue !== null ? ` · controlled value ${signed(p.controlledValue)}` : ''} · ${boxes(p.remaining)} left · score ${p.score[0]}-${p.score[1]}`;
}

/** Why a position has no value yet (after "value unknown —"). */
export const NOTE_SEARCHING = 'search in progress';
export const NOTE_NEEDS_SEARCH = 'needs search: not a simple loony endgame';
/** A picture's position left unsearched: the picture's time went to the positions before it. */
export const NOTE_PICTURE_TIME_SPENT = 'not searched: the time for this picture was spent';
/** A Markdown block drawn after its document's preview time was spent (markdownBlocks.ts). */
export const NOTE_PREVIEW_TIME_SPENT =
  "not searched: the preview's search time for this document was spent (it is drawn again when the document changes)";
/** A Markdown block whose own search time was spent (its document's was not): it is not drawn again. */
export const NOTE_PREVIEW_BLOCK_TIME_SPENT =
  "not searched: the preview's search time for this block was spent (dab render and the board view search longer)";
