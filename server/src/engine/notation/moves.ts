/**
 * The reader of the `moves` field: move numbers (`12.`, `12...`), moves in three spellings
 * (`a1-b1`, `a1b1`, littlegolem `haa`), annotation glyphs, brace comments attached to the move
 * before them, variations `( … )` nested to any depth (each an alternative to the move before it),
 * and littlegolem turn brackets (`;b[hdbhae]`, with SGF's `(;` … `)` wrapping ignored, and an SGF
 * tree's branches after the first left out with a warning).
 */
import type { FieldBase, Glyph, LittlegolemTurn, MoveToken, MovesField, Range, Token, Variation } from './ast';
import { clip, span, sub, type Report } from './text';
import type { RawToken } from './tokens';
import { MAX_VARIATION_DEPTH } from '../limits';
import { isTurnLetter } from './names';

const GLYPHS = new Set(['!', '?', '!!', '??', '!?', '?!']);

/** An open parenthesis: SGF wrapping (ignored), or a variation being read. */
interface Group {
  sgf: boolean;
  /** An SGF tree or branch `(;` … `)` (sgf is also set on a '(' ignored as too deep). */
  tree?: boolean;
  open: Range;
  /** Where the moves read inside go (for SGF wrapping: the enclosing list). */
  moves: MoveToken[];
  /** The move the variation replaces; null when there is none (an error: the variation is dropped). */
  branch: MoveToken | null;
  depth: number;
  /** Whether anything but comments was written inside (a bad token already has its own error). */
  content: boolean;
}

export interface MoveWordPart {
  text: string;
  start: number;
  end: number;
  form: MoveToken['form'];
}

/**
 * Split a written move (or glued littlegolem codes) into moves; undefined when it is not a move.
 * The dash between two dots may be a typographic one (‐ ‑ ‒ – — −, as word processors write it);
 * the move's text has the ASCII '-' (one character for one, so ranges are unchanged).
 */
export function splitMoveWord(s: string): MoveWordPart[] | undefined {
  if (/^[a-zA-Z][0-9]{1,2}[-\u2010-\u2015\u2212][a-zA-Z][0-9]{1,2}$/.test(s))
    return [{ text: s.replace(/[\u2010-\u2015\u2212]/, '-'), start: 0, end: s.length, form: 'dots' }];
  if (/^[a-zA-Z][0-9]{1,2}[a-zA-Z][0-9]{1,2}$/.test(s)) return [{ text: s, start: 0, end: s.length, form: 'compact' }];
  if (s.length % 3 === 0 && /^(?:[hvHV][a-zA-Z][a-zA-Z])+$/.test(s)) {
    const out: MoveWordPart[] = [];
    for (let c = 0; c < s.length; c += 3)
      out.push({ text: s.slice(c, c + 3), start: c, end: c + 3, form: 'littlegolem' });
    return out;
  }
  return undefined;
}

