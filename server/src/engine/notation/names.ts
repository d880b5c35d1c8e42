/**
 * Names: the field keywords, the players named by `tomove`, and the suggestion offered for a
 * misspelt keyword.
 */

import { clip } from './text';

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
export const ENTRY_KINDS = ['game', 'position', 'endgame'] as const;

/** The warning for two players of one name (a players field, or SGF's PB[…] and PW[…]). */
export function sameNamesMessage(name: string): string {
  return `both players are named '${clip(name)}'`;
}

/** The letter of a turn's bracket: littlegolem's b and r, SGF's B and W (any other name glued to '[' is an SGF property). */
export function isTurnLetter(word: string): boolean {
  return /^[bBrRwW]$/.test(word);
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
    // the initial of both players fits both: not A = first, B = second (found by an audit: "bob" and
    // "Bob" with `tomove b` gave the move to Bob without a word)
    if (low === i0) return null;
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

/** Words people write for a field, mapped to the field. */
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

/**
 * The keyword a misspelt or aliased word (in lower case) most likely means, if any is close enough:
 * one edit away for a keyword of up to 4 letters, two for a longer one (an edit inserts, deletes or
 * changes a letter, or swaps two neighbours: `gmae` is one edit from `game`).
 */
export function suggest(word: string, options: readonly string[]): string | undefined {
  if (word.length > 40) return undefined;
  if (Object.prototype.hasOwnProperty.call(ALIASES, word)) return ALIASES[word];
  // every word that starts a line is asked about (a file of 50,000 such lines): remembered, and
  // only keywords of a length within reach are compared
  let memo = suggested.get(options);
  if (!memo) suggested.set(options, (memo = new Map()));
  const known = memo.get(word);
  if (known !== undefined) return known || undefined;
  let best: string | undefined,
    bd = 3;
  for (const o of options) {
    if (Math.abs(word.length - o.length) > (o.length <= 4 ? 1 : 2)) continue;
    const d = editDistance(word, o);
    if (d < bd && d <= (o.length <= 4 ? 1 : 2)) {
      bd = d;
      best = o;
    }
  }
  if (memo.size >= 1000) memo.clear();
  memo.set(word, best ?? '');
  return best;
}
/** suggest()'s answers by option list and word ('' for none); each list's cleared when full. */
const suggested = new WeakMap<readonly string[], Map<string, string>>();

/**
 * Edit distance with swaps of neighbours (optimal string alignment), 99 when the lengths alone
 * differ by more than 3.
 */
function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 3) return 99;
  // rows i-2, i-1 and i of the table
  let back = new Array<number>(b.length + 1).fill(0);
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  let cur = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    for (let j = 1; j <= b.length; j++) {
      let d = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, back[j - 2] + 1);
      cur[j] = d;
    }
    [back, prev, cur] = [prev, cur, back];
  }
  return prev[b.length];
}
