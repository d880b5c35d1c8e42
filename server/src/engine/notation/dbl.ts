/**
 * Import of `.dbl` files (Dabble, KSquares): the first line is `W,H`, the board's size in boxes;
 * then one drawn line a row, `(x1, y1) - (x2, y2)`, dots counted from 0 at the top left (x to the
 * right, y down). Blank lines and lines starting with `#` are skipped.
 *
 * What comes out (docs/notation.md, section 12):
 *   - a `game` when the rows are a legal game: every row names a line of the board and no line
 *     comes twice. The rows are then the moves in order, the first player first, the side changing
 *     unless a move completed a box — which is how dab infers turns, so replaying the game gives
 *     the position the file ends in, with who is to move and the score;
 *   - a `position` (a `lines` field) when a line comes twice (a warning: the order cannot be a
 *     game), or when asked for one (then `tomove` and `score` come from the replay).
 * Every problem is a diagnostic with its exact range, as for `.dab`; with an error nothing is written.
 */
import { geometryOf, type BoardGeometry } from '../board/geometry';
import { MAX_DIAGNOSTICS, MAX_REPORTS_OF_A_KIND, MAX_DBL_ROWS, MAX_SIDE } from '../limits';
import { BoardState } from '../board/state';
import type { Diagnostic, Range } from './ast';
import {
  NOT_UTF8_BUT_UTF16,
  NUL_NOT_TEXT,
  byRange,
  charAt,
  charRange,
  clip,
  looksUtf16,
  range,
  tooManyProblems,
} from './text';

export interface DblLine {
  /** Line index on the board. */
  line: number;
  /** The row it was written on. */
  range: Range;
}

export interface DblImport {
  width: number | null;
  height: number | null;
  /** The drawn lines in file order (rows with errors left out). */
  lines: DblLine[];
  diagnostics: Diagnostic[];
  /** True when the rows, in order, are a legal game (see the header). */
  isGame: boolean;
}

/** Digits read in one number (bounded, so hostile numbers stay cheap). */
const MAX_DIGITS = 6;

/** Read a `.dbl` text. Never throws. */
export function readDbl(text: string): DblImport {
  const out: DblImport = { width: null, height: null, lines: [], diagnostics: [], isGame: false };
  // at most MAX_DIAGNOSTICS, as for a .dab file (an audit's 200,000 garbage rows printed 10,001 lines)
  const report = (severity: Diagnostic['severity'], r: Range, code: string, message: string) => {
    const n = out.diagnostics.length;
    if (n < MAX_DIAGNOSTICS) out.diagnostics.push({ severity, range: r, code, message });
    else if (n === MAX_DIAGNOSTICS)
      out.diagnostics.push({
        severity: 'information',
        range: r,
        code: 'too-many-diagnostics',
        message: tooManyProblems(n),
      });
  };
  if (looksUtf16(text.slice(0, 800))) {
    report('error', range(0, 0, 0, 1), 'bad-encoding', NOT_UTF8_BUT_UTF16);
    return out;
  }
  // NULs but no UTF-16 (a binary file): said as the .dab reader says it (found by a review)
  const nul = text.indexOf('\u0000');
  if (nul >= 0 && nul < 800) {
    const before = text.slice(0, nul).split(/\r\n|\r|\n/);
    const line = before.length - 1,
      ch = before[line].length;
    report('error', range(line, ch, line, ch + 1), 'bad-encoding', NUL_NOT_TEXT);
    return out;
  }
  const rows = text.split(/\r\n|\r|\n/);
  let i = 0;
  while (i < rows.length && isSkipped(rows[i])) i++;
  if (i >= rows.length) {
    report(
      'error',
      range(0, 0, 0, 0),
      'bad-size',
      'empty .dbl file: the first line is the board size in boxes, e.g. 5,5',
    );
    return out;
  }
  const size = readSize(rows[i], i, report);
  if (!size) return out;
  out.width = size[0];
  out.height = size[1];
  const g = geometryOf(size[0], size[1]);
  const firstRow = new Map<number, number>();
  let repeats = 0;
  /** Where the first repeat not given its own warning is. */
  let unlisted: Range | null = null;
  let rowsRead = 0;
  for (i++; i < rows.length; i++) {
    if (isSkipped(rows[i])) continue;
    if (++rowsRead > MAX_DBL_ROWS) {
      report(
        'error',
        range(i, 0, i, rows[i].length),
        'bad-move',
        `more than ${MAX_DBL_ROWS} lines: the rest is not read`,
      );
      break;
    }
    const l = readRow(rows[i], i, g, report);
    if (l === undefined) continue;
    const first = firstRow.get(l.line);
    if (first !== undefined) {
      if (++repeats === MAX_REPORTS_OF_A_KIND + 1) unlisted = l.range;
      if (repeats <= MAX_REPORTS_OF_A_KIND)
        report(
          'warning',
          l.range,
          'drawn-twice',
          `${g.lineName(l.line)} is already drawn on line ${first + 1}: the order cannot be a game, so the file is read as a position`,
        );
      continue;
    }
    firstRow.set(l.line, i);
    out.lines.push(l);
  }
  if (unlisted !== null) {
    report(
      'warning',
      unlisted,
      'drawn-twice',
      `${repeats - MAX_REPORTS_OF_A_KIND} more rows from here on draw a line already drawn (not listed one by one)`,
    );
  }
  out.isGame = repeats === 0 && !out.diagnostics.some((d) => d.severity === 'error');
  // in the order of the text (the summary of repeats is added last; found by an audit)
  out.diagnostics.sort(byRange);
  return out;
}

