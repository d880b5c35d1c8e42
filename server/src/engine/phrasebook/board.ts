/**
 * The board picture in words: its caption, the summary screen readers hear, and the titles of its
 * parts (boxes, chains, lines, graph points). The value sentence itself is advice.ts's boardValueText.
 */
import { VALUE_UNKNOWN, afterMoveWords, boxes, metBounds } from './grammar';
import { clip, unicodeName } from '../notation/text';

/**
 * The most characters of a name or title a picture shows. Names are repeated in every box's, every
 * line's and every graph point's text: unbounded, a 2 MB file of two long names drew a 459 MB SVG
 * (and one of 1,000,000 '<' ran out of string length).
 */
export const SHOWN_TEXT_MAX = 80;

/** A file's name or title as a picture shows it: at most SHOWN_TEXT_MAX characters, cut with "…". */
export function shortText(s: string): string {
  if (s.length <= SHOWN_TEXT_MAX) return s;
  const chars = Array.from(s.slice(0, 4 * SHOWN_TEXT_MAX));
  return chars.length <= SHOWN_TEXT_MAX ? chars.join('') : chars.slice(0, SHOWN_TEXT_MAX - 1).join('') + '…';
}

/** Explicit bidi embeddings, overrides and isolates, which a name could leave open. */
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/g;
/** Right-to-left letters (Hebrew, Arabic and their presentation forms) and bidi controls. */
const BIDI = /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF\u200F\u202A-\u202E\u2066-\u2069]/;

/** Without explicit bidi controls (an invisible U+202E is no initial). */
export function withoutBidiControls(s: string): string {
  return s.replace(BIDI_CONTROLS, '');
}

/**
 * A name or title from a file, shown inside a sentence: right-to-left text is set apart with a
 * first-strong isolate (U+2068 … U+2069) and stripped of its own bidi controls, so that neither a
 * Hebrew name nor a planted U+202E can reorder the score or the words around it. Plain text is unchanged.
 */
export function isolateText(s: string): string {
  return BIDI.test(s) ? `\u2068${s.replace(BIDI_CONTROLS, '')}\u2069` : s;
}

/**
 * A name or title from a file inside a sentence the editor shows (hovers, lenses, diagnostics, the
 * outline): at most SHOWN_TEXT_MAX characters, right-to-left text isolated (isolateText). The CLI
 * prints names as they are written (its terminal output escapes controls instead).
 */
export function shownName(s: string): string {
  return isolateText(shortText(s));
}

/** dab.showPosition asked of a place with nothing to show (a closed document, a stale lens, no entry). */
export const SHOW_POSITION_NOTHING =
  'dab: no position to show there (the document is not open, the place holds no entry, or the lens is out of date: refresh it).';

/** When the cursor is on no entry. */
export const NO_ENTRY_UNDER_CURSOR = 'No entry under the cursor.';

/** The caption's first line: `game “Title”`, or the kind alone. */
export function captionTitle(kind: string, title: string): string {
  return title ? `${kind} “${title}”` : kind;
}

/** "Alice 1 – 1 Bob". */
export function scoreLine(players: [string, string], score: [number, number]): string {
  return `${players[0]} ${score[0]} – ${score[1]} ${players[1]}`;
}

/** "Bob to move". */
export function moverLine(mover: string): string {
  return `${mover} to move`;
}

/** The caption's second line: "Alice 1 – 1 Bob · Bob to move · move 11/14". */
export function captionScore(
  players: [string, string],
  score: [number, number],
  mover: string,
  ply: number,
  plyCount: number,
): string {
  const line = `${scoreLine(players, score)} · ${moverLine(mover)}`;
  return plyCount > 0 ? `${line} · move ${ply}/${plyCount}` : line;
}

/**
 * The whole view in one line, for screen readers: `game "Title"; 3x3 board; move 3 of 6; score Alice
 * 1, Bob 1; Bob to move; <value>`.
 */
