/**
 * The diagram reader: a board drawn in text, dot rows (`+---+   +`) alternating with box rows
 * (`|  A |   |`), top row first. The top dot row fixes the columns of the dots; every other row
 * must line up with it. Rows are counted from the top here and turned into board coordinates
 * (y from the bottom) at the end.
 */
import { MAX_SIDE } from '../limits';
import type { DiagramField, Range } from './ast';
import type { RawToken } from './tokens';
import {
  charAt,
  charRange,
  firstNonSpace,
  isBlankOrComment,
  isSpace,
  range,
  span,
  trimmedEnd,
  ODD_SPACE_CHARS,
  charClass,
  unicodeName,
  type Report,
} from './text';

export const DOT_CHARS = '+oO.*';

/**
 * Spaces a diagram row reads as spaces but names in an error (ODD_SPACE_CHARS: em, thin,
 * ideographic, zero-width…): a row's columns must be what they look like. A row pasted from a word processor or a web page often has them, and it then reads as no row at
 * all: the error names the character instead (found by an audit).
 */
const ODD_SPACE = new RegExp(charClass(ODD_SPACE_CHARS));
const ODD_SPACES = new RegExp(ODD_SPACE.source, 'g');

/** The first space of a line that a diagram does not take, with what to say about it, or null. */
export function oddSpaceIn(s: string): { at: number; message: string } | null {
  const m = ODD_SPACE.exec(s);
  if (!m) return null;
  // a zero-width one is invisible, yet a column to the reader: what it shifts is said (found by an audit)
  const shifts =
    m[0] === '\u200b' ? ' (it has no width, yet takes a column: what follows it stands a column further right)' : '';
  return { at: m.index, message: `a ${unicodeName(m[0])} space here${shifts}: diagram rows take plain spaces` };
}

/**
 * The lines as the diagram reads them: odd spaces as plain ones (one UTF-16 unit each, so every
 * column stays), made when first asked for; each row read says where its first odd space is.
 */
function plainRows(lines: string[]): (i: number) => string {
  const made = new Map<number, string>();
  return (i) => {
    let s = made.get(i);
    if (s === undefined) made.set(i, (s = ODD_SPACE.test(lines[i]) ? lines[i].replace(ODD_SPACES, ' ') : lines[i]));
    return s;
  };
}

/**
 * A line that looks like a dot row: starts with a dot and holds only dots, '-', spaces (and a
 * trailing # note). Text after the board part counts too (readDotRow then says "start a note with
 * #") when that part is a dot row for sure: two dots or more, never two side by side, ending with a
 * dot and a space; so `+---+  bottom` is a dot row with a stray note, and `... more` is no dot row.
 */
export function dotRowLike(s: string): boolean {
  const f = firstNonSpace(s);
  if (f < 0 || !DOT_CHARS.includes(s[f])) return false;
  let dots = 0;
  let adjacent = false;
  let last = -1; // the last dot or '-'
  for (let k = f; k < s.length; k++) {
    const c = s[k];
    if (c === '#') return true;
    const dot = DOT_CHARS.includes(c);
    if (dot || c === '-') {
      if (dot && last === k - 1 && DOT_CHARS.includes(s[last])) adjacent = true;
      if (dot) dots++;
      last = k;
    } else if (!isSpace(c)) return dots >= 2 && !adjacent && DOT_CHARS.includes(s[last]) && isSpace(s[k - 1]);
  }
  return true;
}

/** The end of a dot row's board part: past its last dot or '-' before any other text. */
function boardPartEnd(s: string): number {
  let end = 0;
  for (let k = Math.max(0, firstNonSpace(s)); k < s.length; k++) {
    const c = s[k];
    if (DOT_CHARS.includes(c) || c === '-') end = k + 1;
    else if (!isSpace(c)) break;
  }
  return end;
}

/** A line found in a row, by row from the top and column index. */
interface RowLine {
  row: number;
  k: number;
  range: Range;
}
interface RowCell extends RowLine {
  text: string;
}

