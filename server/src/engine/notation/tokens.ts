/**
 * The lexer: splits a line of a field into words, quoted strings, brace comments and punctuation.
 * A brace comment may run over several lines, but never past the next entry header, so one
 * missing '}' cannot swallow the rest of the file. Linear time: no backtracking regex per line.
 */
import type { Range } from './ast';
import { SPACE_CHARS, SPACE_CLASS, collapse, isSpace, range, trimmedEnd, type Report } from './text';
import { FIELD_NAMES, isTurnLetter } from './names';

export interface RawToken {
  type: 'word' | 'string' | 'comment' | 'punct' | 'property';
  /**
   * Raw text (for strings: without the quotes, unescaped; for comments: inner text, whitespace
   * collapsed; for properties: the property's name).
   */
  text: string;
  /** A property's value: SGF escapes resolved, lines joined by a space, whitespace collapsed. */
  value?: string;
  /** A further value of an SGF list property (`AB[x][y]`: the `[y]`). */
  more?: true;
  range: Range;
  unterminated?: boolean;
}

/** Where the tokens of one field go, with a brace comment or a property value still open at the end of a line. */
export interface Sink {
  tokens: RawToken[];
  brace: { line: number; character: number; parts: string[] } | null;
  /**
   * Whether SGF properties are read here (the moves field): a name of letters glued to '[', other
   * than a turn's b, r, B or W, whose value runs to the first unescaped ']', over lines if need be.
   */
  sgf: boolean;
  /** `soft`: the last line ended with an escaping backslash (SGF's soft line break: the lines join without a space). */
  prop: { line: number; character: number; name: string; parts: string[]; soft: boolean; more?: true } | null;
}

export function newSink(sgf = false): Sink {
  return { tokens: [], brace: null, sgf, prop: null };
}

/**
 * The end of an SGF property value on `text` from `c`: the index of the first ']' not escaped by a
 * backslash, or -1. (SGF: a backslash escapes the character after it; one at the end of a line
 * joins the lines.)
 */
function propertyEnd(text: string, c: number): number {
  for (let k = c; k < text.length; k++) {
    const ch = text[k];
    if (ch === '\\') k++;
    else if (ch === ']') return k;
  }
  return -1;
}

/**
 * An SGF value from its lines: joined by a space, escapes resolved (a backslash and the character
 * after it stand for that character), whitespace collapsed.
 */
function propertyValue(parts: string[]): string {
  return collapse(parts.join(' ').replace(/\\(.?)/g, '$1'));
}

/**
 * The quote pairs a string may be written with: ASCII "…" and the typographic pairs that editors and
 * word processors type instead (“…”, ‘…’, «…», „…“ and „…”). A string opened with one mark ends at a
 * closing mark of its own pair only.
 */
export const QUOTE_CLOSERS: Readonly<Record<string, string>> = {
  '"': '"',
  '\u201c': '\u201d',
  '\u2018': '\u2019',
  '\u00ab': '\u00bb',
  '\u201e': '\u201c\u201d',
};

/** Whether `c` opens a string. */
export function isQuote(c: string | undefined): boolean {
  return c !== undefined && Object.prototype.hasOwnProperty.call(QUOTE_CLOSERS, c);
}

/** Said once a line, at the first zero-width space between words. */
const ZERO_WIDTH_SPACE =
  'a zero-width space (U+200B) here: it separates words as a space does, but cannot be seen; delete it or type a space';
const WORD_STOP_CHARS = SPACE_CHARS + ',#"{}[];()';
const WORD_STOP = new Uint8Array(65536);
for (const ch of WORD_STOP_CHARS) WORD_STOP[ch.charCodeAt(0)] = 1;

/**
 * What follows the keyword on a header line: nothing but an optional ':', a quoted title (any pair of
 * QUOTE_CLOSERS) and a comment. Spaces as isSpace (text.ts) has them, so a header the parser sees
 * also ends an open comment.
 */
const S = SPACE_CLASS;
const HEADER_REST = new RegExp(
  String.raw`${S}*(?::${S}*)?(?:(?:"(?:[^"\\]|\\.)*"|\u201c(?:[^\u201d\\]|\\.)*\u201d|\u2018(?:[^\u2019\\]|\\.)*\u2019|\u00ab(?:[^\u00bb\\]|\\.)*\u00bb|\u201e(?:[^\u201c\u201d\\]|\\.)*[\u201c\u201d])${S}*)?(?:#.*)?$`,
);
/** A header line (used to stop multi-line comments). */
const STRICT_HEADER = new RegExp(String.raw`^${S}*(?:game|position|endgame)` + HEADER_REST.source, 'i');
const AFTER_KEYWORD = new RegExp('^' + HEADER_REST.source);
/**
 * A line an SGF property value never runs into: a field line (`value 0`, `tomove: B`) or a tag line
 * (`[Event "x"]`). SGF records are full of ']' (every turn, every tag), so a forgotten ']' would
 * otherwise swallow the fields after it without a word (found by a review); a comment line that
 * starts with a field name ends the value early, which is said loudly (unterminated).
 */
