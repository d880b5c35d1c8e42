/**
 * The parser of the `.dab` notation: line-oriented, with error recovery and exact ranges. It walks
 * the lines, decides what each one starts (an entry header, a tag line, a field, a continuation),
 * hands the field's tokens to its reader, and caps the diagnostics. One bad line never hides the
 * rest. Linear in the size of the input (no backtracking regexes over whole lines), so hostile
 * files parse quickly. See docs/notation.md for the grammar.
 *
 * The pieces: tokens.ts (lexer), diagram.ts, fields.ts (one-line board fields), moves.ts,
 * endgameFields.ts (components, play), entries.ts (header, tags, end-of-entry checks), names.ts.
 */
import type { ByteCheck, Diagnostic, Entry, EntryKind, FieldBase, ParseResult, Range, Severity, Tag } from './ast';
import { oddSpaceIn, readDiagram } from './diagram';
import { componentsField, playField } from './endgameFields';
import { checkEntry, newEntry, readHeader, readTags } from './entries';
import { linesField, playersField, scoreField, sizeField, tomoveField, valueField, type FieldContext } from './fields';
import { movesField } from './moves';
import { ENTRY_KINDS, FIELD_NAMES, suggest, type FieldName } from './names';
import {
  NOT_UTF8_BUT_UTF16,
  NUL_NOT_TEXT,
  byRange,
  firstNonSpace,
  isSpace,
  looksUtf16,
  range,
  span,
  tooManyProblems,
  trimmedEnd,
} from './text';
import { countValues, isHeaderRest, isQuote, Lexer, newSink, type RawToken, type Sink } from './tokens';
import { isMoveWord } from './moves';

import { MAX_DIAGNOSTICS, MAX_FILE_COMPONENTS } from '../limits';

/** Line ends as editors count them. */
const LINE_BREAK = /\r\n|\r|\n/;

const FIELD_SET = new Set<string>(FIELD_NAMES);
const HEADER_SET = new Set<string>(ENTRY_KINDS);

/** Every field but the diagram (which reads whole lines itself) is read from its tokens. */
const FIELD_READERS: {
  [K in Exclude<FieldName, 'diagram'>]: (cx: FieldContext, base: FieldBase, toks: RawToken[]) => NonNullable<Entry[K]>;
} = {
  size: sizeField,
  players: playersField,
  tomove: tomoveField,
  score: scoreField,
  lines: linesField,
  moves: movesField,
  components: componentsField,
  play: playField,
  value: valueField,
};

/** The field being read: a known one, an unknown keyword (already reported), or text without a keyword. */
interface FieldBuilder {
  name: FieldName | 'unknown' | 'none';
  keyword: string;
  keywordRange: Range;
  /** The keyword and the ':' written right after it, if any: where a field with no value ends. */
  headRange: Range;
  sink: Sink;
}

interface EntryBuilder {
  entry: Entry;
  /** Fields before any header form an implicit entry, whose kind is decided at its end. */
  implicit: boolean;
  /** The entry's last non-blank line and where its text ends. */
  lastLine: number;
  lastEnd: number;
  /** The first keyword range of each field seen (for duplicates). */
  seen: Map<string, Range>;
}

class Parser {
  readonly lines: string[];
  readonly diagnostics: Diagnostic[] = [];
  readonly entries: Entry[] = [];
  private readonly lexer: Lexer;
  private readonly cx: FieldContext;
  private capped = false;
  private cur: EntryBuilder | null = null;
  private field: FieldBuilder | null = null;
  /** The diagram just read, stored when its field finishes. */
  private diagramField: Entry['diagram'] = null;
  /** Set right after a diagram, so a stray diagram-like line gets a diagram message. */
  private afterDiagram = false;
  /** Tags written before the first header, given to the first entry. */
  private pendingTags: Tag[] = [];
  /**
   * The diagnostics of the field being read, reported when it ends in text order: its lexer reports
   * a later line before its reader reports an earlier one, and when the cap is reached the
   * diagnostics shown must be the first ones of the file.
   */
  private held: Diagnostic[] | null = null;

  /** Where the first byte that was not UTF-8 is (ReadOptions.bytes), if the reader said. */
  private firstBadByte: { line: number; ch: number } | null = null;
  /** Where the first entry past `maxEntries` starts (its header word), when the parser stopped there. */
  private unreadFrom: Range | null = null;

