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

import {
  Cell,
  CellIndex,
  LOONY,
  Loony,
  RegionMove,
  applyMove,
  degree,
  indexOf,
  canonicalKey,
  rawKey,
  regionMoves,
} from './cells';
import { NIM_BUDGET_DEFAULT, NIM_CACHE_ENTRIES, NIM_CACHE_KEY_CHARS } from '../limits';

/** Default of SearchContext.zeroTestMinCoins (the zero tests are described at `wins`). */
export const ZERO_TEST_MIN_COINS = 8;
/**
 * Zero tests of regions of at most this many coins (a 5x5 board's) keep their options' parts between
 * their two passes (`wins`, graphEngine.ts `graphWins`) instead of making them twice: a few MB at
 * most over a whole test (about 60 options of 25 coins at each of at most 60 levels).
 */
export const KEEP_PARTS_MAX_COINS = 25;

export class BudgetExceeded extends Error {
  constructor() {
    super('nimstring: node budget exceeded');
  }
}

/** Heaps below this are kept as bits of a mask in NimCache.wins (31: the mask stays a small integer). */
const WIN_MASK_HEAPS = 31;

/**
 * Memo of region values by canonical key; shared between calls unless a fresh one is passed. Both
 * engines use its three maps, each with keys of its own (a graph key starts with a code no cell key
 * has: graphEngine.ts `toKey`). They share `maxEntries`: values half, zero-test wins and canonical
 * keys a quarter each, each cleared when full (at the default, about 55 MiB at most, measured).
 * Values are kept by canonical key only, so the half holds as many regions as the whole did with raw
 * keys too.
 */
export class NimCache {
  readonly map = new Map<string, number>();
  /**
   * Zero tests that came out "wins" (`wins` below): canonical key -> the heaps h whose test it won
   * (bit h of the mask; heaps of WIN_MASK_HEAPS and more under key + '|' + h in winsHigh, which no
   * 5x5 region reaches). A loss is not kept here: it is the region's value, kept in `map`. (A mask
   * by key, not a set of key + '|' + heap: that string, made and hashed at every test, was a tenth
   * of the graph engine's time.)
   */
  readonly wins = new Map<string, number>();
  private readonly winsHigh = new Set<string>();
  /**
   * Canonical keys by raw key (a region as it lies, translated to the origin): the same region is
   * met again and again, and its canonical key (8 symmetries) is the engine's costliest step.
   */
  readonly canonical = new Map<string, string>();
  /**
   * Characters of keys held by each map: large boards have long keys (and graph keys are longer than
   * cell keys), so the entry counts alone let a 12x12 game's memo pass 200 MB. Each map has the share
   * of maxChars it has of maxEntries, and is cleared alone when full: values and wins are kept when
   * the canonical keys, the cheapest to make again, overflow.
   */
  private chars = { map: 0, wins: 0, canonical: 0 };
  constructor(
    readonly maxEntries = NIM_CACHE_ENTRIES,
    readonly maxChars = NIM_CACHE_KEY_CHARS,
  ) {}
  get(key: string): number | undefined {
    return this.map.get(key);
  }
  set(key: string, v: number): void {
    this.makeRoom('map', 1 / 2, key.length);
    this.map.set(key, v);
  }
  canonicalOf(raw: string, cells: readonly Cell[]): string {
    return this.canonical.get(raw) ?? this.addCanonical(raw, canonicalKey(cells));
  }
  /** Keep `key` as the canonical key of `raw`; returns it. */
  addCanonical(raw: string, key: string): string {
    this.makeRoom('canonical', 1 / 4, raw.length + key.length);
    this.canonical.set(raw, key);
    return key;
  }
  /** Did the region of this key plus *h win its zero test? */
  hasWin(key: string, h: number): boolean {
    if (h >= WIN_MASK_HEAPS) return this.winsHigh.has(key + '|' + h);
    const mask = this.wins.get(key);
    return mask !== undefined && ((mask >>> h) & 1) === 1;
  }
  /** The region of this key plus *h wins its zero test. */
  addWin(key: string, h: number): void {
    if (h >= WIN_MASK_HEAPS) {
      this.makeRoom('wins', 1 / 4, key.length + 4);
      this.winsHigh.add(key + '|' + h);
      return;
    }
    const mask = this.wins.get(key);
    if (mask === undefined) this.makeRoom('wins', 1 / 4, key.length);
    this.wins.set(key, (mask ?? 0) | (1 << h));
  }
  /** Room for one more entry of `n` characters in map `which` (its `share` of the bounds), clearing it when full. */
  private makeRoom(which: 'map' | 'wins' | 'canonical', share: number, n: number): void {
    const size = this[which].size + (which === 'wins' ? this.winsHigh.size : 0);
    if (size >= this.maxEntries * share || this.chars[which] + n > this.maxChars * share) {
      this[which].clear();
      if (which === 'wins') this.winsHigh.clear();
      this.chars[which] = 0;
    }
    this.chars[which] += n;
  }
  /** Forget everything. */
  clear(): void {
    this.map.clear();
    this.wins.clear();
    this.winsHigh.clear();
    this.canonical.clear();
    this.chars = { map: 0, wins: 0, canonical: 0 };
  }
  get size(): number {
    return this.map.size + this.wins.size + this.winsHigh.size + this.canonical.size;
  }
}

