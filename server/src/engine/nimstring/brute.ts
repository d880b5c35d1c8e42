/**
 * Independent brute force for Nimstring on a whole small board: no regions, no canonical forms,
 * no greedy captures, no loony detection. Used by the tests to check nimstring().
 *
 * Rules (Winning Ways' Nimstring = Dots-and-Boxes moves under the normal play rule): drawing a line
 * that completes a box obliges the same player to move again; a player who must move and cannot
 * LOSES. Hence whoever completes the last box loses (she must move again and cannot).
 *
 * The Sprague-Grundy value is found from its defining property, by playing the position together
 * with a Nim heap of size k (a heap move never completes a box, so it passes the turn):
 * the position has nim-value g iff position + *g is a loss for the player to move. If the player to
 * move wins position + *k for EVERY k (k up to the number of undrawn lines, which bounds any
 * nim-value) the position is loony: she wins whatever is added.
 */

import type { BoardState } from '../board/state';
import type { BoardGeometry } from '../board/geometry';

interface Tables {
  geometry: BoardGeometry;
  full: number;
  boxMasks: number[][];
  memo: Map<number, boolean>;
}
const tables = new Map<BoardGeometry, Tables>();

function tablesOf(g: BoardGeometry): Tables {
  let t = tables.get(g);
  if (t) return t;
  if (g.lineCount > 31)
    throw new RangeError(`nimstring brute force: ${g.width}x${g.height} has ${g.lineCount} lines (max 31)`);
  const boxMask = (b: number) => {
    let m = 0;
    for (const l of g.linesOfBox(b)) m |= 1 << l;
    return m;
  };
  const boxMasks: number[][] = [];
  for (let l = 0; l < g.lineCount; l++) boxMasks.push(g.boxesOfLine(l).map(boxMask));
  t = { geometry: g, full: g.lineCount === 31 ? 0x7fffffff : (1 << g.lineCount) - 1, boxMasks, memo: new Map() };
  tables.set(g, t);
  return t;
}

export function maskOf(state: BoardState): number {
  let m = 0;
  for (let l = 0; l < state.geometry.lineCount; l++) if (state.drawn[l]) m |= 1 << l;
  return m;
}

/** Does the player to move win Nimstring on (lines `mask`) + a Nim heap of size k? */
export function winsWithHeap(t: Tables, mask: number, k: number): boolean {
  const key = mask * 64 + k;
  const known = t.memo.get(key);
  if (known !== undefined) return known;
  let win = false;
  for (let h = 0; h < k && !win; h++) if (!winsWithHeap(t, mask, h)) win = true;
  for (let l = 0; l < t.geometry.lineCount && !win; l++) {
    const bit = 1 << l;
    if (mask & bit) continue;
    const m2 = mask | bit;
    let completes = false;
    for (const bm of t.boxMasks[l]) if ((m2 & bm) === bm) completes = true;
    win = completes ? winsWithHeap(t, m2, k) : !winsWithHeap(t, m2, k);
  }
  t.memo.set(key, win);
  return win;
}

/** Plain Nimstring: does the player to move win? */
export function bruteWins(state: BoardState): boolean {
  return winsWithHeap(tablesOf(state.geometry), maskOf(state), 0);
}

/** Nim-value of the whole position by brute force, or 'loony'. */
export function bruteValue(state: BoardState): number | 'loony' {
  const t = tablesOf(state.geometry);
  const mask = maskOf(state);
  const undrawn = state.geometry.lineCount - state.drawnCount;
  for (let k = 0; k <= undrawn + 1; k++) if (!winsWithHeap(t, mask, k)) return k;
  return 'loony';
}

/** All heap sizes k <= bound for which position + *k is lost by the player to move (for tests). */
export function bruteLosingHeaps(state: BoardState, bound: number): number[] {
  const t = tablesOf(state.geometry);
  const mask = maskOf(state);
  const out: number[] = [];
  for (let k = 0; k <= bound; k++) if (!winsWithHeap(t, mask, k)) out.push(k);
  return out;
}

/** Free the brute-force memo tables (tests call this between board sizes). */
export function clearBruteMemo(): void {
  tables.clear();
}