const PROPERTY_STOP = new RegExp(String.raw`^${S}*(?:(?:${FIELD_NAMES.join('|')})(?=${S}|:|$)|\[)`, 'i');

/** Whether `rest`, the text after a word at the start of a line, is what a header line has after its keyword. */
export function isHeaderRest(rest: string): boolean {
  return AFTER_KEYWORD.test(rest);
}

export class Lexer {
  /** For each line: the next line strictly after it holding a '}' (n when none). */
  private readonly nextClose: Int32Array;
  /** For each line: the next line strictly after it that is an entry header (n when none). */
  private readonly nextStrictHeader: Int32Array;
  /** For each line: the next line strictly after it holding a ']' (n when none). */
  private readonly nextBracket: Int32Array;
  /** For each line: the next line strictly after it that no property value runs into (a header, field or tag line; n when none). */
  private readonly nextPropertyStop: Int32Array;

  constructor(
    private readonly lines: string[],
    private readonly report: Report,
  ) {
    const n = lines.length;
    this.nextClose = new Int32Array(n);
    this.nextStrictHeader = new Int32Array(n);
    this.nextBracket = new Int32Array(n);
    this.nextPropertyStop = new Int32Array(n);
    let close = n,
      header = n,
      bracket = n,
      stop = n;
    for (let i = n - 1; i >= 0; i--) {
      this.nextClose[i] = close;
      this.nextStrictHeader[i] = header;
      this.nextBracket[i] = bracket;
      this.nextPropertyStop[i] = stop;
      const l = lines[i];
      if (l.indexOf('}') >= 0) close = i;
      if (l.indexOf(']') >= 0) bracket = i;
      if (PROPERTY_STOP.test(l)) stop = i; // linear: anchored, no backtracking
      if (STRICT_HEADER.test(l)) header = i; // linear: the pattern cannot backtrack
    }
  }

