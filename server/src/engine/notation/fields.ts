/**
 * Readers of the one-line board fields: size, players, tomove, score, value and lines. Each takes
 * the field's tokens and returns the field, reporting what is wrong with exact ranges; a field
 * that cannot be read keeps null values so the rest of the entry still works.
 */
import { MAX_SIDE } from '../limits';
import type { FieldBase, LinesField, PlayersField, Range, ScoreField, SizeField, ToMoveField, ValueField } from './ast';
import { splitMoveWord } from './moves';
import { clip, span, sub, type Report } from './text';
import { values, type RawToken } from './tokens';
import { sameNamesMessage } from './names';

export interface FieldContext {
  report: Report;
  /** The document's lines (a reader may look at the text between tokens). */
  lines: string[];
  /** Components the file's endgame entries may still expand to (`MAX_FILE_COMPONENTS` at the start). */
  componentsLeft: number;
}

export function sizeField(cx: FieldContext, base: FieldBase, toks: RawToken[]): SizeField {
  const f: SizeField = { ...base, width: null, height: null, valueRange: null };
  const v = values(toks);
  if (v.length === 0) {
    cx.report('error', base.keywordRange, 'bad-size', 'size needs a value, e.g. size 5x5 (columns x rows of boxes)');
    return f;
  }
  const r = span(v[0].range, v[v.length - 1].range);
  f.valueRange = r;
  if (v.some((t) => t.type !== 'word') || v[0].range.line !== v[v.length - 1].range.line) {
    cx.report('error', r, 'bad-size', 'expected a board size like 5x5 (columns x rows of boxes)');
    return f;
  }
  const joined = cx.lines[r.line].slice(r.character, r.endCharacter);
  const m = /^(\d+)[ \t]*[xX×*][ \t]*(\d+)$/.exec(joined) ?? /^(\d+)$/.exec(joined);
  if (!m) {
    cx.report(
      'error',
      r,
      'bad-size',
      `'${clip(joined)}' is not a board size: write columns x rows of boxes, e.g. size 5x5`,
    );
    return f;
  }
  // leading zeros are no size (0005 is 5); more digits than that are out of range anyway
  const num = (d: string) => (d.replace(/^0+(?=\d)/, '').length > 6 ? Infinity : Number(d));
  const w = num(m[1]);
  const h = m[2] === undefined ? w : num(m[2]);
  if (w < 1 || h < 1 || w > MAX_SIDE || h > MAX_SIDE) {
    const side = (d: string) => (d.length > 6 ? clip(d, 8) : d);
    const shown = `${side(m[1])}x${side(m[2] ?? m[1])}`;
    cx.report('error', r, 'bad-size', `board size ${shown} is out of range: each side must be 1 to ${MAX_SIDE} boxes`);
    return f;
  }
  f.width = w;
  f.height = h;
  return f;
}

export function playersField(cx: FieldContext, base: FieldBase, toks: RawToken[]): PlayersField {
  const v = values(toks);
  const f: PlayersField = { ...base, names: null, nameTokens: v.map((t) => ({ text: t.text, range: t.range })) };
  let bad = false;
  for (const t of v) {
    if (t.type === 'punct') {
      cx.report('error', t.range, 'bad-players', `unexpected '${t.text}': write two names, e.g. players "Alice" "Bob"`);
      bad = true;
    } else if (t.text.trim() === '') {
      cx.report('error', t.range, 'bad-players', 'a player name cannot be empty');
      bad = true;
    }
  }
  if (bad) return f;
  if (v.length !== 2) {
    cx.report(
      'error',
      v.length ? span(v[0].range, v[v.length - 1].range) : base.keywordRange,
      'bad-players',
      `players needs exactly two names (first player, then second), found ${v.length}; quote names with spaces: players "Ann Lee" "Bob"`,
    );
    return f;
  }
  f.names = [v[0].text, v[1].text];
  if (v[0].text === v[1].text) cx.report('warning', v[1].range, 'bad-players', sameNamesMessage(v[0].text));
  return f;
}