export const sharedCache = new NimCache();

export interface SearchContext {
  cache: NimCache;
  /** Regions whose value was computed (memo misses). */
  nodes: number;
  /** Memo hits. */
  hits: number;
  budget: number;
  /** Regions of at least this many coins are valued by zero tests (wins below), smaller ones by the mex. */
  zeroTestMinCoins: number;
  /** Date.now() after which the search gives up like over budget (checked every 64 regions). */
  deadline?: number;
  /** Gives up like over budget when this says so (an edit cancelled the work; checked every 64 regions). */
  shouldStop?: () => boolean;
}

/**
 * Over the region budget, or (checked every 64 regions) past the deadline or told to stop: the caller
 * reports `unknown`.
 */
export function spent(ctx: { nodes: number; budget: number; deadline?: number; shouldStop?: () => boolean }): boolean {
  if (++ctx.nodes > ctx.budget) return true;
  if ((ctx.nodes & 63) !== 0) return false;
  return (ctx.deadline !== undefined && Date.now() > ctx.deadline) || (ctx.shouldStop?.() ?? false);
}

/**
 * Past the deadline or told to stop. Also checked at every option of a region (zero tests, mex):
 * on a large board one region's options (each a canonical key of a large part) can take seconds,
 * far more than 64 regions of a 5x5 board, so a deadline checked per region only was overrun by
 * 50 s on 12x12 boards.
 */
export function pastDeadline(ctx: { deadline?: number; shouldStop?: () => boolean }): boolean {
  // the clock every 16th call: an option of a small region costs far less than reading it
  if ((++optionTicks & 15) !== 0) return false;
  return (ctx.deadline !== undefined && Date.now() > ctx.deadline) || (ctx.shouldStop?.() ?? false);
}
let optionTicks = 0;

export function newContext(
  budget = NIM_BUDGET_DEFAULT,
  cache: NimCache = sharedCache,
  zeroTestMinCoins = ZERO_TEST_MIN_COINS,
): SearchContext {
  return { cache, nodes: 0, hits: 0, budget, zeroTestMinCoins };
}

/**
 * The value of a region when it needs no search (an isolated chain or loop) or is memoized (a
 * number), else its canonical key (a string, computed once, for the caller to store under).
 */
function knownValue(cells: Cell[], ctx: SearchContext): number | string {
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
  // values are kept by canonical key only (one entry per region and its symmetric images); the
  // canonical key itself is memoized by raw key
  const key = ctx.cache.canonicalOf(rawKey(cells), cells);
  const known = ctx.cache.get(key);
  if (known !== undefined) {
    ctx.hits++;
    return known;
  }
  return key;
}

/** Value of a simplified, connected, non-loony region. */
export function regionValue(cells: Cell[], ctx: SearchContext): number {
  const k = knownValue(cells, ctx);
  if (typeof k === 'number') return k;
  if (cells.length >= ctx.zeroTestMinCoins) {
    // the first heap the region loses against is its value (zeroTests below)
    for (let h = 0; ; h++) if (!wins(cells, h, ctx)) return h;
  }
  if (spent(ctx)) throw new BudgetExceeded();
  const moves = regionMoves(cells);
  const seen = new Uint8Array(moves.length + 2);
  const idx = indexOf(cells);
  for (const m of moves) {
    if (pastDeadline(ctx)) throw new BudgetExceeded();
    const v = optionValue(cells, m, ctx, idx);
    if (v !== LOONY && v < seen.length) seen[v] = 1;
  }
  let mex = 0;
  while (seen[mex]) mex++;
  ctx.cache.set(k, mex);
  return mex;
}