  constructor(
    text: string,
    private readonly maxEntries = Infinity,
    /** What the reader found of the bytes (ReadOptions.bytes); null: a U+FFFD may be a bad byte. */
    private readonly bytes: ByteCheck | null = null,
  ) {
    this.lines = text.split(LINE_BREAK);
    if (bytes && bytes.firstBad >= 0) {
      const before = text.slice(0, bytes.firstBad).split(LINE_BREAK);
      this.firstBadByte = { line: before.length - 1, ch: before[before.length - 1].length };
    }
    const report = this.report.bind(this);
    this.lexer = new Lexer(this.lines, report);
    this.cx = { report, lines: this.lines, componentsLeft: MAX_FILE_COMPONENTS };
  }

  report(severity: Severity, r: Range, code: string, message: string): void {
    if (this.capped) return;
    const held = this.held;
    if (held) {
      held.push({ severity, range: r, code, message });
      // only the first MAX_DIAGNOSTICS (and one more, for the 'too many' line) can be shown
      if (held.length > 4 * MAX_DIAGNOSTICS) {
        held.sort(byRange);
        held.length = MAX_DIAGNOSTICS + 1;
      }
      return;
    }
    this.emit(severity, r, code, message);
  }

  /** Start holding the diagnostics of the field being read (see `held`). */
  private hold(): void {
    this.held ??= [];
  }

  /** Report the held diagnostics in text order. */
  private release(): void {
    const held = this.held;
    this.held = null;
    if (!held) return;
    held.sort(byRange);
    for (const d of held) this.emit(d.severity, d.range, d.code, d.message);
  }

  private emit(severity: Severity, r: Range, code: string, message: string): void {
    if (this.capped) return;
    if (this.diagnostics.length >= MAX_DIAGNOSTICS) {
      this.capped = true;
      this.diagnostics.push({
        severity: 'information',
        range: r,
        code: 'too-many-diagnostics',
        message: tooManyProblems(MAX_DIAGNOSTICS),
      });
      return;
    }
    const d: Diagnostic = { severity, range: r, code, message };
    this.diagnostics.push(d);
    if (this.cur) this.cur.entry.diagnostics.push(d);
  }

  run(): ParseResult {
    const L = this.lines;
    const n = L.length;
    if (this.checkEncoding()) return { entries: [], diagnostics: this.diagnostics };
    let carry: Sink | null = null;
    let i = 0;
    while (i < n) {
      const t = L[i];
      if (carry) {
        this.touch(i, t);
        if (!this.lexer.lex(t, i, 0, carry)) carry = null;
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
        if (this.full(i, f, word)) break;
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
        const after = f + word.length + (t[f + word.length] === ':' ? 1 : 0);
        const fb = this.startField(lower as FieldName, word, i, f, after);
        if (lower === 'diagram') {
          const header = newSink();
          this.lexer.lexLine(t, i, after, header);
          const read = readDiagram(
            { lines: L, report: this.cx.report, touch: (ln, s) => this.touch(ln, s) },
            i + 1,
            word,
            fb.keywordRange,
            header.tokens,
          );
          this.diagramField = read.field;
          i = read.next;
          this.finishField();
          this.afterDiagram = true;
          continue;
        }
        if (this.lexer.lex(t, i, after, fb.sink)) carry = fb.sink;
        i++;
        continue;
      }
      if (word && isBareWord(t, f, word) && !this.continues(word, t, f)) {
        const guess = suggest(lower, KEYWORDS);
        if (guess !== undefined && HEADER_SET.has(guess) && this.headerLike(t, f, word)) {
          // a misspelt header (`gmae "b"`): read as the header it most likely is, so that its
          // fields are not taken for the previous entry's and the entry is not lost
          if (this.full(i, f, word)) break;
          this.finishField();
          this.finishEntry();
          this.afterDiagram = false;
          this.startEntry(i, f, word, guess as EntryKind);
          this.report(
            'error',
            range(i, f, i, f + word.length),
            'bad-header',
            `unknown entry keyword '${word}': did you mean '${guess}'? It is read as ${guess === 'endgame' ? 'an' : 'a'} ${guess} header`,
          );
          i++;
          continue;
        }
        if (!this.cur) {
          this.outside(i, f, t);
          i++;
          continue;
        }
        const interrupted = this.field?.name;
        this.finishField();
        this.afterDiagram = false;
        this.touch(i, t);
        const after = f + word.length + (t[f + word.length] === ':' ? 1 : 0);
        const fb = this.startField('unknown', word, i, f, after);
        const skipped =
          interrupted === 'moves' || interrupted === 'lines'
            ? `it ends the ${interrupted} field above, so the text after it is not read as ${interrupted} (nor anything up to the next field)`
            : 'its value is not read (nor anything up to the next field)';
        this.report(
          'error',
          fb.keywordRange,
          'unknown-field',
          `unknown field '${word}'` +
            (guess ? `: did you mean '${guess}'? ` : '; ') +
            skipped +
            (guess ? '' : `; fields are ${FIELD_NAMES.join(', ')} and [Tag "text"]`),
        );
        if (this.lexer.lex(t, i, after, fb.sink)) carry = fb.sink;
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
        const odd = this.afterDiagram ? oddSpaceIn(t) : null;
        if (odd && /[|+oO.*-]/.test(t[f])) {
          this.report('error', range(i, odd.at, i, odd.at + 1), 'bad-diagram', odd.message);
          i++;
          continue;
        }
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
        this.hold();
        this.field = {
          name: 'none',
          keyword: '',
          keywordRange: range(i, f, i, f),
          headRange: range(i, f, i, f),
          sink: newSink(),
        };
      }
      if (this.lexer.lex(t, i, 0, this.field.sink)) carry = this.field.sink;
      i++;
    }
    this.finishField();
    this.finishEntry();
    for (const tag of this.pendingTags)
      this.report('warning', tag.range, 'bad-tag', 'tag outside any entry: tags belong to an entry (after its header)');
    this.diagnostics.sort(byRange);
    return {
      entries: this.entries,
      diagnostics: this.diagnostics,
      ...(this.unreadFrom ? { unreadFrom: this.unreadFrom } : {}),
    };
  }