function isSkipped(row: string): boolean {
  const t = row.trim();
  return t === '' || t.startsWith('#');
}

type Report = (severity: Diagnostic['severity'], r: Range, code: string, message: string) => void;

/** `W,H` in boxes (spaces allowed around the numbers). */
function readSize(row: string, ln: number, report: Report): [number, number] | undefined {
  const m = /^(\s*)(\d+)\s*,\s*(\d+)\s*$/.exec(row);
  const start = row.length - row.trimStart().length;
  const whole = range(ln, start, ln, row.trimEnd().length);
  if (!m) {
    report(
      'error',
      whole,
      'bad-size',
      `'${clip(row.trim())}' is not a board size: the first line of a .dbl file is W,H in boxes, e.g. 5,5`,
    );
    return undefined;
  }
  const w = Number(m[2]),
    h = Number(m[3]);
  if (w < 1 || h < 1 || w > MAX_SIDE || h > MAX_SIDE) {
    report(
      'error',
      whole,
      'bad-size',
      `board size ${clip(m[2], 12)}x${clip(m[3], 12)} is out of range: each side must be 1 to ${MAX_SIDE} boxes`,
    );
    return undefined;
  }
  return [w, h];
}

/**
 * One row `(x1, y1) - (x2, y2)`, read with a cursor so an error points at the first character
 * that does not fit.
 */
