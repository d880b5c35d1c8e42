/**
 * The reader of the `moves` field: move numbers (`12.`, `12...`), moves in three spellings
 * (`a1-b1`, `a1b1`, littlegolem `haa`), annotation glyphs, brace comments attached to the move
 * before them, and littlegolem turn brackets (`;b[hdbhae]`).
 */
import type { FieldBase, Glyph, LittlegolemTurn, MoveToken, MovesField, Range } from './ast';
import { clip, span, sub, type Report } from './text';
import type { RawToken } from './tokens';

const GLYPHS = new Set(['!', '?', '!!', '??', '!?', '?!']);

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

export function movesField(cx: { report: Report }, base: FieldBase, toks: RawToken[]): MovesField {
  return new MovesReader(cx.report, base).read(toks);
}

class MovesReader {
  private readonly f: MovesField;
  /** A move number waiting for its move. */
  private pendingNumber: { n: number; r: Range } | null = null;
  /** The move that glyphs and comments attach to; null once something else intervenes. */
  private attach: MoveToken | null = null;

  constructor(
    private readonly report: Report,
    base: FieldBase,
  ) {
    this.f = { ...base, moves: [], turns: [], comments: [] };
  }

  read(toks: RawToken[]): MovesField {
    const f = this.f;
    let k = 0;
    while (k < toks.length) {
      const t = toks[k];
      if (t.type === 'comment') {
        f.comments.push({ text: t.text, range: t.range });
        if (this.attach) {
          const a = this.attach;
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
        this.attach = null;
        k++;
        continue;
      }
      if (t.type === 'punct') {
        if (t.text === '(' || t.text === ')') {
          k++;
          continue;
        }
        if (t.text === ';') {
          this.attach = null;
          k++;
          continue;
        }
        this.report('error', t.range, 'syntax', `unexpected '${t.text}' in the move list`);
        this.attach = null;
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
        k = this.turn(toks, k);
        continue;
      }
      this.word(t);
      k++;
    }
    return f;
  }

  private pushMove(text: string, r: Range, form: MoveToken['form'], turn: number | null): MoveToken {
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
    if (this.pendingNumber) {
      m.number = this.pendingNumber.n;
      m.numberRange = this.pendingNumber.r;
      this.pendingNumber = null;
    }
    this.f.moves.push(m);
    this.attach = m;
    return m;
  }

  /** A littlegolem property `x[...]` whose letter is at `k`; returns the index after it. */
  private turn(toks: RawToken[], k: number): number {
    const f = this.f;
    const t = toks[k];
    const nx = toks[k + 1];
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
    this.attach = null;
    if (!closed) this.report('error', whole, 'bad-turn', `unterminated turn '${t.text}[': add ']'`);
    if (letter !== 'b' && letter !== 'r') {
      this.report('information', whole, 'bad-turn', `littlegolem/SGF property '${t.text}' is ignored`);
      return m;
    }
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
        this.pushMove(x.text.slice(c, c + 3), sub(x.range, c, c + 3), 'littlegolem', ti);
        turn.moves.push(f.moves.length - 1);
      }
      this.attach = null;
    }
    if (closed && !inner.some((x) => x.type !== 'comment'))
      this.report('error', whole, 'bad-turn', 'empty turn: a littlegolem turn holds at least one move');
    return m;
  }

  /** A word of the move list: an optional move number, a move (or glued codes), an optional glyph. */
  private word(t: RawToken): void {
    let s = t.text;
    let off = 0;
    const num = /^(\d+)(\.+)/.exec(s);
    if (num) {
      const n = num[1].length > 9 ? Infinity : Number(num[1]);
      const r = sub(t.range, 0, num[0].length);
      if (!Number.isFinite(n) || n < 1) this.report('warning', r, 'syntax', 'a move number counts from 1');
      this.pendingNumber = { n, r };
      this.attach = null;
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
        this.attach = null;
        return;
      }
      for (const p of split) this.pushMove(p.text, sub(t.range, off + p.start, off + p.end), p.form, null);
    }
    if (glyph) {
      const r = sub(t.range, off + g, off + s.length);
      const a = this.attach;
      if (!GLYPHS.has(glyph)) {
        this.report('error', r, 'bad-glyph', `'${glyph}' is not an annotation: use ! ? !! ?? !? or ?!`);
      } else if (!a || a.glyph !== null || (!core && a.comment !== null)) {
        this.report('error', r, 'bad-glyph', `annotation '${glyph}' must follow a move, e.g. a1-b1${glyph}`);
      } else {
        a.glyph = glyph as Glyph;
        a.glyphRange = r;
      }
    }
  }
}
