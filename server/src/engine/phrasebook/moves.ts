/** Moves and mistakes in words: diagnostics, the hover's verdict on a move, reviews, code actions. */
import type { EntryReport, LineReport, MoveReport, PositionReport, ReviewSummary } from '../analysis/report';
import { boxes, capitalized, listAll, metBounds, plural, signed } from './grammar';
import { outcome, restWinner, valuePhrase } from './values';
import { insteadWords, resultChangeWords } from './proofs';

/** Diagnostic: a claimed `value` that the analysis proves wrong. */
export function wrongValueMessage(claimed: number, start: PositionReport, players: [string, string]): string {
  return `value ${claimed} is wrong: the value is ${start.value} for ${players[start.toMove]} to move (${valuePhrase(start, players)})`;
}

/**
 * Diagnostic: a claimed `value` that the value's parity or its proven bounds rule out, the value itself
 * unknown: "value 20 is wrong: 16 boxes are left, so the value for Alice to move is between -16 and +16".
 */
export function wrongValueBoundsMessage(
  claimed: number,
  start: PositionReport,
  lower: number,
  upper: number,
  players: [string, string],
): string {
  const who = `for ${players[start.toMove]} to move`;
  const left = `${boxes(start.remaining)} ${start.remaining === 1 ? 'is' : 'are'} left`;
  if (Math.abs(claimed - start.remaining) % 2 === 1)
    return `value ${claimed} is wrong: ${left}, so the value ${who} is ${start.remaining % 2 === 0 ? 'even' : 'odd'}`;
  // bounds that met are the value (found by an audit: "between -3 and -3")
  const met = metBounds(lower, upper);
  if (met !== null) return `value ${claimed} is wrong: ${left}, and the value ${who} is proven to be ${signed(met)}`;
  const proven = lower > -start.remaining || upper < start.remaining ? 'is proven to be' : 'is';
  return `value ${claimed} is wrong: ${left}, and the value ${who} ${proven} between ${signed(lower)} and ${signed(upper)}`;
}

/** Diagnostic: a claimed `value` that could not be checked. */
export function valueUncheckedMessage(claimed: number, note: string | undefined): string {
  return `value ${claimed} could not be checked: ${note ?? 'the value is unknown'}`;
}

/**
 * Diagnostic: a move that throws boxes away. "a1-b1 gives away 8 boxes and turns Bob's 3-box win into
 * a 5-box loss. Best: a3-a4."; with proven bounds only "a1-b1 gives away at least 2 boxes and turns
 * Bob's win into a loss."; in abstract endgames "Keeping control gives away 2 boxes."
 */
export function mistakeMessage(kind: EntryReport['kind'], m: MoveReport, players: [string, string]): string {
  const name = players[m.player];
  const consequence =
    m.changesResult && m.marginBefore !== null && m.marginAfter !== null
      ? ` and turns ${name}'s ${outcome(m.marginBefore, false)} into ${outcome(m.marginAfter)}`
      : m.changesResult && m.resultBefore !== null && m.resultAfter !== null
        ? ` and ${resultChangeWords(name, m.resultBefore, m.resultAfter)}`
        : '';
  const instead = insteadWords(m);
  const best = instead ? ` ${capitalized(instead)}.` : '';
  const what =
    kind === 'endgame' && (m.move === 'keep' || m.move === 'all')
      ? m.move === 'keep'
        ? 'Keeping control'
        : 'Taking all'
      : m.move;
  // the exact loss, or (value unknown) the least loss the proven bounds guarantee
  const lost = m.loss !== null ? boxes(m.loss) : `at least ${boxes(m.lossAtLeast ?? 0)}`;
  return `${what} gives away ${lost}${consequence}.${best}`;
}

/** Diagnostic: the analysis of a file failed (a bug); the user is told instead of left without an answer. */
export function internalErrorMessage(error: string): string {
  return `dab could not analyse this file (internal error: ${error}); please report it with the file`;
}