/** The player word is kept as written; the entry resolves it against its players at its end. */
export function tomoveField(cx: FieldContext, base: FieldBase, toks: RawToken[]): ToMoveField {
  const v = values(toks);
  const f: ToMoveField = { ...base, text: null, valueRange: null, player: null };
  if (v.length === 0) {
    cx.report('error', base.keywordRange, 'bad-tomove', 'tomove needs a player: a name, first or second');
    return f;
  }
  if (v[0].type === 'punct') {
    cx.report('error', v[0].range, 'bad-tomove', 'tomove needs a player: a name, first or second');
    return f;
  }
  f.text = v[0].text;
  f.valueRange = v[0].range;
  if (v.length > 1)
    cx.report(
      'error',
      span(v[1].range, v[v.length - 1].range),
      'bad-tomove',
      'tomove takes one player; quote a name with spaces',
    );
  return f;
}

export function scoreField(cx: FieldContext, base: FieldBase, toks: RawToken[]): ScoreField {
  const v = values(toks);
  const f: ScoreField = { ...base, score: null, valueRanges: [] };
  if (v.length === 0) {
    cx.report(
      'error',
      base.keywordRange,
      'bad-score',
      'score needs two numbers: boxes of the first and of the second player, e.g. score 3 0',
    );
    return f;
  }
  const nums: { n: number; r: Range }[] = [];
  /** What was read, in order: n a number, s a separator; only "nn" and "nsn" are scores. */
  let shape = '';
  let bad: Range | null = null;
  for (const t of v) {
    if (t.type !== 'word') {
      bad = bad ?? t.range;
      continue;
    }
    const re = /(\d+)|([-:\u2010-\u2015\u2212])|([^\d\-:\u2010-\u2015\u2212]+)/g;
    let m: RegExpExecArray | null;
    while ((m = re.exec(t.text))) {
      const r = sub(t.range, m.index, m.index + m[0].length);
      if (m[1]) {
        nums.push({ n: m[1].length > 9 ? Infinity : Number(m[1]), r });
        shape += 'n';
      } else if (m[2]) {
        shape += 's';
        // "-1" written apart from the number before it is a sign, not "3 - 1"
        if (m.index === 0 && t.text.length > 1 && nums.length > 0) bad = bad ?? r;
      } else bad = bad ?? r;
    }
  }
  // two numbers, a separator at most, and only between them: "-3 0" is no score of 3 boxes
  if (bad || (shape !== 'nn' && shape !== 'nsn')) {
    cx.report(
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
      cx.report('error', x.r, 'bad-score', 'a score cannot exceed 144 boxes (a 12x12 board)');
      return f;
    }
  }
  f.score = [nums[0].n, nums[1].n];
  return f;
}

export function valueField(cx: FieldContext, base: FieldBase, toks: RawToken[]): ValueField {
  const v = values(toks);
  const f: ValueField = { ...base, value: null, valueRange: null };
  if (v.length === 0) {
    cx.report(
      'error',
      base.keywordRange,
      'bad-value',
      'value needs a whole number: the net boxes of the rest for the player to move, e.g. value -2',
    );
    return f;
  }
  f.valueRange = v[0].range;
  const m = /^([+\-\u2010-\u2015\u2212]?)(\d{1,9})$/.exec(v[0].text);
  if (v[0].type === 'word' && !m && /^[+\-\u2010-\u2015\u2212]?\d+$/.test(v[0].text)) {
    cx.report(
      'error',
      v[0].range,
      'bad-value',
      `'${clip(v[0].text)}' is out of range: a value has at most 9 digits (it counts boxes)`,
    );
    return f;
  }
  if (v[0].type !== 'word' || !m) {
    cx.report(
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
    cx.report('error', span(v[1].range, v[v.length - 1].range), 'bad-value', 'value takes a single number');
  return f;
}

export function linesField(cx: FieldContext, base: FieldBase, toks: RawToken[]): LinesField {
  const f: LinesField = { ...base, lines: [] };
  for (const t of toks) {
    if (t.type === 'comment') continue;
    if (t.type !== 'word') {
      cx.report(
        'error',
        t.range,
        'bad-move',
        t.type === 'string' ? 'a line is written without quotes, e.g. a1-b1' : `unexpected '${t.text}' in lines`,
      );
      continue;
    }
    const split = splitMoveWord(t.text);
    if (!split) {
      cx.report(
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