export interface DiagramContext {
  lines: string[];
  report: Report;
  /** Marks a line as part of the current entry. */
  touch(ln: number, s: string): void;
}

/**
 * Read the diagram whose rows start at line `start`, below the `diagram` keyword at `kw`
 * (`after` holds what was written after the keyword on its line). Returns the field and the first
 * line after the diagram.
 */
export function readDiagram(
  cx: DiagramContext,
  start: number,
  keyword: string,
  kw: Range,
  after: RawToken[],
): { field: DiagramField; next: number } {
  for (const x of after)
    if (x.type !== 'comment')
      cx.report('error', x.range, 'bad-diagram', 'the diagram starts on the line below `diagram`');
  const row = plainRows(cx.lines);
  const n = cx.lines.length;
  const d: DiagramField = {
    keyword,
    keywordRange: kw,
    range: kw,
    rows: [],
    width: null,
    height: null,
    lines: [],
    cells: [],
    columns: [],
  };
  let j = start;
  while (j < n && isBlankOrComment(row(j))) j++;
  if (j >= n || !dotRowLike(row(j))) {
    cx.report(
      'error',
      kw,
      'bad-diagram',
      'a diagram needs its rows on the lines below `diagram`: dot rows like +---+---+ and box rows like |   |   |, top row first',
    );
    return { field: d, next: start };
  }
  // Top dot row fixes the columns.
  const top = row(j);
  const cols: number[] = [];
  // the columns are the top row's dots, up to a note written without '#' (dotRowLike)
  const topEnd = Math.min(contentEnd(top), boardPartEnd(top));
  for (let c = 0; c < topEnd; c++) if (DOT_CHARS.includes(top[c])) cols.push(c);
  d.columns = cols;
  const hl: RowLine[] = [];
  const vl: RowLine[] = [];
  const cells: RowCell[] = [];
  let dotRows = 0,
    boxRows = 0;
  const oddSpace = (ln: number): void => {
    const odd = oddSpaceIn(cx.lines[ln]);
    if (odd) cx.report('error', range(ln, odd.at, ln, odd.at + 1), 'bad-diagram', odd.message);
  };
  const dotRow = (ln: number): void => {
    const s = row(ln);
    oddSpace(ln);
    const e = contentEnd(s);
    d.rows.push({ kind: 'dot', index: dotRows, text: s, range: range(ln, Math.max(0, firstNonSpace(s)), ln, e) });
    readDotRow(cx.report, s, ln, e, cols, dotRows, hl);
    dotRows++;
    cx.touch(ln, s);
  };
  const boxRow = (ln: number): void => {
    const s = row(ln);
    oddSpace(ln);
    const f = firstNonSpace(s);
    const commented = f >= 0 && s[f] === '#' && f <= cols[0];
    const e = commented ? 0 : contentEndBox(s, cols[cols.length - 1]);
    d.rows.push({ kind: 'box', index: boxRows, text: s, range: range(ln, f < 0 ? 0 : Math.min(f, e), ln, e) });
    if (e > 0) readBoxRow(cx.report, s, ln, e, cols, boxRows, vl, cells);
    // a row commented out is an empty row: said when it holds lines, so none is dropped unseen (found by an audit)
    if (commented && cols.some((c) => c > f && s[c] === '|'))
      cx.report(
        'warning',
        range(ln, f, ln, trimmedEnd(s)),
        'bad-diagram',
        "this box row is a comment (it starts with '#'), so it reads as a row with no line drawn: the '|' after the '#' are not read",
      );
    boxRows++;
    cx.touch(ln, s);
  };
  dotRow(j);
  j++;
  if (cols.length < 2)
    cx.report('error', d.rows[0].range, 'bad-diagram', 'a dot row needs at least two dots, like +---+');
  while (j < n) {
    const s = row(j);
    if (dotRowLike(s)) {
      const f = firstNonSpace(s);
      cx.report(
        'error',
        range(j, f, j, contentEnd(s)),
        'bad-diagram',
        'two dot rows in a row: a box row (| for a drawn line, space for none, or a blank line) goes between them',
      );
      d.rows.push({ kind: 'box', index: boxRows, text: '', range: range(j, f, j, f) });
      boxRows++;
      dotRow(j);
      j++;
      continue;
    }
    if (j + 1 < n && dotRowLike(row(j + 1))) {
      boxRow(j);
      dotRow(j + 1);
      j += 2;
      continue;
    }
    const f = firstNonSpace(s);
    if (f >= 0 && s[f] === '|') {
      cx.touch(j, s);
      cx.report(
        'error',
        range(j, f, j, trimmedEnd(s)),
        'bad-diagram',
        'a diagram ends with a dot row: this box row has no dot row below it (or the dot row below has a misplaced character)',
      );
      j++;
    }
    break;
  }
  const H = dotRows - 1,
    W = cols.length - 1;
  const last = d.rows[d.rows.length - 1];
  d.range = span(kw, last.range);
  if (H < 1 && cols.length >= 2) {
    cx.report(
      'error',
      span(d.rows[0].range, last.range),
      'bad-diagram',
      'a diagram needs at least two dot rows (top and bottom)',
    );
  }
  if (H > MAX_SIDE || W > MAX_SIDE) {
    cx.report(
      'error',
      span(d.rows[0].range, last.range),
      'bad-size',
      `the diagram is ${W}x${H} boxes; boards run from 1x1 to ${MAX_SIDE}x${MAX_SIDE}`,
    );
    return { field: d, next: j };
  }
  if (H >= 1 && W >= 1) {
    d.width = W;
    d.height = H;
    for (const h of hl) d.lines.push({ horizontal: true, x: h.k, y: H - h.row, range: h.range });
    for (const v of vl) d.lines.push({ horizontal: false, x: v.k, y: H - 1 - v.row, range: v.range });
    for (const c of cells) d.cells.push({ x: c.k, y: H - 1 - c.row, text: c.text, range: c.range });
  }
  return { field: d, next: j };
}