export function viewSummary(v: {
  kind: string;
  title: string;
  width: number;
  height: number;
  ply: number;
  plyCount: number;
  players: [string, string];
  score: [number, number];
  mover: string;
  valueText: string;
}): string {
  const parts: string[] = [];
  parts.push(`${v.kind}${v.title ? ' "' + v.title + '"' : ''}`);
  if (v.width > 0 && v.height > 0) parts.push(`${v.width}x${v.height} board`);
  if (v.plyCount > 0) parts.push(`move ${v.ply} of ${v.plyCount}`);
  parts.push(`score ${v.players[0]} ${v.score[0]}, ${v.players[1]} ${v.score[1]}`);
  parts.push(moverLine(v.mover));
  if (v.valueText) parts.push(v.valueText);
  return parts.join('; ');
}

/** A Nimstring region's title: "nimber 2", "loony". */
export function regionTitle(nimber: number | 'loony'): string {
  return nimber === 'loony' ? 'loony' : `nimber ${nimber}`;
}

/** A completed box's title: "box b2: Alice" (owner null: unknown). */
export function boxTitle(dot: string, owner: string | null): string {
  return `box ${dot}: ${owner ?? 'unknown owner'}`;
}

/** A chain's or loop's title: "chain of 3 boxes". */
export function componentTitle(kind: string, size: number): string {
  return `${kind} of ${boxes(size)}`;
}

/** An abstract endgame with nothing left to draw. */
export const NO_COMPONENTS_LEFT = 'no components left';

/** Under an abstract endgame drawn in part: "… and 180 more components (1,234 boxes)". */
export function moreComponents(count: number, boxCount: number): string {
  // both counts grouped: a huge endgame's boxes run to 15 digits (found by an audit)
  return `… and ${count.toLocaleString('en-US')} more component${count === 1 ? '' : 's'} (${boxCount.toLocaleString('en-US')} ${boxCount === 1 ? 'box' : 'boxes'})`;
}

/** A drawn line's title: "a1-b1", "a1-b1 (last move)". */
export function drawnLineTitle(name: string, last: boolean): string {
  return last ? `${name} (last move)` : name;
}

/** A best move's title: "best: a1-b1". */
export function bestLineTitle(name: string): string {
  return `best: ${name}`;
}

/** A move of the principal variation: "best line, move 2: a1-b1". */
export function variationLineTitle(index: number, name: string): string {
  return `best line, move ${index + 1}: ${name}`;
}

/** The label of the group of playable lines. */
export const LINES_TO_PLAY = 'Lines to play';
/** The heat map legend's title. */
export const HEAT_LEGEND_TITLE = 'Lines to play, by boxes thrown away (net: a box that changes hands counts 2):';

/**
 * The value graph's label. It plots the final margin the first player is heading for (the score
 * so far plus the value of the boxes left), which the word "value" alone does not say (found by an
 * audit: a caption's value of −3 stood beside the graph's −2, the same position with the score).
 */
export function graphLabel(first: string): string {
  return `Final margin for ${first} after each move: the score so far plus the value of the boxes left (points: proven; band: proven bounds)`;
}

/** The value graph of an entry without moves. */
export const GRAPH_NO_MOVES = 'no moves';

/**
 * A graph point: "after move 2: Alice -1, mistake"; "after move 5: value unknown, Alice between −3
 * and +1"; "start: even". `bounds` are the proven bounds when the value is unknown.
 */
export function graphPointLabel(
  first: string,
  ply: number,
  valueForFirst: number | null,
  bounds: [number, number] | null,
  mistake: boolean,
): string {
  // The graph writes a true minus sign (U+2212) between bounds: it is read next to "+".
  const withSign = (v: number) => (v > 0 ? `+${v}` : v < 0 ? `−${-v}` : '0');
  let words: string;
  const exact = valueForFirst ?? (bounds ? metBounds(bounds[0], bounds[1]) : null);
  if (exact !== null) {
    const v = exact;
    words = v === 0 ? 'even' : v > 0 ? `${first} +${v}` : `${first} ${v}`;
  } else {
    words = bounds
      ? `${VALUE_UNKNOWN}, ${first} between ${withSign(bounds[0])} and ${withSign(bounds[1])}`
      : VALUE_UNKNOWN;
  }
  return `${ply === 0 ? 'start' : afterMoveWords(ply)}: ${words}${mistake ? ', mistake' : ''}`;
}

// ---------------------------------------------------------------------------------------------
// Playing a line from the board (the dab/playLine request's answers)