/** Diagnostic (hint): a glyph that the analysis contradicts, or undefined when it agrees. */
export function glyphMessage(glyph: string, loss: number): string | undefined {
  if ((glyph === '!' || glyph === '!!') && loss > 0) return `marked ${glyph} but it gives away ${boxes(loss)}`;
  if ((glyph === '?' || glyph === '??') && loss === 0) return `marked ${glyph} but it is an optimal move`;
  return undefined;
}

const STILL = { win: 'wins', tie: 'ties', loss: 'loses' } as const;

/**
 * The verdict on a move: "an optimal move", "gives away 3 boxes and changes the result", "keeps the
 * result (Bob still wins); …", "not valued yet (…)".
 */
export function moveVerdict(m: MoveReport, players: [string, string]): string {
  if (m.loss === null) {
    if (m.lossAtLeast)
      return `gives away at least ${boxes(m.lossAtLeast)}${m.changesResult ? ' and changes the result' : ''}`;
    if (m.lossAtMost === 0) return 'an optimal move';
    // the results on both sides proven and the same: no result-changing mistake, whatever the margin
    if (m.resultBefore !== null && m.resultBefore === m.resultAfter)
      return `keeps the result (${players[m.player]} still ${STILL[m.resultBefore]}); the boxes it gives away are not valued yet`;
    return 'not valued yet (not searched, or not proven within the budget)';
  }
  if (m.loss === 0) return 'an optimal move';
  return `gives away ${boxes(m.loss)}${m.changesResult ? ' and changes the result' : ''}`;
}

/** "completes 2 boxes". */
export function completesWords(n: number): string {
  return `completes ${boxes(n)}`;
}

/**
 * The review of a record in one line: "Alice's errors add up to 3 boxes, Bob's to 0 boxes; 1 result-changing
 * error; 2 moves not valued yet" (the lens, the hover and the CLI say it the same way). Each move's loss is
 * counted against best play from its own position, so the sum can exceed the boxes on the board: the
 * words say it is a sum.
 */
export function reviewSummary(e: EntryReport): string {
  const s = e.summary;
  const unknown = s.unknownMoves
    ? `; ${plural(s.unknownMoves, 'move')} ${e.pending ? 'still being searched' : 'not valued yet'}`
    : '';
  return `${e.players[0]}'s errors add up to ${lostBoxes(s, 0)}, ${e.players[1]}'s to ${lostBoxes(s, 1)}; ${plural(s.resultChanging, 'result-changing error')}${unknown}`;
}

/** "3 boxes", or "at least 8 boxes" when a loss in the total is only bounded ("0 boxes so far" when none is proven yet). */
function lostBoxes(s: ReviewSummary, player: 0 | 1): string {
  if (!s.lostAtLeast[player]) return boxes(s.lost[player]);
  return s.lost[player] === 0 ? `${boxes(0)} so far` : `at least ${boxes(s.lost[player])}`;
}

/** CLI `--max-loss`: "a1-b1 gives away 5 boxes, more than --max-loss 3" ("at least 5 boxes": a proven bound). */
export function maxLossMessage(move: string, loss: number, maxLoss: number, atLeast = false): string {
  return `${move} gives away ${atLeast ? 'at least ' : ''}${boxes(loss)}, more than --max-loss ${maxLoss}`;
}

/**
 * What playing a line means, for the board's hover and screen readers. `value` is the mover's value
 * after the line (boxes it completes plus the rest), `loss` the boxes it throws away against best play.
 *   "c1-c2: a best move — Alice wins the rest by 2"
 *   "c1-c2: throws away 3 boxes — Bob wins the rest by 1"
 *   "c1-c2: value not known yet"
 */
export function lineInWords(
  name: string,
  value: number | null,
  loss: number | null,
  mover: string,
  other: string,
): string {
  if (value === null) return `${name}: value not known yet`;
  const rest = restWinner(value, mover, other);
  if (loss === null) return `${name}: ${rest}`;
  return `${name}: ${loss === 0 ? 'a best move' : `throws away ${boxes(loss)}`} — ${rest}`;
}

/** The quick fix's title: "Insert the best continuation as a variation: (a3-a4 b1-b2 c1-c2 d1-d2 …)". */
export function betterLineTitle(line: string[]): string {
  return `Insert the best continuation as a variation: (${line.slice(0, 4).join(' ')}${line.length > 4 ? ' …' : ''})`;
}