/** A dot row: dots on the columns of the top row, '-' runs (drawn) or spaces (undrawn) between them. */
function readDotRow(
  report: Report,
  s: string,
  ln: number,
  e: number,
  cols: number[],
  row: number,
  out: RowLine[],
): void {
  const c0 = cols[0];
  for (let c = 0; c < Math.min(c0, e); c++) {
    if (!isSpace(s[c])) {
      report(
        'error',
        charRange(ln, s, c),
        'bad-diagram',
        `this dot is left of the board: dots must line up with the top row (first dot at column ${c0 + 1})`,
      );
      return;
    }
  }
  for (let k = 0; k < cols.length; k++) {
    const c = cols[k];
    if (c >= e) {
      report(
        'error',
        range(ln, Math.max(0, e - 1), ln, e),
        'bad-diagram',
        `this dot row is too short: the top row has ${cols.length} dots (last at column ${cols[cols.length - 1] + 1})`,
      );
      return;
    }
    if (!DOT_CHARS.includes(s[c])) {
      report(
        'error',
        charRange(ln, s, c),
        'bad-diagram',
        `expected a dot (+ o O . *) at column ${c + 1}, lined up with the top row`,
      );
    }
    if (k + 1 < cols.length) {
      const a = c + 1,
        b = cols[k + 1];
      let dashes = 0,
        spaces = 0,
        other = -1;
      for (let x = a; x < b && x < e; x++) {
        const ch = s[x];
        if (ch === '-') dashes++;
        else if (isSpace(ch)) spaces++;
        else if (other < 0) other = x;
      }
      spaces += Math.max(0, b - Math.max(a, e));
      if (other >= 0) {
        report(
          'error',
          range(ln, other, ln, other + 1),
          'bad-diagram',
          DOT_CHARS.includes(s[other])
            ? `this dot is not lined up with the dots of the top row (columns ${cols.map((x) => x + 1).join(', ')})`
            : `unexpected '${s[other]}' in a dot row: a line between two dots is '-' (drawn) or spaces (undrawn)`,
        );
      } else if (dashes > 0 && spaces > 0) {
        report(
          'error',
          range(ln, a, ln, Math.min(b, e)), // a row cut short: the line's end
          'bad-diagram',
          "a line between two dots must be all '-' (drawn) or all spaces (undrawn)",
        );
      } else if (dashes > 0) {
        out.push({ row, k, range: range(ln, a, ln, b) });
      }
    }
  }
  const lastCol = cols[cols.length - 1];
  for (let c = lastCol + 1; c < e; c++) {
    if (!isSpace(s[c])) {
      report(
        'error',
        range(ln, c, ln, e),
        'bad-diagram',
        DOT_CHARS.includes(s[c]) || s[c] === '-'
          ? 'this dot row is longer than the top row: dots must line up with the top row'
          : 'text right of the board: start a note with #',
      );
      return;
    }
  }
}