  /**
   * Tokenize `text` of line `ln` from `from`; returns true when a brace comment or a property value
   * stays open into the next line.
   */
  lex(text: string, ln: number, from: number, sink: Sink): boolean {
    let c = from;
    let zeroWidthSaid = false;
    const n = text.length;
    while (c < n) {
      if (sink.prop) {
        const p = sink.prop;
        const close = propertyEnd(text, c);
        let piece = text.slice(c, close < 0 ? n : close);
        let slashes = 0;
        while (slashes < piece.length && piece[piece.length - 1 - slashes] === '\\') slashes++;
        const soft = close < 0 && slashes % 2 === 1;
        if (soft) piece = piece.slice(0, -1);
        if (p.soft && p.parts.length) p.parts[p.parts.length - 1] += piece;
        else p.parts.push(piece);
        p.soft = soft;
        if (close < 0) {
          c = n;
          break;
        }
        sink.tokens.push({
          type: 'property',
          text: p.name,
          value: propertyValue(p.parts),
          range: range(p.line, p.character, ln, close + 1),
          ...(p.more ? { more: true as const } : {}),
        });
        // an SGF list value `AB[x][y]`: each further bracket is another value of the same property
        sink.prop =
          text[close + 1] === '['
            ? { line: ln, character: close + 1, name: p.name, parts: [], soft: false, more: true }
            : null;
        c = sink.prop ? close + 2 : close + 1;
        continue;
      }
      if (sink.brace) {
        const close = text.indexOf('}', c);
        if (close < 0) {
          sink.brace.parts.push(text.slice(c));
          c = n;
          break;
        }
        sink.brace.parts.push(text.slice(c, close));
        sink.tokens.push({
          type: 'comment',
          text: collapse(sink.brace.parts.join(' ')),
          range: range(sink.brace.line, sink.brace.character, ln, close + 1),
        });
        sink.brace = null;
        c = close + 1;
        continue;
      }
      const ch = text[c];
      if (isSpace(ch) || ch === ',') {
        // a zero-width space separates words too, but cannot be seen: `a1-b1<ZWSP>b1-c1` looks like one word
        if (ch === '\u200b' && !zeroWidthSaid) {
          zeroWidthSaid = true;
          this.report('warning', range(ln, c, ln, c + 1), 'syntax', ZERO_WIDTH_SPACE);
        }
        c++;
        continue;
      }
      if (ch === '#') break;
      if (isQuote(ch)) {
        c = this.string(text, ln, c, sink);
        continue;
      }
      if (ch === '{') {
        sink.brace = { line: ln, character: c, parts: [] };
        c++;
        continue;
      }
      if (ch === '}') {
        this.report('error', range(ln, c, ln, c + 1), 'syntax', "unmatched '}': a comment starts with '{'");
        c++;
        continue;
      }
      if (ch === '[' || ch === ']' || ch === ';' || ch === '(' || ch === ')') {
        sink.tokens.push({ type: 'punct', text: ch, range: range(ln, c, ln, c + 1) });
        c++;
        continue;
      }
      let k = c + 1;
      while (k < n && WORD_STOP[text.charCodeAt(k)] === 0) k++;
      const word = text.slice(c, k);
      if (sink.sgf && text[k] === '[' && /^[A-Za-z]+$/.test(word) && !isTurnLetter(word)) {
        sink.prop = { line: ln, character: c, name: word, parts: [], soft: false };
        c = k + 1;
        continue;
      }
      sink.tokens.push({ type: 'word', text: word, range: range(ln, c, ln, k) });
      c = k;
    }
    if (sink.prop) {
      const p = sink.prop;
      // Carry the value on when a ']' comes on a later line before the next header, as SGF allows.
      const stop = Math.min(this.nextStrictHeader[ln], this.nextPropertyStop[ln], this.lines.length);
      if (this.nextBracket[ln] < stop) return true;
      sink.tokens.push({
        type: 'property',
        text: p.name,
        value: propertyValue(p.parts),
        range: range(
          p.line,
          p.character,
          ln,
          ln === p.line ? Math.max(trimmedEnd(text), p.character + 1) : text.length,
        ),
        unterminated: true,
      });
      sink.prop = null;
    }
    if (sink.brace) {
      const b = sink.brace;
      // Carry the comment on when it closes on a later line before the next header.
      if (this.nextClose[ln] < this.nextStrictHeader[ln] && this.nextClose[ln] < this.lines.length) return true;
      const e = Math.max(trimmedEnd(text), b.character + 1);
      const r = range(b.line, b.character, ln, ln === b.line ? e : text.length);
      this.report(
        'error',
        r,
        'unterminated-comment',
        "unterminated comment: add the closing '}' (a comment may span lines but ends before the next entry header)",
      );
      sink.tokens.push({ type: 'comment', text: collapse(b.parts.join(' ')), range: r, unterminated: true });
      sink.brace = null;
    }
    return false;
  }

  /** Tokenize one line that never carries a brace comment onto the next (header and tag lines). */
  lexLine(text: string, ln: number, from: number, sink: Sink): void {
    const saveClose = this.nextClose[ln];
    this.nextClose[ln] = this.lines.length;
    this.lex(text, ln, from, sink);
    this.nextClose[ln] = saveClose;
  }

  /** A quoted string from the opening quote at `c` (any pair of QUOTE_CLOSERS); returns where lexing goes on. */
  private string(text: string, ln: number, c: number, sink: Sink): number {
    const n = text.length;
    const closers = QUOTE_CLOSERS[text[c]];
    let k = c + 1,
      val = '';
    let closed = false;
    while (k < n) {
      const d = text[k];
      if (d === '\\' && k + 1 < n && (text[k + 1] === '"' || text[k + 1] === '\\' || closers.includes(text[k + 1]))) {
        val += text[k + 1];
        k += 2;
        continue;
      }
      if (closers.includes(d)) {
        closed = true;
        break;
      }
      val += d;
      k++;
    }
    if (closed) {
      sink.tokens.push({ type: 'string', text: val, range: range(ln, c, ln, k + 1) });
      return k + 1;
    }
    const e = trimmedEnd(text);
    const r = range(ln, c, ln, Math.max(e, c + 1));
    const want = closers[closers.length - 1];
    // a closing mark of another pair is the likely slip: "Alice” (opened with " but closed with ”)
    const other = /[\u201d\u2019\u00bb\u201c"]/.exec(val);
    this.report(
      'error',
      r,
      'unterminated-string',
      `unterminated string: add the closing quote (${want})` +
        (other
          ? `; a string opened with ${text[c]} ends only with ${closers.split('').join(' or ')}, not ${other[0]}`
          : ''),
    );
    sink.tokens.push({ type: 'string', text: val.trimEnd(), range: r, unterminated: true });
    return n;
  }
}

/** The tokens that carry a value (comments left out). */
export function values(toks: RawToken[]): RawToken[] {
  return toks.filter((t) => t.type !== 'comment');
}

export function countValues(toks: RawToken[]): number {
  let n = 0;
  for (const t of toks) if (t.type !== 'comment') n++;
  return n;
}
