/**
 * Ranges and characters: the small helpers every reader of the notation shares. Ranges are
 * 0-based, end exclusive, counted in UTF-16 code units (as in the LSP).
 */
import type { Diagnostic, Entry, MoveToken, MovesField, Range, Severity } from './ast';

/** How a reader reports a problem: the parser collects, caps and files it under the current entry. */
export type Report = (severity: Severity, r: Range, code: string, message: string) => void;

export function range(line: number, character: number, endLine: number, endCharacter: number): Range {
  return { line, character, endLine, endCharacter };
}

/** From the start of `a` to the end of `b`. */
export function span(a: Range, b: Range): Range {
  return range(a.line, a.character, b.endLine, b.endCharacter);
}

/** The part [from, to) of a one-line range, in characters from its start. */
export function sub(r: Range, from: number, to: number): Range {
  if (from === 0 && to === r.endCharacter - r.character && r.line === r.endLine) return r;
  return range(r.line, r.character + from, r.line, r.character + to);
}

export function byRange(a: Diagnostic, b: Diagnostic): number {
  return a.range.line - b.range.line || a.range.character - b.range.character;
}

/** Spaces every part of a file takes as spaces, diagrams included: plain, tab, form feed, vertical tab, no-break, BOM. */
export const PLAIN_SPACE_CHARS = ' \t\f\v\u00a0\ufeff';
/**
 * The other Unicode spaces that text pasted from a web page or a word processor brings (Ogham, en,
 * em, thin, hair, narrow no-break, mathematical, ideographic, and the zero-width space, which the
 * lexer names in a warning: it cannot be seen). They separate words as spaces do; a diagram reads
 * them as spaces too, but says so (diagram.ts: a column of a row must be what it looks like).
 */
export const ODD_SPACE_CHARS =
  '\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u200b\u202f\u205f\u3000';
/** The characters that separate words. */
export const SPACE_CHARS = PLAIN_SPACE_CHARS + ODD_SPACE_CHARS;
/** A regular expression's character class of `chars` (each as a \u escape). */
export function charClass(chars: string): string {
  return `[${[...chars].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')}]`;
}
/** SPACE_CHARS as a regular expression's character class. */
export const SPACE_CLASS = charClass(SPACE_CHARS);
const IS_SPACE = new Uint8Array(65536);
for (const ch of SPACE_CHARS) IS_SPACE[ch.charCodeAt(0)] = 1;

export function isSpace(c: string | undefined): boolean {
  return c !== undefined && IS_SPACE[c.charCodeAt(0)] === 1;
}

export function firstNonSpace(s: string, from = 0): number {
  for (let i = from; i < s.length; i++) if (!isSpace(s[i])) return i;
  return -1;
}

export function trimmedEnd(s: string): number {
  let e = s.length;
  while (e > 0 && isSpace(s[e - 1])) e--;
  return e;
}

export function isBlankOrComment(s: string): boolean {
  const f = firstNonSpace(s);
  return f < 0 || s[f] === '#';
}

/** Whitespace runs to one space, trimmed (how comments are stored). */
export function collapse(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

/** Text quoted in a message, cut to `n` characters so hostile input keeps messages short. */
export function clip(s: string, n = 40): string {
  if (s.length <= n) return s;
  // never half of a character written with two UTF-16 units (an emoji): it would show as '\ud83c'
  const cut = isHighSurrogate(s.charCodeAt(n - 1)) ? n - 1 : n;
  return `${s.slice(0, cut)}…`;
}

const isHighSurrogate = (u: number) => u >= 0xd800 && u <= 0xdbff;

/** The character at column c of s: one UTF-16 unit, or two for a character beyond U+FFFF (an emoji). */
export function charAt(s: string, c: number): string {
  return isHighSurrogate(s.charCodeAt(c)) && c + 1 < s.length ? s.slice(c, c + 2) : s.charAt(c);
}

/** The range of the character at column c of line `ln` (both units of an emoji). */
export function charRange(ln: number, s: string, c: number): Range {
  return range(ln, c, ln, c + Math.max(1, charAt(s, c).length));
}

/** "U+202E": a character named by its code point (for characters a reader cannot see). */
export function unicodeName(ch: string): string {
  return `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** Whether the start of a text reads like UTF-16 decoded as UTF-8: a NUL at every other character, and only there. */
export function looksUtf16(l: string): boolean {
  const s = l.startsWith('\ufffd\ufffd') ? l.slice(2) : l;
  const n = Math.min(s.length, 400);
  if (n < 4) return false;
  let even = 0,
    odd = 0;
  for (let k = 0; k < n; k++) {
    if (s.charCodeAt(k) !== 0) continue;
    if (k % 2 === 0) even++;
    else odd++;
  }
  // NULs at one parity only: a text of NULs alone is no UTF-16 (found by an audit: all-NUL files were called so)
  const half = Math.floor(n / 2);
  return Math.max(even, odd) >= half * 0.8 && Math.min(even, odd) <= half * 0.2;
}

/** A text that looksUtf16: said the same by every reader (.dab, .dbl). */
export const NOT_UTF8_BUT_UTF16 =
  'the file is not UTF-8: it looks like UTF-16 (as Windows saves "Unicode" text), so it is not read; save it as UTF-8';

/** A NUL character where no UTF-16 is seen: said the same by every reader (.dab, .dbl). */
export const NUL_NOT_TEXT = 'the file is not UTF-8 text: a NUL character here (a binary or UTF-16 file?)';

/** The last diagnostic a reader gives once it has given `max`. */
export function tooManyProblems(max: number): string {
  return `more than ${max} problems; the rest are not shown`;
}

/** Where a written move ends with its glyph, comments and the variations already written after it. */
export function writtenEnd(t: MoveToken): { line: number; character: number } {
  let end = { line: t.range.endLine, character: t.range.endCharacter };
  for (const r of [t.glyphRange, t.commentRange, ...t.variations.map((v) => v.range)]) {
    if (r && (r.endLine > end.line || (r.endLine === end.line && r.endCharacter > end.character)))
      end = { line: r.endLine, character: r.endCharacter };
  }
  return end;
}

/**
 * Where a variation after the written move `t` goes: after the move, its glyph, comments and
 * variations — and after the ']' of its littlegolem/SGF bracket when it is that bracket's last move.
 * Null for a move inside a bracket before its last (a variation cannot be written there).
 */
export function variationEnd(t: MoveToken, field: MovesField): { line: number; character: number } | null {
  const end = writtenEnd(t);
  if (t.turn === null) return end;
  const turn = field.turns[t.turn];
  if (!turn) return end;
  if (field.moves[turn.moves[turn.moves.length - 1]] !== t) return null;
  return later(end, { line: turn.range.endLine, character: turn.range.endCharacter });
}

/** The later of two positions in the text. */
export function later(a: { line: number; character: number }, b: { line: number; character: number }) {
  return b.line > a.line || (b.line === a.line && b.character > a.character) ? b : a;
}

/**
 * The entry has a comment, string or SGF property value left open: text written into its moves now would
 * be read as part of it (found by an audit: the board's move went into an unclosed `{` comment).
 */
export function hasOpenText(entry: Entry): boolean {
  return (
    entry.moves?.openValue === true ||
    entry.diagnostics.some((d) => d.code === 'unterminated-comment' || d.code === 'unterminated-string')
  );
}