/**
 * A variation's review in one line (hover, outline, CLI): "instead of move 15: Alice gives away 0
 * boxes, Bob 6 boxes" — or "instead of move 15: no boxes thrown away".
 */
export function variationSummary(v: LineReport & { replaces: number }, players: [string, string]): string {
  const s = v.summary;
  const unknown = s.unknownMoves ? `; ${plural(s.unknownMoves, 'move')} not valued yet` : '';
  const lost =
    v.moves.length === 0
      ? 'no legal move (nothing to review)'
      : s.lost[0] + s.lost[1] === 0 && !s.unknownMoves
        ? 'no boxes thrown away'
        : `${players[0]} gives away ${lostBoxes(s, 0)}, ${players[1]} ${lostBoxes(s, 1)}${unknown}`;
  return `instead of move ${v.replaces}: ${lost}`;
}

/** "Best: a1-b1, c2-c3 (and 3 more)" — every optimal move, `format` marking each (e.g. as code). */
export function bestMovesLine(best: string[], max: number, format: (move: string) => string = (m) => m): string {
  return `Best: ${listAll(best.map(format), max)}`;
}

/** The heading of the hover's list of every legal move grouped by value. */
export const MOVES_BY_VALUE = 'Every move, by its value for the player to move:';

/** A group of that list: its value, "+2", or "unknown" for moves not valued. */
export function moveValueGroupLabel(value: number | null): string {
  return value === null ? 'unknown' : signed(value);
}

/** The optimal moves after a verdict or a value: "best: a1-b1 or c2-c3" (`moves`: listed already). */
export function bestList(moves: string): string {
  return `best: ${moves}`;
}

/** The hover of a move in a variation: "In a variation instead of move 3: …." (`summary`: variationSummary). */
export function inVariation(summary: string): string {
  return `In a variation ${summary}.`;
}

/** The annotator's comment on a move, as written in the file (`{…}` or SGF's `C[…]`); Markdown, already escaped. */
export function moveCommentLine(comment: string): string {
  return `*Comment:* ${comment}`;
}

/** The heading of the position a move leaves: "After a1-b1:". */
export function afterMoveHeading(move: string): string {
  return `After ${move}:`;
}

/** The hover's review of an entry: "Review: …." (`summary`: reviewSummary). */
export function reviewLine(summary: string): string {
  return `Review: ${summary}.`;
}

/** An endgame's play steps past MAX_ENDGAME_PLAY_WORK, at the first of them. */
export function playNotAnalysedMessage(steps: number, components: number): string {
  return `${plural(steps, 'step')} of play from here ${steps === 1 ? 'is' : 'are'} not analysed: with ${components.toLocaleString('en-US')} components, dab values the play of this endgame for its first steps only.`;
}

/**
 * The bound on one document's analysis (readDab's ReadOptions.maxWork), at the first entry it leaves
 * out: the editor's, or the command line's. `alone`: that entry's own work is over the bound, so
 * splitting the file cannot help (found by an audit: a 200,000-component endgame was told to split it).
 */
export function notAnalysedHereMessage(
  entries: number,
  maxWork: number,
  by: 'editor' | 'cli',
  alone: boolean,
  /** Entries past the bound's count of entries follow, not even read (DabDocument.unreadFrom). */
  unread = false,
): string {
  const which = unread
    ? 'This entry and every entry after it are'
    : entries === 1
      ? 'This entry is'
      : `This entry and the ${plural(entries - 1, 'entry', 'entries')} after it are`;
  const where = by === 'editor' ? 'in the editor: it analyses' : 'by dab: it reads';
  const bound = `${where} at most ${maxWork.toLocaleString('en-US')} positions per file (a move is one, an endgame entry about 30 and one per component)`;
  const advice =
    by === 'editor'
      ? alone
        ? 'This entry alone is larger: run dab analyze on it.'
        : 'Split the file, or run dab analyze on it.'
      : alone
        ? 'This entry alone is larger than that: write it as smaller entries.'
        : 'Split the file.';
  return `${which} not analysed ${bound}. ${advice}`;
}