  /**
   * Whether the entry whose header starts at (i, f) is one past `maxEntries`: then it and the rest
   * of the text are not read (the caller stops), and `unreadFrom` says where.
   */
  private full(i: number, f: number, word: string): boolean {
    if (this.entries.length + (this.cur ? 1 : 0) < this.maxEntries) return false;
    this.unreadFrom = range(i, f, i, f + word.length);
    return true;
  }

  /** A field whose keyword `word` starts at column f of line i and whose value starts at column `after`. */
  private startField(name: FieldBuilder['name'], word: string, i: number, f: number, after: number): FieldBuilder {
    this.hold();
    this.field = {
      name,
      keyword: word,
      keywordRange: range(i, f, i, f + word.length),
      headRange: range(i, f, i, after),
      sink: newSink(name === 'moves'),
    };
    return this.field;
  }

  /** Whether a bare word at the start of line `t` (column f) continues the current field rather than starting an unknown one. */
  private continues(word: string, t: string, f: number): boolean {
    const fb = this.field;
    if (!fb) return false;
    if (fb.name === 'moves' || fb.name === 'lines') {
      if (/^(?:[hv][a-z][a-z])+$/i.test(word)) return true;
      // A stray word among the moves (`foo b1-c1 c1-d1`, `b`) is a bad move, and the moves after it
      // are read; a word written like a keyword (close to one, or followed by ':') starts a field.
      if (t[f + word.length] === ':' || suggest(word.toLowerCase(), KEYWORDS) !== undefined) return false;
      return word.length <= 2 || movesFollow(t, f + word.length);
    }
    if (fb.name === 'players') return countValues(fb.sink.tokens) < 2;
    if (fb.name === 'tomove') return countValues(fb.sink.tokens) === 0;
    if (fb.name === 'play') return /^(?:keep|all)$/i.test(word);
    return false;
  }

  /**
   * Whether line `t`, starting with `word` at column f, reads like an entry header: nothing after the
   * word but an optional ':', a quoted title and a # comment, and not indented more than the
   * current entry's header (fields are usually indented below it).
   */
  private headerLike(t: string, f: number, word: string): boolean {
    if (this.cur && f > this.cur.entry.keywordRange.character) return false;
    return isHeaderRest(t.slice(f + word.length));
  }