/** A box row: '|' (drawn) or a space (undrawn) on each dot column, box text between them. */
function readBoxRow(
  report: Report,
  s: string,
  ln: number,
  e: number,
  cols: number[],
  row: number,
  vl: RowLine[],
  cells: RowCell[],
): void {
  const c0 = cols[0];
  for (let c = 0; c < Math.min(c0, e); c++) {
    if (!isSpace(s[c])) {
      report(
        'error',
        charRange(ln, s, c),
        'bad-diagram',
        `'${charAt(s, c)}' is left of the board: box rows line up with the dot rows`,
      );
      break;
    }
  }
  for (let k = 0; k < cols.length; k++) {
    const c = cols[k];
    if (c >= e) break;
    const ch = s[c];
    if (ch === '|') vl.push({ row, k, range: range(ln, c, ln, c + 1) });
    else if (!isSpace(ch)) {
      report(
        'error',
        charRange(ln, s, c),
        'bad-diagram',
        `'${charAt(s, c)}' stands on a dot column: only '|' (a drawn line) or a space may stand there; box text goes between the columns`,
      );
    }
    if (k + 1 < cols.length) {
      const a = c + 1,
        b = Math.min(cols[k + 1], e);
      let first = -1,
        lastC = -1;
      for (let x = a; x < b; x++) {
        const d = s[x];
        if (d === '|') {
          report(
            'error',
            range(ln, x, ln, x + 1),
            'bad-diagram',
            `'|' must sit on a dot column (columns ${cols.map((y) => y + 1).join(', ')})`,
          );
        } else if (!isSpace(d)) {
          if (first < 0) first = x;
          lastC = x;
        }
      }
      if (first >= 0) {
        const text = s
          .slice(first, lastC + 1)
          .replace(/\|/g, ' ')
          .trim();
        if (text) cells.push({ row, k, text, range: range(ln, first, ln, lastC + 1) });
      }
    }
  }
  const lastCol = cols[cols.length - 1];
  for (let c = lastCol + 1; c < e; c++) {
    if (!isSpace(s[c])) {
      // from the start of the character: one that straddles the last column begins before it (found
      // by an audit: the range began on the second half of an emoji's surrogate pair)
      const low = s.charCodeAt(c) >= 0xdc00 && s.charCodeAt(c) <= 0xdfff && c > 0;
      report('error', range(ln, low ? c - 1 : c, ln, e), 'bad-diagram', 'text right of the board: start a note with #');
      break;
    }
  }
}

/** End of a dot row's content: before a # note, trailing spaces trimmed. */
function contentEnd(s: string): number {
  let e = s.indexOf('#');
  if (e < 0) e = s.length;
  while (e > 0 && isSpace(s[e - 1])) e--;
  return e;
}

/** End of a box row's content: a # right of the last dot column starts a note; trailing spaces trimmed. */
function contentEndBox(s: string, lastCol: number): number {
  let e = s.indexOf('#', lastCol + 1);
  if (e < 0) e = s.length;
  while (e > 0 && isSpace(s[e - 1])) e--;
  return e;
}
