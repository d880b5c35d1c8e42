/**
 * Parser of the `.dab` notation: line-oriented, with error recovery and exact ranges.
 * One bad line never hides the rest. Linear in the size of the input (no backtracking regexes
 * over whole lines), so hostile files parse quickly. See docs/notation.md for the grammar.
 */
import type {
  ComponentToken,
  ComponentsField,
  Diagnostic,
  DiagramField,
  Entry,
  EntryKind,
  ExpandedComponent,
  FieldBase,
  Glyph,
  LinesField,
  LittlegolemTurn,
  MoveToken,
  MovesField,
  ParseResult,
  PlayField,
  PlayStep,
  PlayersField,
  Range,
  ScoreField,
  Severity,
  SizeField,
  Tag,
  ToMoveField,
  ValueField,
} from './ast';

export const MAX_DIAGNOSTICS = 2000;
/** Components after repeats; the closed form would take more, but the model keeps one object each. */
export const MAX_COMPONENTS = 200_000;
const MAX_SIDE = 12;

export const FIELD_NAMES = [
  'size',
  'players',
  'tomove',
  'score',
  'lines',
  'diagram',
  'moves',
  'components',
  'play',
  'value',
] as const;
export type FieldName = (typeof FIELD_NAMES)[number];
const FIELD_SET = new Set<string>(FIELD_NAMES);
const HEADER_SET = new Set<string>(['game', 'position', 'endgame']);
const NOT_IN_ENDGAME = new Set<string>(['size', 'lines', 'diagram', 'moves']);
const ONLY_IN_ENDGAME = new Set<string>(['components', 'play']);

export const DOT_CHARS = '+oO.*';
const GLYPHS = new Set(['!', '?', '!!', '??', '!?', '?!']);

export function range(line: number, character: number, endLine: number, endCharacter: number): Range {
  return { line, character, endLine, endCharacter };
}
function span(a: Range, b: Range): Range {
  return range(a.line, a.character, b.endLine, b.endCharacter);
}
function sub(r: Range, from: number, to: number): Range {
  if (from === 0 && to === r.endCharacter - r.character && r.line === r.endLine) return r;
  return range(r.line, r.character + from, r.line, r.character + to);
}

// ---------------------------------------------------------------------------------------------
// Lexer

interface RawToken {
  type: 'word' | 'string' | 'comment' | 'punct';
  /** Raw text (for strings: without the quotes, unescaped; for comments: inner text, whitespace collapsed). */
  text: string;
  range: Range;
  unterminated?: boolean;
}

interface Sink {
  tokens: RawToken[];
  brace: { line: number; character: number; parts: string[] } | null;
}

function isSpace(c: string): boolean {
  return c === ' ' || c === '\t' || c === '\f' || c === '\v' || c === '\u00a0' || c === '\ufeff';
}
const WORD_STOP_CHARS = ' \t\f\v\u00a0\ufeff,#"{}[];()';
const WORD_STOP = new Uint8Array(65536);
for (const ch of WORD_STOP_CHARS) WORD_STOP[ch.charCodeAt(0)] = 1;

function firstNonSpace(s: string, from = 0): number {
  for (let i = from; i < s.length; i++) if (!isSpace(s[i])) return i;
  return -1;
}
function trimmedEnd(s: string): number {
  let e = s.length;
  while (e > 0 && isSpace(s[e - 1])) e--;
  return e;
}

/** A header line with nothing but an optional quoted title and comment (used to stop multi-line comments). */
const STRICT_HEADER = /^[ \t]*(?:game|position|endgame)[ \t]*(?:"(?:[^"\\]|\\.)*"[ \t]*)?(?:#.*)?$/i;

// ---------------------------------------------------------------------------------------------

interface FieldBuilder {
  name: FieldName | 'unknown' | 'none';
  keyword: string;
  keywordRange: Range;
  sink: Sink;
  /** Lines (for 'none': report per line). */
  firstLine: number;
}

interface EntryBuilder {
  kind: EntryKind | null; // null: implicit, decided at the end
  title: string | null;
  implicit: boolean;
  headerRange: Range;
  keywordRange: Range;
  titleRange: Range | null;
  lastLine: number;
  lastEnd: number;
  entry: Entry;
  seen: Map<string, Range>;
}

class Parser {
  readonly lines: string[];
  readonly diagnostics: Diagnostic[] = [];
  readonly entries: Entry[] = [];
  private capped = false;
  private nextClose: Int32Array;
  private nextStrictHeader: Int32Array;
  private cur: EntryBuilder | null = null;
  private field: FieldBuilder | null = null;
  private afterDiagram = false;
  private pendingTags: Tag[] = [];
  private pendingTagRanges: Range[] = [];

  constructor(text: string) {
    this.lines = text.split(/\r\n|\r|\n/);
    const n = this.lines.length;
    this.nextClose = new Int32Array(n);
    this.nextStrictHeader = new Int32Array(n);
    let close = n,
      header = n;
    for (let i = n - 1; i >= 0; i--) {
      this.nextClose[i] = close;
      this.nextStrictHeader[i] = header;
      const l = this.lines[i];
      if (l.indexOf('}') >= 0) close = i;
      if (l.length < 4096 && STRICT_HEADER.test(l)) header = i;
    }
  }

  report(severity: Severity, r: Range, code: string, message: string): void {
    if (this.capped) return;
    if (this.diagnostics.length >= MAX_DIAGNOSTICS) {
      this.capped = true;
      const d: Diagnostic = {
        severity: 'information',
        range: r,
        code: 'too-many-diagnostics',
        message: `more than ${MAX_DIAGNOSTICS} problems; the rest are not shown`,
      };
      this.diagnostics.push(d);
      return;
    }
    const d: Diagnostic = { severity, range: r, code, message };
    this.diagnostics.push(d);
    if (this.cur) this.cur.entry.diagnostics.push(d);
  }

  // ----- lexer ------------------------------------------------------------------------------

