/**
 * Exact values of abstract endgames by the recursion (2.1)/(2.2), for ANY chains (>= 1) and
 * loops (>= 3), including what the papers exclude:
 *   1-chain:  v(G;1)  = 1 - v(G-1)         (the controller takes the box and must open next)
 *   2-chain:  v(G;2)  = 2 - v(G-2)         (opened by the line between its boxes, the opener's best
 *                                           way; the controller has no choice. Opened at an end it
 *                                           would be |v(G-2) - 2| >= 2 - v(G-2).)
 *   3-loop:   v(G;3l) = 3 - v(G-3l)        (strings-and-coins only: after one cut the controller
 *                                           faces a 3-path with both ends capturable; every move in
 *                                           it captures, so no handout exists)
 *   chain n >= 3: (n-2) + |v(G-C) - 2|;  loop n >= 4 (odd too): (n-4) + |v(G-C) - 4|
 *   v(G) = min over C of v(G;C), v(empty) = 0.
 * Values can be negative when short chains exist (the opener may win).
 *
 * The memo is a dense table indexed by the mixed-radix code of the sub-multiset (a canonical key
 * of the counts); it is filled bottom-up (no recursion depth, no hashing). Every sub-multiset is
 * reachable, so the state count is prod(count_i + 1); above `maxStates` we answer `undefined`
 * at once instead of hanging.
 */
import { ComponentCounts, ComponentType, typesOf } from './components';

import { RECURSION_MAX_STATES } from '../limits';

/** Default state budget of the recursion (limits.ts says why that number). */
export const DEFAULT_MAX_STATES = RECURSION_MAX_STATES;

export interface RecursionOptions {
  /** Give up (return undefined) when the multiset has more sub-multisets than this. */
  maxStates?: number;
}

/** prod(count_i + 1), or Infinity when above `cap`. */
export function stateCount(g: ComponentCounts, cap = Number.MAX_SAFE_INTEGER): number {
  let n = 1;
  for (const k of g.chains.values()) {
    n *= k + 1;
    if (n > cap) return Infinity;
  }
  for (const k of g.loops.values()) {
    n *= k + 1;
    if (n > cap) return Infinity;
  }
  return n;
}

/** Kind code for the inner loop: 0 = no choice (size - w), 1 = long chain, 2 = loop >= 4. */
function codeOf(t: { kind: 'chain' | 'loop'; size: number }): number {
  if (t.kind === 'chain') return t.size <= 2 ? 0 : 1;
  return t.size < 4 ? 0 : 2;
}

export class RecursionTable {
  readonly types: ComponentType[];
  readonly radix: number[];
  readonly table: Int32Array;
  readonly rootIndex: number;

  constructor(types: ComponentType[], radix: number[], table: Int32Array) {
    this.types = types;
    this.radix = radix;
    this.table = table;
    this.rootIndex = table.length - 1;
  }

  get rootValue(): number {
    return this.table[this.rootIndex];
  }

  /** Index of a sub-multiset of the root, or undefined when it is not one. */
  indexOf(g: ComponentCounts): number | undefined {
    let idx = 0,
      seen = 0;
    for (let i = 0; i < this.types.length; i++) {
      const t = this.types[i];
      const k = (t.kind === 'loop' ? g.loops : g.chains).get(t.size) ?? 0;
      if (k > t.count) return undefined;
      if (k > 0) seen++;
      idx += k * this.radix[i];
    }
    let present = 0;
    for (const k of g.chains.values()) if (k > 0) present++;
    for (const k of g.loops.values()) if (k > 0) present++;
    if (present !== seen) return undefined;
    return idx;
  }

  /** v of a sub-multiset of the root (undefined when not a sub-multiset). */
  value(g: ComponentCounts): number | undefined {
    const i = this.indexOf(g);
    return i === undefined ? undefined : this.table[i];
  }
}

/** Build the full table for all sub-multisets of g, or undefined when above the state budget. */
export function solveRecursion(g: ComponentCounts, options: RecursionOptions = {}): RecursionTable | undefined {
  const maxStates = options.maxStates ?? DEFAULT_MAX_STATES;
  const n = stateCount(g, maxStates);
  if (!Number.isFinite(n)) return undefined;
  const types = typesOf(g);
  const T = types.length;
  const radix: number[] = [];
  let r = 1;
  for (const t of types) {
    radix.push(r);
    r *= t.count + 1;
  }
  const table = new Int32Array(n);
  const counts = new Int32Array(T),
    sizes = new Int32Array(T),
    codes = new Int32Array(T),
    rad = new Int32Array(T);
  for (let i = 0; i < T; i++) {
    counts[i] = types[i].count;
    sizes[i] = types[i].size;
    codes[i] = codeOf(types[i]);
    rad[i] = radix[i];
  }
  const d = new Int32Array(T + 1);
  table[0] = 0;
  for (let idx = 1; idx < n; idx++) {
    let i = 0;
    while (d[i] === counts[i]) {
      d[i] = 0;
      i++;
    }
    d[i]++;
    let best = 0x7fffffff;
    for (let j = 0; j < T; j++) {
      if (d[j] === 0) continue;
      const w = table[idx - rad[j]];
      const s = sizes[j];
      let v: number;
      const code = codes[j];
      if (code === 0) v = s - w;
      else if (code === 1) v = s - 2 + (w > 2 ? w - 2 : 2 - w);
      else v = s - 4 + (w > 4 ? w - 4 : 4 - w);
      if (v < best) best = v;
    }
    table[idx] = best;
  }
  return new RecursionTable(types, radix, table);
}

/** v(G) by the recursion, or undefined above the state budget. */
export function recursionValue(g: ComponentCounts, options: RecursionOptions = {}): number | undefined {
  return solveRecursion(g, options)?.rootValue;
}