  /**
   * A file that is not UTF-8 (its text is decoded already): report it at the first sign, U+FFFD (a
   * byte that was not UTF-8) or U+0000. A UTF-16 text (every other character NUL) is not read
   * further; returns true then.
   */
  private checkEncoding(): boolean {
    const L = this.lines;
    // with the bytes checked, only NULs are looked for here: the reader said where the bad bytes are
    const checked = this.bytes !== null;
    let at: { line: number; ch: number; c: string } | null = null;
    let bad = this.bytes?.bad ?? 0;
    for (let i = 0; i < L.length; i++) {
      const l = L[i];
      if ((checked || l.indexOf('\ufffd') < 0) && l.indexOf('\u0000') < 0) continue;
      for (let c = 0; c < l.length; c++) {
        const ch = l[c];
        if ((checked || ch !== '\ufffd') && ch !== '\u0000') continue;
        bad++;
        at ??= { line: i, ch: c, c: ch };
      }
    }
    const b = this.firstBadByte;
    if (b && (!at || b.line < at.line || (b.line === at.line && b.ch < at.ch))) at = { ...b, c: '\ufffd' };
    if (!at) return false;
    // the start of the text, lines joined again (a UTF-16 newline is "\n\0": split, the NUL would
    // start the next line, and a short or blank first line says nothing alone)
    let head = '';
    for (let i = 0; i < L.length && head.length < 400; i++) head += (i > 0 ? '\n' : '') + L[i].slice(0, 400);
    if (looksUtf16(head)) {
      // the byte-order mark FF FE (or FE FF) was read as two U+FFFD
      const bom = L[0].startsWith('\ufffd\ufffd') ? 2 : 1;
      this.report('error', range(0, 0, 0, Math.min(bom, L[0].length)), 'bad-encoding', NOT_UTF8_BUT_UTF16);
      return true;
    }
    const more = bad > 1 ? `; ${bad} such characters in the file` : '';
    this.report(
      'error',
      range(at.line, at.ch, at.line, at.ch + 1),
      'bad-encoding',
      at.c === '\ufffd'
        ? `the file is not UTF-8: a byte here is not UTF-8 and is read as \ufffd (for example an 'é' saved as Latin-1 or Windows-1252)${more}; save the file as UTF-8`
        : `${NUL_NOT_TEXT}${more}; save it as UTF-8`,
    );
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

  /** Line `i` belongs to the current entry: extend the entry's range to its end. */
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
    const entry = newEntry(kind, false, range(i, f, i, trimmedEnd(t)), range(i, f, i, f + word.length));
    this.cur = { entry, implicit: false, lastLine: i, lastEnd: trimmedEnd(t), seen: new Map() };
    const sink = newSink();
    // `game: "title"` (or `game : "title"`, as a header line ending a comment has it): the ':' is allowed
    const k = firstNonSpace(t, f + word.length);
    this.lexer.lexLine(t, i, k >= 0 && t[k] === ':' ? k + 1 : f + word.length, sink);
    readHeader(this.cx.report, entry, t, word, sink.tokens);
    this.takePendingTags(entry, `the ${kind} entry below`);
  }

  /** Fields before the first header form an implicit entry, whose kind is decided at its end. */
  private ensureEntry(i: number, f: number): void {
    if (this.cur) return;
    const t = this.lines[i];
    const entry = newEntry('position', true, range(i, f, i, trimmedEnd(t)), range(i, f, i, f));
    this.cur = { entry, implicit: true, lastLine: i, lastEnd: trimmedEnd(t), seen: new Map() };
    this.takePendingTags(entry, 'the untitled entry below');
  }

  /** Tags written before the first header go to the first entry, each with a warning saying so. */
  private takePendingTags(entry: Entry, which: string): void {
    for (const tag of this.pendingTags) {
      this.report(
        'warning',
        tag.range,
        'bad-tag',
        `tag before the first header: it is read as part of ${which}; put tags after the header`,
      );
      entry.tags.push(tag); // one by one, not push(...): there may be 100,000s
    }
    this.pendingTags = [];
  }

  private tagLine(i: number, f: number): void {
    const t = this.lines[i];
    const sink = newSink();
    this.lexer.lexLine(t, i, f, sink);
    if (this.cur) this.touch(i, t);
    readTags(this.cx.report, sink.tokens, (tag) => {
      if (this.cur) this.cur.entry.tags.push(tag);
      else this.pendingTags.push(tag);
    });
  }

  private finishField(): void {
    this.readField();
    this.release();
  }