  /** Tokenize `text` of line `ln` from `from`; returns true when a brace comment stays open into the next line. */
  lex(text: string, ln: number, from: number, sink: Sink): boolean {
    let c = from;
    const n = text.length;
    while (c < n) {
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
        c++;
        continue;
      }
      if (ch === '#') break;
      if (ch === '"') {
        let k = c + 1,
          val = '';
        let closed = false;
        while (k < n) {
          const d = text[k];
          if (d === '\\' && k + 1 < n && (text[k + 1] === '"' || text[k + 1] === '\\')) {
            val += text[k + 1];
            k += 2;
            continue;
          }
          if (d === '"') {
            closed = true;
            break;
          }
          val += d;
          k++;
        }
        if (closed) {
          sink.tokens.push({ type: 'string', text: val, range: range(ln, c, ln, k + 1) });
          c = k + 1;
        } else {
          const e = trimmedEnd(text);
          const r = range(ln, c, ln, Math.max(e, c + 1));
          this.report('error', r, 'unterminated-string', 'unterminated string: add the closing quote (")');
          sink.tokens.push({ type: 'string', text: val.trimEnd(), range: r, unterminated: true });
          c = n;
        }
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
      sink.tokens.push({ type: 'word', text: text.slice(c, k), range: range(ln, c, ln, k) });
      c = k;
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

  // ----- main loop --------------------------------------------------------------------------

  run(): ParseResult {
    const L = this.lines;
    const n = L.length;
    let carry: Sink | null = null;
    let i = 0;
    while (i < n) {
      const t = L[i];
      if (carry) {
        this.touch(i, t);
        const stillOpen = this.lex(t, i, 0, carry);
        if (!stillOpen) carry = null;
        i++;
        continue;
      }
      const f = firstNonSpace(t);
      if (f < 0 || t[f] === '#') {
        i++;
        continue;
      }
      const word = leadingWord(t, f);
      const lower = word ? word.toLowerCase() : '';
      if (word && HEADER_SET.has(lower)) {
        this.finishField();
        this.finishEntry();
        this.afterDiagram = false;
        this.startEntry(i, f, word, lower as EntryKind);
        i++;
        continue;
      }
      if (t[f] === '[') {
        this.finishField();
        this.afterDiagram = false;
        this.tagLine(i, f);
        i++;
        continue;
      }
      if (word && FIELD_SET.has(lower)) {
        this.finishField();
        this.afterDiagram = false;
        this.ensureEntry(i, f);
        this.touch(i, t);
        const kwRange = range(i, f, i, f + word.length);
        let after = f + word.length;
        if (t[after] === ':') after++;
        this.field = {
          name: lower as FieldName,
          keyword: word,
          keywordRange: kwRange,
          sink: { tokens: [], brace: null },
          firstLine: i,
        };
        if (lower === 'diagram') {
          this.lexNoCarry(t, i, after, this.field.sink);
          i = this.diagram(i + 1);
          this.finishField();
          this.afterDiagram = true;
          continue;
        }
        if (this.lex(t, i, after, this.field.sink)) carry = this.field.sink;
        i++;
        continue;
      }
      if (word && isBareWord(t, f, word) && !this.continues(word)) {
        if (!this.cur) {
          this.outside(i, f, t);
          i++;
          continue;
        }
        this.finishField();
        this.afterDiagram = false;
        this.touch(i, t);
        const kwRange = range(i, f, i, f + word.length);
        const guess = suggest(lower, [...FIELD_NAMES, 'game', 'position', 'endgame']);
        this.report(
          'error',
          kwRange,
          'unknown-field',
          `unknown field '${word}'` +
            (guess ? `: did you mean '${guess}'?` : `; fields are ${FIELD_NAMES.join(', ')} and [Tag "text"]`),
        );
        let after = f + word.length;
        if (t[after] === ':') after++;
        this.field = {
          name: 'unknown',
          keyword: word,
          keywordRange: kwRange,
          sink: { tokens: [], brace: null },
          firstLine: i,
        };
        if (this.lex(t, i, after, this.field.sink)) carry = this.field.sink;
        i++;
        continue;
      }
      // A continuation line.
      if (!this.cur) {
        this.outside(i, f, t);
        i++;
        continue;
      }
      this.touch(i, t);
      if (!this.field) {
        if (this.afterDiagram && /[|+oO.*-]/.test(t[f])) {
          this.report(
            'error',
            range(i, f, i, trimmedEnd(t)),
            'bad-diagram',
            'this line does not continue the diagram above: dot rows (+---+) and box rows (|   |) must alternate, with a dot row first and last, and dots lined up with the top row',
          );
          i++;
          continue;
        }
        this.field = {
          name: 'none',
          keyword: '',
          keywordRange: range(i, f, i, f),
          sink: { tokens: [], brace: null },
          firstLine: i,
        };
      }
      if (this.lex(t, i, 0, this.field.sink)) carry = this.field.sink;
      i++;
    }
    this.finishField();
    this.finishEntry();
    if (this.pendingTags.length) {
      for (const r of this.pendingTagRanges)
        this.report('warning', r, 'bad-tag', 'tag outside any entry: tags belong to an entry (after its header)');
    }
    this.diagnostics.sort(byRange);
    return { entries: this.entries, diagnostics: this.diagnostics };
  }

  /** Whether a bare word at the start of a line continues the current field rather than starting an unknown one. */
  private continues(word: string): boolean {
    const fb = this.field;
    if (!fb) return false;
    if (fb.name === 'moves' || fb.name === 'lines') return /^(?:[hv][a-z][a-z])+$/i.test(word);
    if (fb.name === 'players') return countValues(fb.sink.tokens) < 2;
    if (fb.name === 'tomove') return countValues(fb.sink.tokens) === 0;
    if (fb.name === 'play') return /^(?:keep|all)$/i.test(word);
    return false;
  }

  private outside(i: number, f: number, t: string): void {
    this.report(
      'error',
      range(i, f, i, trimmedEnd(t)),
      'syntax',
      'text outside an entry: start an entry with a header line `game "title"`, `position "title"` or `endgame "title"`, or make the line a # comment',
    );
  }

  private touch(i: number, t: string): void {
    if (!this.cur) return;
    const e = trimmedEnd(t);
    if (e > 0) {
      this.cur.lastLine = i;
      this.cur.lastEnd = e;
    }
  }

  private startEntry(i: number, f: number, word: string, kind: EntryKind): void {
    const t = this.lines[i];
    const kwRange = range(i, f, i, f + word.length);
    const sink: Sink = { tokens: [], brace: null };
    const entry = newEntry(kind, false, range(i, f, i, trimmedEnd(t)), kwRange);
    this.cur = {
      kind,
      title: null,
      implicit: false,
      headerRange: entry.headerRange,
      keywordRange: kwRange,
      titleRange: null,
      lastLine: i,
      lastEnd: trimmedEnd(t),
      entry,
      seen: new Map(),
    };
    this.lexNoCarry(t, i, f + word.length, sink);
    if (sink.tokens.length) {
      const end = sink.tokens[sink.tokens.length - 1].range;
      entry.headerRange = range(i, f, i, end.endLine === i ? end.endCharacter : t.length);
      this.cur.headerRange = entry.headerRange;
    } else {
      entry.headerRange = kwRange;
      this.cur.headerRange = kwRange;
    }
    entry.range = entry.headerRange;
    const toks = sink.tokens.filter((x) => x.type !== 'comment');
    for (const x of sink.tokens)
      if (x.type === 'comment')
        this.report(
          'error',
          x.range,
          'bad-header',
          'a comment in braces cannot stand on a header line; use # for a comment',
        );
    if (toks.length > 0) {
      if (toks[0].type === 'string') {
        entry.title = toks[0].text;
        entry.titleRange = toks[0].range;
        if (toks.length > 1)
          this.report(
            'error',
            span(toks[1].range, toks[toks.length - 1].range),
            'bad-header',
            'unexpected text after the title: fields go on their own lines below the header',
          );
      } else {
        const last = toks[toks.length - 1];
        const r = span(toks[0].range, last.range);
        entry.title = t.slice(r.character, r.endCharacter);
        entry.titleRange = r;
        this.report(
          'warning',
          r,
          'bad-header',
          `put the title in quotes: ${word} "${entry.title.replace(/"/g, '\\"')}"`,
        );
      }
    }
    if (this.pendingTags.length) {
      for (const r of this.pendingTagRanges)
        this.report(
          'warning',
          r,
          'bad-tag',
          `tag before the first header: it is read as part of the ${kind} entry below; put tags after the header`,
        );
      entry.tags.push(...this.pendingTags);
      this.pendingTags = [];
      this.pendingTagRanges = [];
    }
  }

  private lexNoCarry(t: string, i: number, from: number, sink: Sink): void {
    // Header and tag lines never carry a brace comment onto the next line.
    const saveClose = this.nextClose[i];
    this.nextClose[i] = this.lines.length;
    this.lex(t, i, from, sink);
    this.nextClose[i] = saveClose;
  }

  /** Fields before the first header form an implicit entry, whose kind is decided at its end. */
  private ensureEntry(i: number, f: number): void {
    if (this.cur) return;
    const t = this.lines[i];
    const r = range(i, f, i, trimmedEnd(t));
    const entry = newEntry('position', true, r, range(i, f, i, f));
    this.cur = {
      kind: null,
      title: null,
      implicit: true,
      headerRange: r,
      keywordRange: entry.keywordRange,
      titleRange: null,
      lastLine: i,
      lastEnd: trimmedEnd(t),
      entry,
      seen: new Map(),
    };
    if (this.pendingTags.length) {
      entry.tags.push(...this.pendingTags);
      this.pendingTags = [];
      this.pendingTagRanges = [];
    }
  }

  private tagLine(i: number, f: number): void {
    const t = this.lines[i];
    const sink: Sink = { tokens: [], brace: null };
    this.lexNoCarry(t, i, f, sink);
    if (this.cur) this.touch(i, t);
    const toks = sink.tokens.filter((x) => x.type !== 'comment');
    let k = 0;
    while (k < toks.length) {
      const open = toks[k];
      if (!(open.type === 'punct' && open.text === '[')) {
        this.report('error', open.range, 'bad-tag', 'expected a tag like [Event "Club championship"]');
        k++;
        continue;
      }
      const name = toks[k + 1];
      const val = toks[k + 2];
      const close = toks[k + 3];
      if (!name || name.type !== 'word' || !/^[A-Za-z_][A-Za-z0-9_-]*$/.test(name.text)) {
        this.report(
          'error',
          name ? span(open.range, name.range) : open.range,
          'bad-tag',
          'a tag is [Name "text"], e.g. [Date "2024-05-01"]',
        );
        k = skipTo(toks, k + 1, ']');
        continue;
      }
      if (!val || (val.type !== 'string' && val.type !== 'word')) {
        this.report(
          'error',
          span(open.range, name.range),
          'bad-tag',
          `tag ${name.text} needs a quoted value: [${name.text} "text"]`,
        );
        k = skipTo(toks, k + 1, ']');
        continue;
      }
      if (!close || close.type !== 'punct' || close.text !== ']') {
        this.report('error', span(open.range, val.range), 'bad-tag', `tag ${name.text} is not closed: add ']'`);
        k = skipTo(toks, k + 1, ']');
        if (!val.unterminated)
          this.addTag({
            name: name.text,
            value: val.text,
            range: span(open.range, val.range),
            nameRange: name.range,
            valueRange: val.range,
          });
        continue;
      }
      this.addTag({
        name: name.text,
        value: val.text,
        range: span(open.range, close.range),
        nameRange: name.range,
        valueRange: val.range,
      });
      k += 4;
    }
  }

  private addTag(tag: Tag): void {
    if (this.cur) this.cur.entry.tags.push(tag);
    else {
      this.pendingTags.push(tag);
      this.pendingTagRanges.push(tag.range);
    }
  }

  // ----- diagrams ---------------------------------------------------------------------------

  /** Parse diagram rows starting at line `start`; returns the first line after the diagram. */
  private diagram(start: number): number {
    const fb = this.field!;
    const L = this.lines;
    const n = L.length;
    const kw = fb.keywordRange;
    for (const x of fb.sink.tokens) {
      if (x.type !== 'comment') {
        this.report('error', x.range, 'bad-diagram', 'the diagram starts on the line below `diagram`');
      }
    }
    fb.sink.tokens = [];
    const d: DiagramField = {
      keyword: fb.keyword,
      keywordRange: kw,
      range: kw,
      rows: [],
      width: null,
      height: null,
      lines: [],
      cells: [],
      columns: [],
    };
    this.diagramField = d;
    let j = start;
    while (j < n && isBlankOrComment(L[j])) j++;
    if (j >= n || !dotRowLike(L[j])) {
      this.report(
        'error',
        kw,
        'bad-diagram',
        'a diagram needs its rows on the lines below `diagram`: dot rows like +---+---+ and box rows like |   |   |, top row first',
      );
      return start;
    }
    // Top dot row fixes the columns.
    const top = L[j];
    const cols: number[] = [];
    const topEnd = contentEnd(top);
    for (let c = 0; c < topEnd; c++) if (DOT_CHARS.includes(top[c])) cols.push(c);
    d.columns = cols;
    const hl: { row: number; k: number; range: Range }[] = [];
    const vl: { row: number; k: number; range: Range }[] = [];
    const cells: { row: number; k: number; text: string; range: Range }[] = [];
    let dotRows = 0,
      boxRows = 0;
    let ok = true;
    const dotRow = (ln: number): void => {
      const s = L[ln];
      const e = contentEnd(s);
      d.rows.push({ kind: 'dot', index: dotRows, text: s, range: range(ln, Math.max(0, firstNonSpace(s)), ln, e) });
      if (!this.dotRow(s, ln, e, cols, dotRows, hl)) ok = false;
      dotRows++;
      this.touch(ln, s);
    };
    const boxRow = (ln: number): void => {
      const s = L[ln];
      const f = firstNonSpace(s);
      const e = f >= 0 && s[f] === '#' && f <= cols[0] ? 0 : contentEndBox(s, cols[cols.length - 1]);
      d.rows.push({ kind: 'box', index: boxRows, text: s, range: range(ln, f < 0 ? 0 : Math.min(f, e), ln, e) });
      if (e > 0 && !this.boxRow(s, ln, e, cols, boxRows, vl, cells)) ok = false;
      boxRows++;
      this.touch(ln, s);
    };
    dotRow(j);
    j++;
    if (cols.length < 2) {
      this.report('error', d.rows[0].range, 'bad-diagram', 'a dot row needs at least two dots, like +---+');
      ok = false;
    }
    while (j < n) {
      const s = L[j];
      if (dotRowLike(s)) {
        const f = firstNonSpace(s);
        this.report(
          'error',
          range(j, f, j, contentEnd(s)),
          'bad-diagram',
          'two dot rows in a row: a box row (| for a drawn line, space for none, or a blank line) goes between them',
        );
        d.rows.push({ kind: 'box', index: boxRows, text: '', range: range(j, f, j, f) });
        boxRows++;
        dotRow(j);
        ok = false;
        j++;
        continue;
      }
      if (j + 1 < n && dotRowLike(L[j + 1])) {
        boxRow(j);
        dotRow(j + 1);
        j += 2;
        continue;
      }
      const f = firstNonSpace(s);
      if (f >= 0 && s[f] === '|') {
        this.touch(j, s);
        this.report(
          'error',
          range(j, f, j, trimmedEnd(s)),
          'bad-diagram',
          'a diagram ends with a dot row: this box row has no dot row below it (or the dot row below has a misplaced character)',
        );
        ok = false;
        j++;
      }
      break;
    }
    const H = dotRows - 1,
      W = cols.length - 1;
    const last = d.rows[d.rows.length - 1];
    d.range = span(kw, last.range);
    if (H < 1 && cols.length >= 2) {
      this.report(
        'error',
        span(d.rows[0].range, last.range),
        'bad-diagram',
        'a diagram needs at least two dot rows (top and bottom)',
      );
      ok = false;
    }
    if (H > MAX_SIDE || W > MAX_SIDE) {
      this.report(
        'error',
        span(d.rows[0].range, last.range),
        'bad-size',
        `the diagram is ${W}x${H} boxes; boards run from 1x1 to ${MAX_SIDE}x${MAX_SIDE}`,
      );
      return j;
    }
    if (H >= 1 && W >= 1) {
      d.width = W;
      d.height = H;
      for (const h of hl) d.lines.push({ horizontal: true, x: h.k, y: H - h.row, range: h.range });
      for (const v of vl) d.lines.push({ horizontal: false, x: v.k, y: H - 1 - v.row, range: v.range });
      for (const c of cells) d.cells.push({ x: c.k, y: H - 1 - c.row, text: c.text, range: c.range });
    }
    void ok;
    return j;
  }
  private diagramField: DiagramField | null = null;

  private dotRow(
    s: string,
    ln: number,
    e: number,
    cols: number[],
    row: number,
    out: { row: number; k: number; range: Range }[],
  ): boolean {
    let ok = true;
    const c0 = cols[0];
    for (let c = 0; c < Math.min(c0, e); c++) {
      if (!isSpace(s[c])) {
        this.report(
          'error',
          range(ln, c, ln, c + 1),
          'bad-diagram',
          `this dot is left of the board: dots must line up with the top row (first dot at column ${c0 + 1})`,
        );
        return false;
      }
    }
    for (let k = 0; k < cols.length; k++) {
      const c = cols[k];
      if (c >= e) {
        this.report(
          'error',
          range(ln, Math.max(0, e - 1), ln, e),
          'bad-diagram',
          `this dot row is too short: the top row has ${cols.length} dots (last at column ${cols[cols.length - 1] + 1})`,
        );
        return false;
      }
      if (!DOT_CHARS.includes(s[c])) {
        this.report(
          'error',
          range(ln, c, ln, c + 1),
          'bad-diagram',
          `expected a dot (+ o O . *) at column ${c + 1}, lined up with the top row`,
        );
        ok = false;
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
          this.report(
            'error',
            range(ln, other, ln, other + 1),
            'bad-diagram',
            DOT_CHARS.includes(s[other])
              ? `this dot is not lined up with the dots of the top row (columns ${cols.map((x) => x + 1).join(', ')})`
              : `unexpected '${s[other]}' in a dot row: a line between two dots is '-' (drawn) or spaces (undrawn)`,
          );
          ok = false;
        } else if (dashes > 0 && spaces > 0) {
          this.report(
            'error',
            range(ln, a, ln, b),
            'bad-diagram',
            "a line between two dots must be all '-' (drawn) or all spaces (undrawn)",
          );
          ok = false;
        } else if (dashes > 0) {
          out.push({ row, k, range: range(ln, a, ln, b) });
        }
      }
    }
    const lastCol = cols[cols.length - 1];
    for (let c = lastCol + 1; c < e; c++) {
      if (!isSpace(s[c])) {
        this.report(
          'error',
          range(ln, c, ln, e),
          'bad-diagram',
          DOT_CHARS.includes(s[c]) || s[c] === '-'
            ? 'this dot row is longer than the top row: dots must line up with the top row'
            : 'text right of the board: start a note with #',
        );
        return false;
      }
    }
    return ok;
  }

  private boxRow(
    s: string,
    ln: number,
    e: number,
    cols: number[],
    row: number,
    vl: { row: number; k: number; range: Range }[],
    cells: { row: number; k: number; text: string; range: Range }[],
  ): boolean {
    let ok = true;
    const c0 = cols[0];
    for (let c = 0; c < Math.min(c0, e); c++) {
      if (!isSpace(s[c])) {
        this.report(
          'error',
          range(ln, c, ln, c + 1),
          'bad-diagram',
          `'${s[c]}' is left of the board: box rows line up with the dot rows`,
        );
        ok = false;
        break;
      }
    }
    for (let k = 0; k < cols.length; k++) {
      const c = cols[k];
      if (c >= e) break;
      const ch = s[c];
      if (ch === '|') vl.push({ row, k, range: range(ln, c, ln, c + 1) });
      else if (!isSpace(ch)) {
        this.report(
          'error',
          range(ln, c, ln, c + 1),
          'bad-diagram',
          `'${ch}' stands on a dot column: only '|' (a drawn line) or a space may stand there; box text goes between the columns`,
        );
        ok = false;
      }
      if (k + 1 < cols.length) {
        const a = c + 1,
          b = Math.min(cols[k + 1], e);
        let first = -1,
          lastC = -1;
        for (let x = a; x < b; x++) {
          const d = s[x];
          if (d === '|') {
            this.report(
              'error',
              range(ln, x, ln, x + 1),
              'bad-diagram',
              `'|' must sit on a dot column (columns ${cols.map((y) => y + 1).join(', ')})`,
            );
            ok = false;
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
        this.report('error', range(ln, c, ln, e), 'bad-diagram', 'text right of the board: start a note with #');
        ok = false;
        break;
      }
    }
    return ok;
  }

  // ----- fields -----------------------------------------------------------------------------

  private finishField(): void {
    const fb = this.field;
    this.field = null;
    if (!fb) return;
    const ent = this.cur;
    if (!ent) return;
    const toks = fb.sink.tokens;
    if (fb.name === 'unknown') return;
    if (fb.name === 'none') {
      // Continuation text without a field: one error per line with non-comment tokens.
      let k = 0;
      while (k < toks.length) {
        if (toks[k].type === 'comment') {
          k++;
          continue;
        }
        const ln = toks[k].range.line;
        let m = k;
        while (m + 1 < toks.length && toks[m + 1].range.line === ln) m++;
        let lastNc = m;
        while (toks[lastNc].type === 'comment') lastNc--;
        this.report(
          'error',
          span(toks[k].range, toks[lastNc].range),
          'syntax',
          'expected a field (size, players, tomove, score, lines, diagram, moves, components, play, value or [Tag "text"]) or an entry header (game, position, endgame)',
        );
        k = m + 1;
      }
      return;
    }
    const e = ent.entry;
    const last = toks.length ? toks[toks.length - 1].range : fb.keywordRange;
    const base: FieldBase = { keyword: fb.keyword, keywordRange: fb.keywordRange, range: span(fb.keywordRange, last) };
    const prev = ent.seen.get(fb.name);
    const duplicate = prev !== undefined;
    if (duplicate) {
      this.report(
        'error',
        fb.keywordRange,
        'duplicate-field',
        `duplicate field '${fb.name}' (first given on line ${prev!.line + 1}); this one is ignored`,
      );
    } else ent.seen.set(fb.name, fb.keywordRange);
    const store = !duplicate;
    switch (fb.name) {
      case 'size': {
        const v = this.sizeField(base, toks);
        if (store) e.size = v;
        e.fields.push(v);
        break;
      }
      case 'players': {
        const v = this.playersField(base, toks);
        if (store) e.players = v;
        e.fields.push(v);
        break;
      }
      case 'tomove': {
        const v = this.tomoveField(base, toks);
        if (store) e.tomove = v;
        e.fields.push(v);
        break;
      }
      case 'score': {
        const v = this.scoreField(base, toks);
        if (store) e.score = v;
        e.fields.push(v);
        break;
      }
      case 'lines': {
        const v = this.linesField(base, toks);
        if (store) e.lines = v;
        e.fields.push(v);
        break;
      }
      case 'diagram': {
        const v = this.diagramField!;
        this.diagramField = null;
        if (store) e.diagram = v;
        e.fields.push(v);
        break;
      }
      case 'moves': {
        const v = this.movesField(base, toks);
        if (store) e.moves = v;
        e.fields.push(v);
        break;
      }
      case 'components': {
        const v = this.componentsField(base, toks);
        if (store) e.components = v;
        e.fields.push(v);
        break;
      }
      case 'play': {
        const v = this.playField(base, toks);
        if (store) e.play = v;
        e.fields.push(v);
        break;
      }
      case 'value': {
        const v = this.valueField(base, toks);
        if (store) e.value = v;
        e.fields.push(v);
        break;
      }
    }
  }

  private values(toks: RawToken[]): RawToken[] {
    return toks.filter((t) => t.type !== 'comment');
  }

  private sizeField(base: FieldBase, toks: RawToken[]): SizeField {
    const f: SizeField = { ...base, width: null, height: null, valueRange: null };
    const v = this.values(toks);
    if (v.length === 0) {
      this.report(
        'error',
        base.keywordRange,
        'bad-size',
        'size needs a value, e.g. size 5x5 (columns x rows of boxes)',
      );
      return f;
    }
    const r = span(v[0].range, v[v.length - 1].range);
    f.valueRange = r;
    if (v.some((t) => t.type !== 'word') || v[0].range.line !== v[v.length - 1].range.line) {
      this.report('error', r, 'bad-size', 'expected a board size like 5x5 (columns x rows of boxes)');
      return f;
    }
    const joined = this.lines[r.line].slice(r.character, r.endCharacter);
    const m = /^(\d+)[ \t]*[xX×*][ \t]*(\d+)$/.exec(joined) ?? /^(\d+)$/.exec(joined);
    if (!m) {
      this.report(
        'error',
        r,
        'bad-size',
        `'${clip(joined)}' is not a board size: write columns x rows of boxes, e.g. size 5x5`,
      );
      return f;
    }
    const w = m[1].length > 6 ? Infinity : Number(m[1]);
    const h = m[2] === undefined ? w : m[2].length > 6 ? Infinity : Number(m[2]);
    if (w < 1 || h < 1 || w > MAX_SIDE || h > MAX_SIDE) {
      const shown = `${m[1].length > 6 ? clip(m[1], 8) : m[1]}x${m[2] === undefined ? m[1] : m[2].length > 6 ? clip(m[2], 8) : m[2]}`;
      this.report(
        'error',
        r,
        'bad-size',
        `board size ${shown} is out of range: each side must be 1 to ${MAX_SIDE} boxes`,
      );
      return f;
    }
    f.width = w;
    f.height = h;
    return f;
  }

  private playersField(base: FieldBase, toks: RawToken[]): PlayersField {
    const v = this.values(toks);
    const f: PlayersField = { ...base, names: null, nameTokens: v.map((t) => ({ text: t.text, range: t.range })) };
    let bad = false;
    for (const t of v) {
      if (t.type === 'punct') {
        this.report(
          'error',
          t.range,
          'bad-players',
          `unexpected '${t.text}': write two names, e.g. players "Alice" "Bob"`,
        );
        bad = true;
      } else if (t.text.trim() === '') {
        this.report('error', t.range, 'bad-players', 'a player name cannot be empty');
        bad = true;
      }
    }
    if (bad) return f;
    if (v.length !== 2) {
      this.report(
        'error',
        v.length ? span(v[0].range, v[v.length - 1].range) : base.keywordRange,
        'bad-players',
        `players needs exactly two names (first player, then second), found ${v.length}; quote names with spaces: players "Ann Lee" "Bob"`,
      );
      return f;
    }
    f.names = [v[0].text, v[1].text];
    if (v[0].text === v[1].text)
      this.report('warning', v[1].range, 'bad-players', `both players are named '${v[0].text}'`);
    return f;
  }

  private tomoveField(base: FieldBase, toks: RawToken[]): ToMoveField {
    const v = this.values(toks);
    const f: ToMoveField = { ...base, text: null, valueRange: null, player: null };
    if (v.length === 0) {
      this.report('error', base.keywordRange, 'bad-tomove', 'tomove needs a player: a name, first or second');
      return f;
    }
    if (v[0].type === 'punct') {
      this.report('error', v[0].range, 'bad-tomove', 'tomove needs a player: a name, first or second');
      return f;
    }
    f.text = v[0].text;
    f.valueRange = v[0].range;
    if (v.length > 1)
      this.report(
        'error',
        span(v[1].range, v[v.length - 1].range),
        'bad-tomove',
        'tomove takes one player; quote a name with spaces',
      );
    return f;
  }

  private scoreField(base: FieldBase, toks: RawToken[]): ScoreField {
    const v = this.values(toks);
    const f: ScoreField = { ...base, score: null, valueRanges: [] };
    if (v.length === 0) {
      this.report(
        'error',
        base.keywordRange,
        'bad-score',
        'score needs two numbers: boxes of the first and of the second player, e.g. score 3 0',
      );
      return f;
    }
    const nums: { n: number; r: Range }[] = [];
    let seps = 0;
    let bad: Range | null = null;
    for (const t of v) {
      if (t.type !== 'word') {
        bad = bad ?? t.range;
        continue;
      }
      const re = /(\d+)|([-:–])|([^\d\-:–]+)/g;
      let m: RegExpExecArray | null;
      while ((m = re.exec(t.text))) {
        const r = sub(t.range, m.index, m.index + m[0].length);
        if (m[1]) nums.push({ n: m[1].length > 9 ? Infinity : Number(m[1]), r });
        else if (m[2]) seps++;
        else bad = bad ?? r;
      }
    }
    if (bad || nums.length !== 2 || seps > 1) {
      this.report(
        'error',
        bad ?? span(v[0].range, v[v.length - 1].range),
        'bad-score',
        'score needs two whole numbers: boxes of the first and of the second player, e.g. score 3 0',
      );
      return f;
    }
    f.valueRanges = nums.map((x) => x.r);
    for (const x of nums) {
      if (!Number.isFinite(x.n) || x.n > 144) {
        this.report('error', x.r, 'bad-score', 'a score cannot exceed 144 boxes (a 12x12 board)');
        return f;
      }
    }
    f.score = [nums[0].n, nums[1].n];
    return f;
  }

  private valueField(base: FieldBase, toks: RawToken[]): ValueField {
    const v = this.values(toks);
    const f: ValueField = { ...base, value: null, valueRange: null };
    if (v.length === 0) {
      this.report(
        'error',
        base.keywordRange,
        'bad-value',
        'value needs a whole number: the net boxes of the rest for the player to move, e.g. value -2',
      );
      return f;
    }
    f.valueRange = v[0].range;
    const m = /^([+\-−–]?)(\d{1,9})$/.exec(v[0].text);
    if (v[0].type !== 'word' || !m) {
      this.report(
        'error',
        v[0].range,
        'bad-value',
        `'${clip(v[0].text)}' is not a value: write a whole number like -2 or 3`,
      );
      return f;
    }
    f.value = (m[1] && m[1] !== '+' ? -1 : 1) * Number(m[2]);
    if (f.value === 0) f.value = 0; // no -0
    if (v.length > 1)
      this.report('error', span(v[1].range, v[v.length - 1].range), 'bad-value', 'value takes a single number');
    return f;
  }

  private linesField(base: FieldBase, toks: RawToken[]): LinesField {
    const f: LinesField = { ...base, lines: [] };
    for (const t of toks) {
      if (t.type === 'comment') continue;
      if (t.type !== 'word') {
        this.report(
          'error',
          t.range,
          'bad-move',
          t.type === 'string' ? 'a line is written without quotes, e.g. a1-b1' : `unexpected '${t.text}' in lines`,
        );
        continue;
      }
      const split = splitMoveWord(t.text);
      if (!split) {
        this.report(
          'error',
          t.range,
          'bad-move',
          `'${clip(t.text)}' is not a line: write two adjacent dots like a1-b1, or a littlegolem code like haa`,
        );
        continue;
      }
      for (const p of split) f.lines.push({ text: p.text, range: sub(t.range, p.start, p.end) });
    }
    return f;
  }

  private movesField(base: FieldBase, toks: RawToken[]): MovesField {
    const f: MovesField = { ...base, moves: [], turns: [], comments: [] };
    let pendingNumber: { n: number; r: Range } | null = null;
    /** The move that glyphs and comments attach to; null once something else intervenes. */
    let attach: MoveToken | null = null;
    const pushMove = (text: string, r: Range, form: MoveToken['form'], turn: number | null): MoveToken => {
      const m: MoveToken = {
        text,
        range: r,
        form,
        number: null,
        numberRange: null,
        glyph: null,
        glyphRange: null,
        comment: null,
        commentRange: null,
        turn,
      };
      if (pendingNumber) {
        m.number = pendingNumber.n;
        m.numberRange = pendingNumber.r;
        pendingNumber = null;
      }
      f.moves.push(m);
      attach = m;
      return m;
    };
    let k = 0;
    while (k < toks.length) {
      const t = toks[k];
      if (t.type === 'comment') {
        f.comments.push({ text: t.text, range: t.range });
        if (attach) {
          const a: MoveToken = attach;
          a.comment = a.comment === null ? t.text : `${a.comment} ${t.text}`;
          a.commentRange = a.commentRange === null ? t.range : span(a.commentRange, t.range);
        }
        k++;
        continue;
      }
      if (t.type === 'string') {
        this.report(
          'error',
          t.range,
          'syntax',
          'unexpected quoted text in the move list: comments go in braces, {like this}',
        );
        attach = null;
        k++;
        continue;
      }
      if (t.type === 'punct') {
        if (t.text === '(' || t.text === ')') {
          k++;
          continue;
        }
        if (t.text === ';') {
          attach = null;
          k++;
          continue;
        }
        this.report('error', t.range, 'syntax', `unexpected '${t.text}' in the move list`);
        attach = null;
        k++;
        continue;
      }
      // A word. Littlegolem property `b[...]`?
      const nx = toks[k + 1];
      if (
        nx &&
        nx.type === 'punct' &&
        nx.text === '[' &&
        nx.range.line === t.range.line &&
        nx.range.character === t.range.endCharacter &&
        /^[A-Za-z]+$/.test(t.text)
      ) {
        // Collect to ']' on the same line.
        let m = k + 2;
        const inner: RawToken[] = [];
        let closed: RawToken | null = null;
        while (m < toks.length && toks[m].range.line === t.range.line) {
          const x = toks[m];
          if (x.type === 'punct' && x.text === ']') {
            closed = x;
            m++;
            break;
          }
          if (x.type === 'punct' && (x.text === '[' || x.text === ';')) break;
          inner.push(x);
          m++;
        }
        const whole = closed
          ? span(t.range, closed.range)
          : span(t.range, inner.length ? inner[inner.length - 1].range : nx.range);
        const letter = t.text.toLowerCase();
        attach = null;
        if (!closed) this.report('error', whole, 'bad-turn', `unterminated turn '${t.text}[': add ']'`);
        if (letter === 'b' || letter === 'r') {
          const turn: LittlegolemTurn = { player: letter === 'b' ? 0 : 1, letter: t.text, range: whole, moves: [] };
          const ti = f.turns.length;
          f.turns.push(turn);
          for (const x of inner) {
            if (x.type === 'comment') {
              f.comments.push({ text: x.text, range: x.range });
              continue;
            }
            const codes = x.type === 'word' && /^(?:[hv][a-z][a-z])+$/i.test(x.text);
            if (!codes) {
              this.report(
                'error',
                x.range,
                'bad-turn',
                `'${clip(x.text)}' is not a littlegolem move: a turn holds 3-letter codes like hdb or haevbe`,
              );
              continue;
            }
            for (let c = 0; c < x.text.length; c += 3) {
              pushMove(x.text.slice(c, c + 3), sub(x.range, c, c + 3), 'littlegolem', ti);
              turn.moves.push(f.moves.length - 1);
            }
            attach = null;
          }
          if (closed && !inner.some((x) => x.type !== 'comment'))
            this.report('error', whole, 'bad-turn', 'empty turn: a littlegolem turn holds at least one move');
        } else {
          this.report('information', whole, 'bad-turn', `littlegolem/SGF property '${t.text}' is ignored`);
        }
        k = m;
        continue;
      }
      this.moveWord(
        t,
        f,
        pushMove,
        () => attach,
        (a) => {
          attach = a;
        },
        (p) => {
          pendingNumber = p;
        },
      );
      k++;
    }
    return f;
  }

  private moveWord(
    t: RawToken,
    f: MovesField,
    pushMove: (text: string, r: Range, form: MoveToken['form'], turn: number | null) => MoveToken,
    getAttach: () => MoveToken | null,
    setAttach: (a: MoveToken | null) => void,
    setNumber: (p: { n: number; r: Range } | null) => void,
  ): void {
    let s = t.text;
    let off = 0;
    const num = /^(\d+)(\.+)/.exec(s);
    if (num) {
      const n = num[1].length > 9 ? Infinity : Number(num[1]);
      const r = sub(t.range, 0, num[0].length);
      if (!Number.isFinite(n) || n < 1) this.report('warning', r, 'syntax', 'a move number counts from 1');
      setNumber({ n, r });
      setAttach(null);
      off = num[0].length;
      s = s.slice(off);
      if (!s) return;
    }
    let g = s.length;
    while (g > 0 && (s[g - 1] === '!' || s[g - 1] === '?')) g--;
    const core = s.slice(0, g);
    const glyph = s.slice(g);
    if (core) {
      const split = splitMoveWord(core);
      if (!split) {
        const r = sub(t.range, off, off + core.length);
        this.report(
          'error',
          r,
          'bad-move',
          /^\d+$/.test(core)
            ? `'${clip(core)}' is not a move; a move number is followed by a dot: ${clip(core)}.`
            : `'${clip(core)}' is not a move: write two adjacent dots like a1-b1 (or a1b1), or a littlegolem code like haa`,
        );
        setAttach(null);
        return;
      }
      for (const p of split) pushMove(p.text, sub(t.range, off + p.start, off + p.end), p.form, null);
    }
    if (glyph) {
      const r = sub(t.range, off + g, off + s.length);
      const a = getAttach();
      if (!GLYPHS.has(glyph)) {
        this.report('error', r, 'bad-glyph', `'${glyph}' is not an annotation: use ! ? !! ?? !? or ?!`);
      } else if (!a || a.glyph !== null || (!core && a.comment !== null)) {
        this.report('error', r, 'bad-glyph', `annotation '${glyph}' must follow a move, e.g. a1-b1${glyph}`);
      } else {
        a.glyph = glyph as Glyph;
        a.glyphRange = r;
      }
    }
    void f;
  }

  private componentsField(base: FieldBase, toks: RawToken[]): ComponentsField {
    const f: ComponentsField = { ...base, tokens: [], components: [] };
    // Pieces: '(' ')' component repeat
    type Piece = {
      kind: 'open' | 'close' | 'comp' | 'repeat' | 'bad';
      text: string;
      range: Range;
      size?: number;
      loop?: boolean;
      rep?: number;
      glued?: boolean;
    };
    const pieces: Piece[] = [];
    for (const t of toks) {
      if (t.type === 'comment') continue;
      if (t.type === 'string') {
        pieces.push({ kind: 'bad', text: t.text, range: t.range });
        continue;
      }
      if (t.type === 'punct') {
        if (t.text === '(') pieces.push({ kind: 'open', text: '(', range: t.range });
        else if (t.text === ')') pieces.push({ kind: 'close', text: ')', range: t.range });
        else pieces.push({ kind: 'bad', text: t.text, range: t.range });
        continue;
      }
      const re = /\+|([^+]+)/g;
      let m: RegExpExecArray | null;
      while ((m = re.exec(t.text))) {
        if (!m[1]) continue;
        const r = sub(t.range, m.index, m.index + m[1].length);
        const glued =
          m.index === 0 &&
          pieces.length > 0 &&
          pieces[pieces.length - 1].kind === 'close' &&
          pieces[pieces.length - 1].range.line === r.line &&
          pieces[pieces.length - 1].range.endCharacter === r.character;
        const c = /^(\d{1,9})([lLℓ]?)(?:[\^*](\d{1,9}))?$/.exec(m[1]);
        const rp = /^[\^*](\d{1,9})$/.exec(m[1]);
        if (c)
          pieces.push({
            kind: 'comp',
            text: m[1],
            range: r,
            size: Number(c[1]),
            loop: c[2] !== '',
            rep: c[3] === undefined ? 1 : Number(c[3]),
          });
        else if (rp) pieces.push({ kind: 'repeat', text: m[1], range: r, rep: Number(rp[1]), glued });
        else pieces.push({ kind: 'bad', text: m[1], range: r });
      }
    }
    // Tree of groups.
    type Node = { token: number } | { group: Node[]; rep: number };
    const stack: { nodes: Node[]; open: Range | null }[] = [{ nodes: [], open: null }];
    for (let i = 0; i < pieces.length; i++) {
      const p = pieces[i];
      const top = stack[stack.length - 1];
      if (p.kind === 'bad') {
        this.report(
          'error',
          p.range,
          'bad-component',
          `'${clip(p.text)}' is not a component: write N for a chain of N boxes, Nl for a loop, with ^n to repeat (e.g. 3 + 4l + 6l^2)`,
        );
      } else if (p.kind === 'open') {
        if (stack.length > 32) {
          this.report('error', p.range, 'bad-component', 'parentheses nested too deeply');
          continue;
        }
        stack.push({ nodes: [], open: p.range });
      } else if (p.kind === 'close') {
        if (stack.length === 1) {
          this.report('error', p.range, 'bad-component', "unmatched ')'");
          continue;
        }
        stack.pop();
        let rep = 1;
        const nx = pieces[i + 1];
        if (nx && nx.kind === 'repeat' && nx.glued) {
          rep = nx.rep!;
          i++;
        }
        if (rep === 0) this.report('error', nx!.range, 'bad-component', 'a repeat count must be at least 1');
        stack[stack.length - 1].nodes.push({ group: top.nodes, rep: Math.max(1, rep) });
      } else if (p.kind === 'repeat') {
        this.report(
          'error',
          p.range,
          'bad-component',
          'a repeat (^n) must follow a component or a closing parenthesis without a space, e.g. 6l^9',
        );
      } else {
        if (p.rep === 0) {
          this.report('error', p.range, 'bad-component', 'a repeat count must be at least 1');
          continue;
        }
        const tok: ComponentToken = {
          text: p.text,
          range: p.range,
          kind: p.loop ? 'loop' : 'chain',
          size: p.size!,
          repeat: p.rep!,
        };
        f.tokens.push(tok);
        const node: Node = { token: f.tokens.length - 1 };
        top.nodes.push(p.rep === 1 ? node : { group: [node], rep: p.rep! });
      }
    }
    while (stack.length > 1) {
      const s = stack.pop()!;
      this.report('error', s.open!, 'bad-component', "unmatched '(': add ')'");
      stack[stack.length - 1].nodes.push({ group: s.nodes, rep: 1 });
    }
    // Count, then expand (guarding against huge repeats).
    const count = (nodes: Node[]): number => {
      let c = 0;
      for (const nd of nodes) {
        c += 'token' in nd ? 1 : nd.rep * count(nd.group);
        if (c > MAX_COMPONENTS) return Infinity;
      }
      return c;
    };
    const total = count(stack[0].nodes);
    const markRepeat = (nodes: Node[], m: number): void => {
      for (const nd of nodes) {
        if ('token' in nd) f.tokens[nd.token].repeat = m;
        else markRepeat(nd.group, nd.rep * m);
      }
    };
    markRepeat(stack[0].nodes, 1);
    if (total > MAX_COMPONENTS) {
      this.report(
        'error',
        f.tokens.length ? span(f.tokens[0].range, f.tokens[f.tokens.length - 1].range) : base.keywordRange,
        'bad-component',
        `too many components (more than ${MAX_COMPONENTS} after repeats)`,
      );
      return f;
    }
    const expand = (nodes: Node[], out: ExpandedComponent[]): void => {
      for (const nd of nodes) {
        if ('token' in nd) {
          const t = f.tokens[nd.token];
          out.push({ kind: t.kind, size: t.size, token: nd.token });
        } else {
          for (let r = 0; r < nd.rep; r++) expand(nd.group, out);
        }
      }
    };
    expand(stack[0].nodes, f.components);
    if (f.components.length === 0 && !pieces.some((p) => p.kind === 'bad')) {
      this.report(
        'error',
        base.keywordRange,
        'bad-component',
        'components needs at least one chain or loop, e.g. components 3 + 4l',
      );
    }
    return f;
  }

  private playField(base: FieldBase, toks: RawToken[]): PlayField {
    const f: PlayField = { ...base, steps: [] };
    let last: PlayStep | null = null;
    for (const t of toks) {
      if (t.type === 'comment') {
        if (last) {
          last.comment = last.comment === null ? t.text : `${last.comment} ${t.text}`;
          last.commentRange = last.commentRange === null ? t.range : span(last.commentRange, t.range);
        }
        continue;
      }
      if (t.type !== 'word') {
        this.report(
          'error',
          t.range,
          'bad-play',
          `unexpected '${clip(t.text)}' in play: write steps like 3:keep 4l:all 3`,
        );
        last = null;
        continue;
      }
      const dec = /^:?(keep|all)$/i.exec(t.text);
      if (dec) {
        if (last && last.decision === null) {
          last.decision = dec[1].toLowerCase() as 'keep' | 'all';
          last.decisionRange = t.range;
          last.text = `${last.text}:${last.decision}`;
          last.range = span(last.range, t.range);
        } else {
          this.report(
            'error',
            t.range,
            'bad-play',
            `'${t.text}' must follow a component, e.g. 3:${dec[1].toLowerCase()}`,
          );
        }
        continue;
      }
      const m = /^(\d{1,9})([lLℓ]?)(?::([A-Za-z]*))?$/.exec(t.text);
      if (!m) {
        this.report(
          'error',
          t.range,
          'bad-play',
          `'${clip(t.text)}' is not a play step: write the component opened (3, 4l), optionally with :keep or :all`,
        );
        last = null;
        continue;
      }
      const nameLen = m[1].length + m[2].length;
      const step: PlayStep = {
        text: t.text,
        range: t.range,
        name: t.text.slice(0, nameLen),
        nameRange: sub(t.range, 0, nameLen),
        component: { kind: m[2] ? 'loop' : 'chain', size: Number(m[1]) },
        decision: null,
        decisionRange: null,
        comment: null,
        commentRange: null,
      };
      if (m[3] !== undefined) {
        const d = m[3].toLowerCase();
        const dr = sub(t.range, nameLen + 1, t.text.length);
        if (d === 'keep' || d === 'all') {
          step.decision = d;
          step.decisionRange = dr;
        } else
          this.report(
            'error',
            m[3] ? dr : sub(t.range, nameLen, nameLen + 1),
            'bad-play',
            `after ':' write keep (the controller keeps control) or all (takes everything)`,
          );
      }
      f.steps.push(step);
      last = step;
    }
    return f;
  }

  // ----- entries ----------------------------------------------------------------------------

  private finishEntry(): void {
    const b = this.cur;
    if (!b) return;
    this.cur = null;
    const e = b.entry;
    e.range = range(e.headerRange.line, e.headerRange.character, b.lastLine, b.lastEnd);
    if (b.implicit) {
      const kind: EntryKind = e.components || e.play ? 'endgame' : e.moves ? 'game' : 'position';
      e.kind = kind;
      const d: Diagnostic = {
        severity: 'warning',
        range: e.headerRange,
        code: 'missing-header',
        message: `no entry header: these fields are read as an untitled ${kind}; start the entry with a header line such as ${kind} "title"`,
      };
      this.diagnostics.push(d);
      e.diagnostics.push(d);
    }
    const push = (r: Range, code: string, msg: string): void => {
      const d: Diagnostic = { severity: 'error', range: r, code, message: msg };
      this.diagnostics.push(d);
      e.diagnostics.push(d);
    };
    // Fields not allowed in this kind of entry.
    for (const fl of e.fields) {
      const name = fl.keyword.toLowerCase();
      if (e.kind === 'endgame' && NOT_IN_ENDGAME.has(name)) {
        push(
          fl.keywordRange,
          'field-not-allowed',
          `an endgame lists components, not a board: '${name}' belongs in a game or position entry`,
        );
        (e as unknown as Record<string, unknown>)[name] = null;
      } else if (e.kind !== 'endgame' && ONLY_IN_ENDGAME.has(name)) {
        push(
          fl.keywordRange,
          'field-not-allowed',
          `'${name}' belongs in an endgame entry (abstract chains and loops), not in a ${e.kind}`,
        );
        (e as unknown as Record<string, unknown>)[name] = null;
      }
    }
    // Resolve tomove against the players.
    if (e.tomove && e.tomove.text !== null) {
      const names: [string, string] = e.players?.names ?? ['A', 'B'];
      const p = resolvePlayer(e.tomove.text, names);
      if (p === null) {
        push(
          e.tomove.valueRange!,
          'bad-tomove',
          `'${clip(e.tomove.text)}' is not a player here: write ${names.map((x) => `"${x}"`).join(' or ')}, first or second`,
        );
      }
      e.tomove.player = p;
    }
    this.entries.push(e);
  }
}

// ---------------------------------------------------------------------------------------------
// Helpers

function newEntry(kind: EntryKind, implicit: boolean, header: Range, kw: Range): Entry {
  return {
    kind,
    title: null,
    implicit,
    range: header,
    headerRange: header,
    keywordRange: kw,
    titleRange: null,
    size: null,
    players: null,
    tomove: null,
    score: null,
    lines: null,
    diagram: null,
    moves: null,
    components: null,
    play: null,
    value: null,
    tags: [],
    fields: [],
    diagnostics: [],
  };
}

function collapse(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

function clip(s: string, n = 40): string {
  return s.length > n ? `${s.slice(0, n)}…` : s;
}

function byRange(a: Diagnostic, b: Diagnostic): number {
  return a.range.line - b.range.line || a.range.character - b.range.character;
}

/** A word of letters (and - or _) at `f`, for keyword detection; undefined when the line does not start with one. */
function leadingWord(t: string, f: number): string | undefined {
  let k = f;
  const c0 = t.charCodeAt(k);
  if (!((c0 >= 65 && c0 <= 90) || (c0 >= 97 && c0 <= 122))) return undefined;
  k++;
  while (k < t.length) {
    const c = t.charCodeAt(k);
    if ((c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 45 || c === 95) k++;
    else break;
  }
  const next = t[k];
  if (next === undefined || isSpace(next) || next === ':' || next === '#' || next === '"' || next === '{')
    return t.slice(f, k);
  return undefined;
}

function isBareWord(t: string, f: number, word: string): boolean {
  const next = t[f + word.length];
  return next === undefined || isSpace(next) || next === ':' || next === '#' || next === '"' || next === '{';
}

function countValues(toks: RawToken[]): number {
  let n = 0;
  for (const t of toks) if (t.type !== 'comment') n++;
  return n;
}

function skipTo(toks: RawToken[], k: number, text: string): number {
  while (k < toks.length && !(toks[k].type === 'punct' && toks[k].text === text)) {
    if (toks[k].type === 'punct' && toks[k].text === '[') return k;
    k++;
  }
  return k + 1;
}

function isBlankOrComment(s: string): boolean {
  const f = firstNonSpace(s);
  return f < 0 || s[f] === '#';
}

/** A line that looks like a dot row: starts with a dot and holds only dots, '-', spaces (and a trailing # note). */
export function dotRowLike(s: string): boolean {
  const f = firstNonSpace(s);
  if (f < 0 || !DOT_CHARS.includes(s[f])) return false;
  for (let k = f; k < s.length; k++) {
    const c = s[k];
    if (c === '#') return true;
    if (!(DOT_CHARS.includes(c) || c === '-' || isSpace(c))) return false;
  }
  return true;
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

export interface MoveWordPart {
  text: string;
  start: number;
  end: number;
  form: MoveToken['form'];
}

/** Split a written move (or glued littlegolem codes) into moves; undefined when it is not a move. */
export function splitMoveWord(s: string): MoveWordPart[] | undefined {
  if (/^[a-zA-Z][0-9]{1,2}-[a-zA-Z][0-9]{1,2}$/.test(s)) return [{ text: s, start: 0, end: s.length, form: 'dots' }];
  if (/^[a-zA-Z][0-9]{1,2}[a-zA-Z][0-9]{1,2}$/.test(s)) return [{ text: s, start: 0, end: s.length, form: 'compact' }];
  if (s.length % 3 === 0 && /^(?:[hvHV][a-zA-Z][a-zA-Z])+$/.test(s)) {
    const out: MoveWordPart[] = [];
    for (let c = 0; c < s.length; c += 3)
      out.push({ text: s.slice(c, c + 3), start: c, end: c + 3, form: 'littlegolem' });
    return out;
  }
  return undefined;
}

/** Resolve a `tomove` word: a name, then first/second/1/2, then a unique initial, then A/B. */
export function resolvePlayer(text: string, names: [string, string]): 0 | 1 | null {
  if (text === names[0]) return 0;
  if (text === names[1]) return 1;
  const low = text.toLowerCase();
  const l0 = names[0].toLowerCase(),
    l1 = names[1].toLowerCase();
  if (low === l0 && low !== l1) return 0;
  if (low === l1 && low !== l0) return 1;
  if (low === 'first' || low === '1' || low === '1st') return 0;
  if (low === 'second' || low === '2' || low === '2nd') return 1;
  if ([...low].length === 1) {
    const i0 = initialOf(names[0]).toLowerCase(),
      i1 = initialOf(names[1]).toLowerCase();
    if (low === i0 && low !== i1) return 0;
    if (low === i1 && low !== i0) return 1;
    if (low === 'a') return 0;
    if (low === 'b') return 1;
  }
  return null;
}

/** A player's initial: the first character (code point) of the name. */
export function initialOf(name: string): string {
  const c = name.trim().codePointAt(0);
  return c === undefined ? '' : String.fromCodePoint(c);
}

function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 3) return 99;
  const dp = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = dp[0];
    dp[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = dp[j];
      dp[j] = Math.min(dp[j] + 1, dp[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = tmp;
    }
  }
  return dp[b.length];
}

const ALIASES: Record<string, string> = {
  'to-move': 'tomove',
  to_move: 'tomove',
  turn: 'tomove',
  player: 'players',
  component: 'components',
  move: 'moves',
  line: 'lines',
  board: 'diagram',
};

function suggest(word: string, options: readonly string[]): string | undefined {
  if (word.length > 40) return undefined;
  if (ALIASES[word]) return ALIASES[word];
  let best: string | undefined,
    bd = 3;
  for (const o of options) {
    const d = editDistance(word, o);
    if (d < bd && d <= Math.max(1, Math.floor(o.length / 3))) {
      bd = d;
      best = o;
    }
  }
  return best;
}

/** Parse a `.dab` document. Never throws; every problem is a diagnostic with an exact range. */
export function parseDab(text: string): ParseResult {
  return new Parser(text).run();
}