/** A word that is a move as written in a move list: a number before it and glyphs after it aside. */
export function isMoveWord(w: string): boolean {
  const core = w.replace(/^\d+\.+/, '').replace(/[!?]+$/, '');
  return core !== '' && splitMoveWord(core) !== undefined;
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
  /**
   * The move whose variations were just closed: brace comments after them are its comments too
   * (`a1-b1 (a3-b3) {why}`; found by an audit: they were kept by nobody), glyphs are not.
   */
  private afterVariations: MoveToken | null = null;
  /** The last token read (an unclosed variation runs up to it). */
  private lastToken: Range | null = null;
  /** Open parentheses, innermost last. */
  private readonly groups: Group[] = [];
  /** Whether the last token (comments aside) closed an SGF tree or branch. */
  private sgfJustClosed = false;
  /** An SGF branch closed, and no '(' nor move came after it yet (moveAfterSgfBranch). */
  private afterSgfBranch = false;
  /** SGF C[…] comments of the current node read before its move (`;C[x]B[haa]`): they go to that move. */
  private nodeComments: Token[] = [];

  constructor(
    private readonly report: Report,
    base: FieldBase,
  ) {
    this.f = { ...base, moves: [], turns: [], comments: [], sgfPlayers: [null, null] };
  }

  read(toks: RawToken[]): MovesField {
    const f = this.f;
    let k = 0;
    while (k < toks.length) {
      const t = toks[k];
      this.lastToken = t.range;
      const afterSgf = this.sgfJustClosed;
      if (t.type !== 'comment') {
        this.sgfJustClosed = false;
        this.afterVariations = null;
      }
      // a move number alone (12.) makes no content: `(12.)` is an empty variation
      if (
        t.type !== 'comment' &&
        t.type !== 'property' &&
        t.text !== ')' &&
        !/^\d+\.+$/.test(t.text) &&
        this.groups.length
      )
        this.groups[this.groups.length - 1].content = true;
      if (t.type === 'comment') {
        f.comments.push({ text: t.text, range: t.range });
        const to = this.attach ?? this.afterVariations;
        if (to) this.comment(to, t);
        k++;
        continue;
      }
      // a new SGF node (or a variation's edge): comments waiting for their node's move stay unattached
      if (t.type === 'punct' && (t.text === ';' || t.text === '(' || t.text === ')')) this.nodeComments = [];
      if (t.type === 'property') {
        this.property(t);
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
        if (t.text === '(') {
          this.afterSgfBranch = false;
          const nx = toks[k + 1];
          // `(;b[haa](;r[hab])(;r[hbb]))`: a second SGF branch is an alternative to the first
          if (afterSgf && nx && nx.type === 'punct' && nx.text === ';') {
            k = this.sgfBranch(toks, k);
            continue;
          }
          this.open(t, nx);
          k++;
          continue;
        }
        if (t.text === ')') {
          this.sgfJustClosed = this.groups.length > 0 && this.groups[this.groups.length - 1].tree === true;
          this.afterSgfBranch = this.sgfJustClosed;
          this.close(t);
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
        isTurnLetter(t.text)
      ) {
        if (this.afterSgfBranch) this.moveAfterSgfBranch(t.range);
        k = this.turn(toks, k);
        continue;
      }
      if (this.afterSgfBranch && isMoveWord(t.text)) this.moveAfterSgfBranch(t.range);
      this.word(t);
      k++;
    }
    while (this.groups.length) this.close(null);
    return f;
  }

  /** Attach a comment to a move (after the comments it already has). */
  private comment(m: MoveToken, c: { text: string; range: Range }): void {
    m.comment = m.comment === null ? c.text : `${m.comment} ${c.text}`;
    m.commentRange = m.commentRange === null ? c.range : span(m.commentRange, c.range);
  }

  /** The list moves go to: the innermost variation's, or the main line. */
  private get line(): MoveToken[] {
    return this.groups.length ? this.groups[this.groups.length - 1].moves : this.f.moves;
  }

  /** The variation depth here: a group ignored as SGF wrapping (or too deep) keeps the depth around it. */
  private get depth(): number {
    return this.groups.length ? this.groups[this.groups.length - 1].depth : 0;
  }

  /** '(' starts a variation replacing the last move of the current line — or SGF wrapping `(;`. */
  private open(t: RawToken, next: RawToken | undefined): void {
    this.attach = null;
    this.pendingNumber = null;
    const outer = this.line;
    if (next && next.type === 'punct' && next.text === ';') {
      this.groups.push({
        sgf: true,
        tree: true,
        open: t.range,
        moves: outer,
        branch: null,
        depth: this.depth,
        content: false,
      });
      return;
    }
    const depth = this.depth + 1;
    if (depth > MAX_VARIATION_DEPTH) {
      this.report(
        'error',
        t.range,
        'bad-variation',
        `variations are nested more than ${MAX_VARIATION_DEPTH} deep; this '(' is ignored`,
      );
      this.groups.push({ sgf: true, open: t.range, moves: outer, branch: null, depth: depth - 1, content: false });
      return;
    }
    const branch = outer.length ? outer[outer.length - 1] : null;
    if (!branch)
      this.report(
        'error',
        t.range,
        'bad-variation',
        depth === 1
          ? "a variation must follow the move it replaces, e.g. 25. d2-e2 (25. b6-c6); there is no move before this '(' — it is left out"
          : 'a variation must follow the move it replaces, e.g. (25. b6-c6 (25. a1-b1)); this one starts its enclosing variation, before any move — it is left out',
      );
    this.groups.push({ sgf: false, open: t.range, moves: [], branch, depth, content: false });
  }

  /**
   * An SGF branch `(;` … `)` after another one (at `k`, the '('): dab follows an SGF tree's first
   * branch only (its main line), so this one is left out with a warning. Returns the index after it.
   */
  private sgfBranch(toks: RawToken[], k: number): number {
    let depth = 0;
    let m = k;
    for (; m < toks.length; m++) {
      const x = toks[m];
      if (x.type !== 'punct') continue;
      if (x.text === '(') depth++;
      else if (x.text === ')' && --depth === 0) break;
    }
    const end = m < toks.length ? m : toks.length - 1;
    this.report(
      'warning',
      span(toks[k].range, toks[end].range),
      'bad-variation',
      'SGF variations are not read: dab follows the first branch of an SGF tree (its main line), and this further branch is left out; to keep it, write its moves as a variation ( … ) after the move it replaces',
    );
    this.sgfJustClosed = m < toks.length;
    this.afterSgfBranch = this.sgfJustClosed;
    this.attach = null;
    this.pendingNumber = null;
    return end + 1;
  }

  /**
   * SGF has nothing after a branch's ')' but another branch: a move there (numbers and ';' aside)
   * goes on the line the branch's moves went to, which reads like a variation and is not one (found
   * by an audit). Said once, at that move.
   */
  private moveAfterSgfBranch(at: Range): void {
    this.afterSgfBranch = false;
    this.report(
      'warning',
      at,
      'bad-variation',
      "a move right after an SGF branch '(;…)': the branch's moves were read as the line's next moves (SGF's main line), and this one is read after them; a variation is written without ';', as ( … ) after the move it replaces",
    );
  }

  /** ')' (or the end of the field, `t` null) closes the innermost group. */
  private close(t: RawToken | null): void {
    this.attach = null;
    this.pendingNumber = null;
    const g = this.groups.pop();
    if (!g) {
      this.report('error', t!.range, 'bad-variation', "unmatched ')': a variation starts with '('");
      return;
    }
    if (g.sgf) return;
    const v: Variation = {
      range: span(g.open, t ? t.range : this.lastToken!),
      openRange: g.open,
      closeRange: t ? t.range : null,
      moves: g.moves,
      depth: g.depth,
    };
    if (!t)
      this.report(
        'error',
        g.open,
        'bad-variation',
        g.moves.length
          ? "unclosed variation: add ')' after its last move (it is read up to the end of the moves)"
          : "unclosed variation: add ')' after its moves",
      );
    else if (!g.content && g.branch)
      this.report(
        'error',
        v.range,
        'bad-variation',
        'empty variation: write the alternative moves inside, e.g. (25. b6-c6 b5-c5); it is left out',
      );
    if (g.branch && g.moves.length) g.branch.variations.push(v);
    if (t && g.branch) this.afterVariations = g.branch;
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
      variations: [],
    };
    if (this.pendingNumber) {
      m.number = this.pendingNumber.n;
      m.numberRange = this.pendingNumber.r;
      this.pendingNumber = null;
    }
    this.line.push(m);
    this.attach = m;
    return m;
  }

  /**
   * A turn `b[...]` (littlegolem's b and r, SGF's B and W) whose letter is at `k`; returns the index
   * after it. (Other properties come from the lexer whole, as 'property' tokens.)
   */
  private turn(toks: RawToken[], k: number): number {
    const f = this.f;
    const t = toks[k];
    const nx = toks[k + 1];
    // SGF's B and W are the first and second player's turns, as littlegolem's b and r (found by an audit)
    const letter = t.text.toLowerCase() === 'w' ? 'r' : t.text.toLowerCase();
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
    this.attach = null;
    if (!closed) this.report('error', whole, 'bad-turn', `unterminated turn '${t.text}[': add ']'`);
    if (this.depth > 0) {
      this.report(
        'error',
        whole,
        'bad-variation',
        'a littlegolem turn cannot stand in a variation: write its moves, e.g. (hab vac)',
      );
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
    if (closed && turn.moves.length) {
      // comments and glyphs after the bracket go to its last move, as after a move written out
      const last = f.moves[turn.moves[turn.moves.length - 1]];
      this.attach = last;
      for (const c of this.nodeComments) this.comment(last, c);
      this.nodeComments = [];
    }
    return m;
  }

  /**
   * An SGF property other than a turn (from the lexer, its value possibly over several lines): SGF's
   * comment C[…] is kept as the comment of its node's move (`;B[haa]C[good]`), as a brace comment
   * after the move would be; PB[…] and PW[…] name the players (the model uses them when the entry has
   * no players field); any other property (FF[4], SZ[5]…) is ignored with a note.
   */
  private property(t: RawToken): void {
    if (t.unterminated) {
      this.f.openValue = true;
      this.report('error', t.range, 'bad-turn', `unterminated property '${t.text}[': add ']'`);
      // its one diagnostic: not also "ignored" (a C[ or PB[ left open is no comment and no name)
      return;
    }
    if (/;\s*[bBrRwW]\[/.test(t.value ?? ''))
      // a value with a turn in it: most likely a forgotten ']' that swallowed moves
      this.report(
        'warning',
        t.range,
        'bad-turn',
        `the value of '${t.text}[' holds a turn (';b[…'): if a ']' is missing before it, the moves after it are read as part of the value`,
      );
    if (t.text === 'C') {
      const c = { text: t.value ?? '', range: t.range };
      if (c.text === '') return;
      this.f.comments.push(c);
      // the move before it (in its node, or written out), else its node's move to come
      if (this.attach) this.comment(this.attach, c);
      else this.nodeComments.push(c);
      return;
    }
    const who = t.text === 'PB' ? 0 : t.text === 'PW' ? 1 : null;
    const name = t.value?.trim() ?? '';
    if (who !== null && name !== '' && this.f.sgfPlayers[who] === null) {
      this.f.sgfPlayers[who] = { text: name, range: t.range };
      return;
    }
    // one note a property: not again for each further value of a list (`AB[x][y]`)
    if (!t.more) this.report('information', t.range, 'bad-turn', `littlegolem/SGF property '${t.text}' is ignored`);
  }

  /** A word of the move list: an optional move number, a move (or glued codes), an optional glyph. */
  private word(t: RawToken): void {
    let s = t.text;
    let off = 0;
    const num = /^(\d+)(\.+)/.exec(s);
    if (num) {
      const n = num[1].length > 9 ? Infinity : Number(num[1]);
      const r = sub(t.range, 0, num[0].length);
      if (!Number.isFinite(n)) this.report('warning', r, 'syntax', 'a move number has at most 9 digits');
      else if (n < 1) this.report('warning', r, 'syntax', 'a move number counts from 1');
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