  private readField(): void {
    const fb = this.field;
    this.field = null;
    if (!fb) return;
    const ent = this.cur;
    if (!ent) return;
    const toks = fb.sink.tokens;
    if (fb.name === 'unknown') return;
    if (fb.name === 'none') {
      this.strayText(toks);
      return;
    }
    const e = ent.entry;
    const prev = ent.seen.get(fb.name);
    if (prev !== undefined) {
      this.report(
        'error',
        fb.keywordRange,
        'duplicate-field',
        `duplicate field '${fb.name}' (first given on line ${prev.line + 1}); this one is ignored`,
      );
    } else ent.seen.set(fb.name, fb.keywordRange);
    let v: FieldBase;
    if (fb.name === 'diagram') {
      v = storeField(e, 'diagram', this.diagramField!, prev === undefined);
      this.diagramField = null;
    } else {
      const last = toks.length ? toks[toks.length - 1].range : fb.headRange;
      const base: FieldBase = {
        keyword: fb.keyword,
        keywordRange: fb.keywordRange,
        range: span(fb.keywordRange, last),
      };
      v = storeField(e, fb.name, FIELD_READERS[fb.name](this.cx, base, toks), prev === undefined);
    }
    e.fields.push(v);
  }

  /** Continuation text without a field: one error per line with non-comment tokens. */
  private strayText(toks: RawToken[]): void {
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
  }

  private finishEntry(): void {
    const b = this.cur;
    if (!b) return;
    this.cur = null;
    const e = b.entry;
    e.range = range(e.headerRange.line, e.headerRange.character, b.lastLine, b.lastEnd);
    // The entry always keeps these (its analysis reads them); the file's list keeps to its cap,
    // since a file of 500,000 entries has 500,000 of them.
    const push = (severity: Severity, r: Range, code: string, message: string): void => {
      const d: Diagnostic = { severity, range: r, code, message };
      if (this.diagnostics.length < MAX_DIAGNOSTICS) this.diagnostics.push(d);
      else this.report(severity, r, code, message); // the one 'too-many-diagnostics' line, once
      e.diagnostics.push(d);
    };
    if (b.implicit) {
      const kind: EntryKind = e.components || e.play ? 'endgame' : e.moves ? 'game' : 'position';
      e.kind = kind;
      push(
        'warning',
        e.headerRange,
        'missing-header',
        `no entry header: these fields are read as an untitled ${kind}; start the entry with a header line such as ${kind} "title"`,
      );
    }
    checkEntry(e, (r, code, message) => push('error', r, code, message));
    this.entries.push(e);
  }
}

/** Field names and entry keywords: what a misspelt keyword may stand for. */
const KEYWORDS: readonly string[] = [...FIELD_NAMES, ...ENTRY_KINDS];

/** Whether the text of `t` from `from` holds a move (`b1-c1`, `12.a1-b1!`, `haa`) before any '#'. */
function movesFollow(t: string, from: number): boolean {
  const hash = t.indexOf('#', from);
  const words = t.slice(from, hash < 0 ? t.length : hash).split(/[\s,;(){}[\]]+/);
  return words.some(isMoveWord);
}

/** Store a field read for the first time (a duplicate is read, reported, and kept only in `fields`). */
function storeField<K extends keyof Entry>(e: Entry, name: K, v: Entry[K] & FieldBase, store: boolean): FieldBase {
  if (store) e[name] = v;
  return v;
}

/** A word of letters (and - or _) at `f`, for keyword detection; undefined when the line does not start with one. */
function leadingWord(t: string, f: number): string | undefined {
  // any script's letters (and their combining marks): `größe 3` is an unknown field as `grosse 3` is
  LEADING_WORD.lastIndex = f;
  const m = LEADING_WORD.exec(t);
  return m !== null && isBareWord(t, f, m[0]) ? m[0] : undefined;
}
const LEADING_WORD = /\p{L}[\p{L}\p{M}_-]*/uy;

/** Whether the word at `f` stands alone: followed by the end, a space, ':', '#', a quote or '{'. */
function isBareWord(t: string, f: number, word: string): boolean {
  const next = t[f + word.length];
  return next === undefined || isSpace(next) || next === ':' || next === '#' || isQuote(next) || next === '{';
}

/**
 * Parse a `.dab` document. Never throws; every problem is a diagnostic with an exact range. With
 * `maxEntries`, the entries past it and the text after them are not read (ParseResult.unreadFrom):
 * a file of a million bare headers would otherwise hold a million entries.
 */
export function parseDab(text: string, maxEntries = Infinity, bytes?: ByteCheck): ParseResult {
  return new Parser(text, maxEntries, bytes ?? null).run();
}
