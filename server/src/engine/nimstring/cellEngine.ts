/**
 * Nim-values of Nimstring regions by memoized search (Brinker, "Developing an efficient algorithm for nimber calculation in Dots and Boxes", improved):
 *  - value(R) = mex of the values of R's NON-loony options (a loony option loses in any sum, so it
 *    never counts; a region whose every option is loony has value 0, as Brinker says);
 *  - an option that splits R is the xor of its parts (Sprague-Grundy);
 *  - captures that cannot change the value are made greedily and loony results recognised (cells.ts);
 *  - values are memoized by a canonical key over the 8 grid symmetries, so rotated/reflected and
 *    translated copies of a region are computed once, and the cache is shared between calls;
 *  - a node budget: when exceeded the search throws BudgetExceeded and the caller reports `unknown`.
 */

import { Cell, CellIndex, LOONY, Loony, applyMove, degree, indexOf, canonicalKey, rawKey, regionMoves } from './cells';
import { NIM_BUDGET_DEFAULT, NIM_CACHE_ENTRIES } from '../limits';

export class BudgetExceeded extends Error {
  constructor() {
    super('nimstring: node budget exceeded');
  }
}

/** Memo of region values by canonical key; shared between calls unless a fresh one is passed. */
export class NimCache {
  readonly map = new Map<string, number>();
  /**
   * Graph engine (graphEngine.ts) entries: a 30-bit hash of a graph's encoding -> entries holding the
   * whole encoding, compared in full on every hit (a hash collision never returns a wrong value).
   */
  readonly graphs = new Map<number, GraphEntry>();
  graphCount = 0;
  constructor(readonly maxEntries = NIM_CACHE_ENTRIES) {}
  get(key: string): number | undefined {
    return this.map.get(key);
  }
  set(key: string, v: number): void {
    if (this.map.size >= this.maxEntries) this.map.clear();
    this.map.set(key, v);
  }
  /** Value of the graph whose encoding is codes[0..len), or undefined. */
  getCodes(hash: number, codes: ArrayLike<number>, len: number): number | undefined {
    for (let e = this.graphs.get(hash); e; e = e.next) {
      const c = e.codes;
      if (c.length !== len) continue;
      let i = 0;
      while (i < len && c[i] === codes[i]) i++;
      if (i === len) return e.value;
    }
    return undefined;
  }
  setCodes(hash: number, codes: ArrayLike<number>, len: number, value: number): void {
    if (this.graphCount >= this.maxEntries) {
      this.graphs.clear();
      this.graphCount = 0;
    }
    const c = new Uint16Array(len);
    for (let i = 0; i < len; i++) c[i] = codes[i];
    this.graphs.set(hash, { codes: c, value, next: this.graphs.get(hash) });
    this.graphCount++;
  }
  get size(): number {
    return this.map.size + this.graphCount;
  }
}

export interface GraphEntry {
  codes: Uint16Array;
  value: number;
  next: GraphEntry | undefined;
}

export const sharedCache = new NimCache();

export interface SearchContext {
  cache: NimCache;
  /** Regions whose value was computed (memo misses). */
  nodes: number;
  /** Memo hits. */
  hits: number;
  budget: number;
  /** Date.now() after which the search gives up like over budget (checked every 64 regions). */
  deadline?: number;
}

/** Over the region budget, or (every 64 regions) past the deadline: the caller reports `unknown`. */
export function spent(ctx: { nodes: number; budget: number; deadline?: number }): boolean {
  return (
    ++ctx.nodes > ctx.budget || ((ctx.nodes & 63) === 0 && ctx.deadline !== undefined && Date.now() > ctx.deadline)
  );
}

export function newContext(budget = NIM_BUDGET_DEFAULT, cache: NimCache = sharedCache): SearchContext {
  return { cache, nodes: 0, hits: 0, budget };
}

/** Value of a simplified, connected, non-loony region. */
export function regionValue(cells: Cell[], ctx: SearchContext): number {
  if (cells.length === 0) return 0;
  // Shortcut: a region whose coins all have two strings is an isolated chain (both ends on the
  // ground) or a loop. Loops and long chains are 0 (every move is loony); 1- and 2-chains are *1.
  let allTwo = true,
    ground = 0;
  for (const c of cells) {
    if (degree(c) !== 2) {
      allTwo = false;
      break;
    }
    ground += c.g;
  }
  if (allTwo) return ground === 0 || cells.length >= 3 ? 0 : 1;
  const raw = rawKey(cells);
  const quick = ctx.cache.get(raw);
  if (quick !== undefined) {
    ctx.hits++;
    return quick;
  }
  const key = canonicalKey(cells);
  const known = ctx.cache.get(key);
  if (known !== undefined) {
    ctx.hits++;
    ctx.cache.set(raw, known);
    return known;
  }
  if (spent(ctx)) throw new BudgetExceeded();
  const moves = regionMoves(cells);
  const seen = new Uint8Array(moves.length + 2);
  const idx = indexOf(cells);
  for (const m of moves) {
    const v = optionValue(cells, m, ctx, idx);
    if (v !== LOONY && v < seen.length) seen[v] = 1;
  }
  let mex = 0;
  while (seen[mex]) mex++;
  ctx.cache.set(key, mex);
  if (raw !== key) ctx.cache.set(raw, mex);
  return mex;
}

/** Value of the position after a move in a region (xor of its parts), or LOONY. */
export function optionValue(
  cells: readonly Cell[],
  m: { i: number; dir: number },
  ctx: SearchContext,
  idx?: CellIndex,
): number | Loony {
  const parts = applyMove(cells, m, idx);
  if (parts === LOONY) return LOONY;
  let x = 0;
  for (const p of parts) x ^= regionValue(p, ctx);
  return x;
}

/** Value of any (possibly disconnected, unsimplified) set of coins, or LOONY. */
export function positionValue(parts: Cell[][] | Loony, ctx: SearchContext): number | Loony {
  if (parts === LOONY) return LOONY;
  let x = 0;
  for (const p of parts) x ^= regionValue(p, ctx);
  return x;
}

/**
 * Brinker's naive recursion, for the benchmark baseline: the whole position is one game, no memo,
 * no symmetry, no splitting into regions (captures and loony positions handled as above so that
 * both compute the same numbers).
 */
export function naiveValue(cells: Cell[], counter: { nodes: number; budget: number }): number {
  if (++counter.nodes > counter.budget) throw new BudgetExceeded();
  const moves = regionMoves(cells);
  const seen = new Uint8Array(moves.length + 2);
  for (const m of moves) {
    const parts = applyMove(cells, m);
    if (parts === LOONY) continue;
    const v = naiveValue(parts.flat(), counter);
    if (v < seen.length) seen[v] = 1;
  }
  let mex = 0;
  while (seen[mex]) mex++;
  return mex;
}