function readRow(row: string, ln: number, g: BoardGeometry, report: Report): DblLine | undefined {
  let c = 0;
  const skip = () => {
    while (c < row.length && (row[c] === ' ' || row[c] === '\t')) c++;
  };
  const fail = (what: string): undefined => {
    const at = Math.min(c, row.length);
    // a number too long is quoted whole (cut), not by its first digit
    const digits = tooLong ? /^\d+/.exec(row.slice(at))?.[0] : undefined;
    const found = digits ? `'${clip(digits, 12)}'` : at < row.length ? `'${charAt(row, at)}'` : 'the end of the line';
    report(
      'error',
      at < row.length ? charRange(ln, row, at) : range(ln, at, ln, at),
      'bad-move',
      `expected ${what}, found ${found}: a .dbl line is written (x1, y1) - (x2, y2), dots counted from 0 at the top left`,
    );
    return undefined;
  };
  const expect = (ch: string): boolean => {
    skip();
    if (row[c] !== ch) return false;
    c++;
    return true;
  };
  /** Set by number() when it met more digits than it reads. */
  let tooLong = false;
  const number = (): number | undefined => {
    skip();
    const s = c;
    while (c < row.length && row[c] >= '0' && row[c] <= '9') c++;
    // leading zeros are no digits of the number (as in the size line: 007 is 7)
    let first = s;
    while (first < c - 1 && row[first] === '0') first++;
    if (c === s || c - first > MAX_DIGITS) {
      tooLong = c - first > MAX_DIGITS;
      if (tooLong) c = s;
      return undefined;
    }
    return Number(row.slice(first, c));
  };
  const what = (name: string) => (tooLong ? `${name} of at most ${MAX_DIGITS} digits` : name);
  const dot = (): { x: number; y: number; range: Range } | undefined => {
    skip();
    const s = c;
    if (!expect('(')) return fail("'('");
    const x = number();
    if (x === undefined) return fail(what('a column number'));
    if (!expect(',')) return fail("','");
    const y = number();
    if (y === undefined) return fail(what('a row number'));
    if (!expect(')')) return fail("')'");
    return { x, y, range: range(ln, s, ln, c) };
  };
  skip();
  const start = c;
  const a = dot();
  if (!a) return undefined;
  if (!expect('-')) return fail("'-' between the two dots");
  const b = dot();
  if (!b) return undefined;
  skip();
  if (c < row.length) return fail('the end of the line');
  const whole = range(ln, start, ln, c);
  for (const d of [a, b]) {
    if (d.x > g.width || d.y > g.height) {
      report(
        'error',
        d.range,
        'off-board',
        `dot (${d.x}, ${d.y}) is off the ${g.width}x${g.height} board: columns run 0 to ${g.width}, rows 0 to ${g.height} from the top`,
      );
      return undefined;
    }
  }
  // Rows count down from the top; dab counts up from the bottom.
  const line = g.lineBetween({ x: a.x, y: g.height - a.y }, { x: b.x, y: g.height - b.y });
  if (line === undefined) {
    report(
      'error',
      whole,
      'not-adjacent',
      `(${a.x}, ${a.y}) and (${b.x}, ${b.y}) are not neighbouring dots: a line joins two dots one step apart`,
    );
    return undefined;
  }
  return { line, range: whole };
}

export interface DabFromDbl {
  kind: 'game' | 'position';
  text: string;
}

/**
 * The `.dab` entry for an import without errors: a game when the order is one, else (or when
 * `asPosition`) a position; undefined when the import has errors.
 */
export function dblToDab(imp: DblImport, title: string, asPosition = false): DabFromDbl | undefined {
  if (imp.width === null || imp.height === null || imp.diagnostics.some((d) => d.severity === 'error'))
    return undefined;
  const g = geometryOf(imp.width, imp.height);
  const names = imp.lines.map((l) => g.lineName(l.line));
  const head = [`game ${quote(title)}`, `  size ${imp.width}x${imp.height}`];
  if (imp.isGame && !asPosition) {
    return { kind: 'game', text: [...head, ...wrap('  moves ', names)].join('\n') + '\n' };
  }
  head[0] = `position ${quote(title)}`;
  const body = names.length ? wrap('  lines ', names) : [];
  if (imp.isGame) {
    // The position the game ends in: who is to move and the score come from replaying it.
    const s = new BoardState(g);
    for (const l of imp.lines) s.play(l.line);
    body.push(`  tomove ${s.toMove === 0 ? 'first' : 'second'}`, `  score ${s.score[0]} ${s.score[1]}`);
  }
  return { kind: 'position', text: [...head, ...body].join('\n') + '\n' };
}

/**
 * A title as a .dab string: one line (control characters, line breaks included, become spaces),
 * without bidi embeddings, overrides or isolates (from a file name they could reorder the line for
 * whoever reads the entry; found by an audit), escaped.
 */
function quote(s: string): string {
  return `"${s
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f\u2028\u2029]/g, ' ')
    .replace(/[\u202a-\u202e\u2066-\u2069]/g, '')
    .replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

/** Moves or lines, ten a row, the first row after `lead`, the rest lined up under it. */
function wrap(lead: string, names: string[]): string[] {
  if (names.length === 0) return [lead.trimEnd()];
  const out: string[] = [];
  for (let k = 0; k < names.length; k += 10)
    out.push((k === 0 ? lead : ' '.repeat(lead.length)) + names.slice(k, k + 10).join(' '));
  return out;
}