export const PLAY_NEEDS_BOARD_ENTRY = 'Place the cursor in a game or a position to play a line.';
export const PLAY_NO_BOARD = 'This entry has no board to play on (give it a size).';
export const PLAY_NO_PROVEN_REPLY = 'No proven best reply within the budget: the engine does not answer here.';
export const PLAY_DOCUMENT_CHANGED = 'The document changed since the board was drawn; try again.';
export const PLAY_DOCUMENT_NOT_OPEN = 'The document is not open.';
export const PLAY_INTO_OPEN_TEXT =
  'A comment or string of this entry is not closed: close it first (a move written now would be read as part of it).';
export const PLAY_INSIDE_BRACKET =
  'This move is inside a littlegolem bracket with moves after it: a variation cannot go there. Write the bracket out as moves (a1-b1 …) first.';

/** A ply the request names that the record does not have. */
export function playNoSuchPly(ply: unknown, last: number): string {
  return `There is no position ${String(ply).slice(0, 20)} in this record (0 to ${last}).`;
}

/** "z9-z8 is not a line of this 3x3 board." */
export function notALine(line: string, width: number, height: number): string {
  // the request's text, cut and isolated (found by an audit: a 1 MB `line` came back whole)
  return `${isolateText(clip(line))} is not a line of this ${width}x${height} board.`;
}

/** "a1-b1 is drawn already." */
export function drawnAlready(line: string): string {
  return `${line} is drawn already.`;
}

// ---------------------------------------------------------------------------------------------
// Pictures of one entry (`dab render`, ```dab blocks in Markdown)

export const NO_ENTRY_TO_DRAW = 'no entry (game, position or endgame) in this text';

export function noSuchEntry(entry: number, count: number): string {
  return `there is no entry ${entry} (the text has ${count} entr${count === 1 ? 'y' : 'ies'})`;
}

export function noSuchPly(ply: number, entry: number, last: number): string {
  return `there is no ply ${ply} in entry ${entry} (plies 0 to ${last})`;
}

/**
 * An entry past the work bound (readDab's maxWork) of a Markdown block, or of `dab render` (`cli`, the
 * bound of dab analyze); `alone`: the text holds no other entry (so a block of its own would not help).
 */
export function entryLeftOut(entry: number, maxWork: number, alone: boolean, by: 'block' | 'cli' = 'block'): string {
  const bound = `${maxWork.toLocaleString('en-US')} positions (a move is one, an endgame entry about 30 and one per component)`;
  if (by === 'cli')
    return `entry ${entry} is not drawn: dab reads at most ${bound} per file; ${alone ? 'write it as smaller entries' : 'split the file'}`;
  return `entry ${entry} is not drawn here: a block reads at most ${bound}; ${alone ? 'draw it with dab render' : 'give the entry a block of its own, or draw it with dab render'}`;
}

/** An entry with no board to draw, with the first error that explains why when there is one. */
export function nothingToDraw(entry: number, problem?: { line: number; message: string }): string {
  return problem
    ? `entry ${entry} has nothing to draw: line ${problem.line}: ${problem.message}`
    : `entry ${entry} has nothing to draw`;
}

/** A word of a ```dab fence that is not an option it knows. */
/** A dab block's option given twice: "ply is given twice (ply=1 ply=2): give it once". */
export function repeatedFenceOption(name: string, first: string, again: string): string {
  return `${name} is given twice (${first} ${isolateText(clip(again))}): give it once`;
}

/** Characters a reader cannot see in a message: format controls (bidi, zero-width) and other controls. */
const INVISIBLE_CHARS = /[\p{Cf}\p{Cc}]/gu;

export function badFenceOption(word: string): string {
  // cut, and its right-to-left overrides isolated (found by an audit: a U+202E reversed the message)
  const shown = isolateText(clip(word));
  // the controls isolateText takes out are named: a valid-looking option refused must say why (found by an audit)
  const hidden = [...new Set(word.match(INVISIBLE_CHARS) ?? [])].map(unicodeName);
  const why = hidden.length ? ` (it holds the invisible ${hidden.join(', ')})` : '';
  return `'${shown}'${why} is not an option of a dab block: write entry=N (from 1) and ply=K (from 0), e.g. \`\`\`dab entry=2 ply=14`;
}