/**
 * ZERO TESTS. Does the player to move win the region R plus a nim heap *h? By Sprague-Grundy, R + *h
 * is lost exactly when h is R's value, so the value is the first h whose test fails; and a test
 * stops at the first winning move, where the mex needs the value of every option. A move is either
 * in R (a loony move loses, as in the mex: skipped; otherwise the options' parts plus *h must be a
 * loss, sumWins) or in the heap (R + *y, y < h, must be a loss). A loss proves R's value is h and is
 * memoized as that value; a win is memoized with its heap. By default only regions of at least
 * ZERO_TEST_MIN_COINS coins are tested (`zeroTestMinCoins`): smaller ones are cheaper by the mex.
 * Order (it changes the work, never the answer): the options whose parts all have known values
 * first, which decide without search; then the others, the smallest largest part first (cheap to
 * refute, and on plausible 5x5 records 2-10x fewer regions than the generation order), of two
 * largest parts of one size the one with more ground strings first (8-20% fewer regions on the
 * chain fights of plies 18-21 of plausible 5x5 records); the heap last.
 * Cross-checked with every region tested and with none against the whole-board brute force
 * (test/unit/nimstring.test.ts).
 */

export function wins(cells: Cell[], h: number, ctx: SearchContext): boolean {
  const k = knownValue(cells, ctx);
  if (typeof k === 'number') return k !== h;
  if (ctx.cache.hasWin(k, h)) {
    ctx.hits++;
    return true;
  }
  if (spent(ctx)) throw new BudgetExceeded();
  const idx = indexOf(cells);
  let win = false;
  // First the options whose parts all have known values (memoized, chains, loops): each decides at
  // once, and one that loses for the opponent ends the test without any search.
  // A large region's options are kept by move, not by parts: parts held at every level of a deep
  // test (a near-empty 12x12 board: hundreds of options of ~150 cells, hundreds of levels) took a
  // worker past 192 MiB of heap; the parts of the options searched are made again (the same parts:
  // applyMove is deterministic). A small region's are kept (KEEP_PARTS_MAX_COINS).
  const keep = cells.length <= KEEP_PARTS_MAX_COINS;
  const open: { m: RegionMove; key: number; parts: Cell[][] | null }[] = [];
  for (const m of regionMoves(cells)) {
    if (pastDeadline(ctx)) throw new BudgetExceeded();
    const parts = applyMove(cells, m, idx);
    if (parts === LOONY) continue;
    let x = h;
    for (const p of parts) {
      const v = knownValue(p, ctx);
      if (typeof v !== 'number') {
        x = -1;
        break;
      }
      x ^= v;
    }
    if (x === 0) {
      win = true;
      break;
    }
    if (x < 0) open.push({ m, key: orderKey(parts), parts: keep ? parts : null });
  }
  open.sort((a, b) => a.key - b.key); // stable: the generation order among equal keys
  for (let i = 0; !win && i < open.length; i++)
    win = !sumWins(open[i].parts ?? (applyMove(cells, open[i].m, idx) as Cell[][]), h, ctx);
  for (let y = 0; !win && y < h; y++) win = !wins(cells, y, ctx);
  if (win) ctx.cache.addWin(k, h);
  else ctx.cache.set(k, h);
  return win;
}

/**
 * The order of an option in a zero test: its largest part's coins (the first largest), fewer first,
 * then that part's ground strings, more first (a region has fewer than 256: at most one per edge of
 * the board).
 */
function orderKey(parts: Cell[][]): number {
  let big = parts[0];
  for (const p of parts) if (p.length > big.length) big = p;
  let ground = 0;
  for (const c of big) ground += c.g;
  return big.length * 256 - ground;
}

/** Does the player to move win the sum of these regions and *h? The largest is tested, the rest valued. */
export function sumWins(parts: Cell[][], h: number, ctx: SearchContext): boolean {
  if (parts.length === 0) return h !== 0;
  let big = 0;
  for (let i = 1; i < parts.length; i++) if (parts[i].length > parts[big].length) big = i;
  let x = h;
  for (let i = 0; i < parts.length; i++) if (i !== big) x ^= regionValue(parts[i], ctx);
  return wins(parts[big], x, ctx);
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
