/**
 * Nim-values of Nimstring regions on the strings-and-coins GRAPH (not on board cells).
 *
 * A region is a simple graph of coins (every coin has at most 4 strings) plus a count of strings
 * from each coin to the ground. Nothing here knows about the board: positions that are the same
 * graph share one memo entry whatever their shape on the board (an open question in Brinker's paper: the game
 * only depends on the graph).
 *
 * Rules, each switchable (NimRules) so that the tests can compare every combination with the
 * whole-board brute force (brute.ts) and with the cell engine (cellEngine.ts):
 *
 *  graphKey       memo key = a canonical form of the graph (colour refinement + individualisation,
 *                 graphKeys.ts): isomorphic regions share one entry. Off: the encoding of the
 *                 graph as it is numbered. Either key encodes the whole graph, so a key never
 *                 stands for two different games; canonicity only buys memo hits.
 *  shortenChains  a run of >= 4 degree-2 coins between two non-degree-2 ends (junctions or the
 *                 ground, possibly the same junction) is replaced by a run of 3. Every string of a
 *                 run of >= 3 is a loony move (cutting it leaves a coin hanging on a degree-2 coin
 *                 whose other string goes to the ground or to a coin of degree >= 2), so the run's
 *                 length never matters except through "is it >= 3": its strings' cuts do not count,
 *                 and when an end junction falls to degree 2 it joins the run (still >= 3), when it
 *                 falls to degree 1 the position is loony for both lengths. Isolated runs are
 *                 dropped when their value is 0: a long chain between ground and ground, a loop of
 *                 >= 4 coins (every move loony, Brinker's "all options loony = 0").
 *  skipLoony      moves known in advance to be loony are not tried: every string of a run of >= 3
 *                 degree-2 coins, the two end strings of a run of 2 (X-a-b-Y: cutting X-a leaves a
 *                 hanging on b whose other string goes to Y, of degree >= 2 or the ground). And the
 *                 two strings of a run of 1 (X-a-Y) give the same position (a is captured, X and Y
 *                 lose one string each), so one is tried.
 *  (always)       greedy free captures and loony detection as in cells.ts (checked there).
 *
 * VALUES. A region of fewer than `zeroTestMinCoins` coins is the mex of its options' values; a
 * larger one is valued by zero tests (graphWins: the first heap it loses against), as the cell
 * engine does; both share the memo (NimCache), with keys of their own (knownGraph).
 */

import { Cell, LOONY, Loony, RIGHT, UP, LEFT, DOWN } from './cells';
import { canonicalCodes, graphKey, rawGraphKey, toKey } from './graphKeys';
import { BudgetExceeded, KEEP_PARTS_MAX_COINS, NimCache, ZERO_TEST_MIN_COINS, pastDeadline, spent } from './cellEngine';

export interface NimRules {
  graphKey: boolean;
  shortenChains: boolean;
  skipLoony: boolean;
  /** Tests only: apply every skipped move anyway and throw if it was not loony / not equivalent. */
  verifySkips?: boolean;
}
export const ALL_RULES: Readonly<NimRules> = { graphKey: true, shortenChains: true, skipLoony: true };
export const NO_RULES: Readonly<NimRules> = { graphKey: false, shortenChains: false, skipLoony: false };

/**
 * A region: n coins, ground strings g[i], coin neighbours nb[4i .. 4i+nd[i]-1] (nothing past
 * them is ever read, and a region made here has nothing there). A region is never
 * changed once made (moves work on a copy, workOf), so knownGraph keeps its memo keys on it.
 */
export interface SGraph {
  n: number;
  g: Uint8Array | number[];
  nd: Uint8Array | number[];
  nb: Int16Array | number[];
  /** Its key as numbered (rawGraphKey), once knownGraph made it. */
  rawKey?: string;
  /** Its canonical key, once knownGraph found or made it. */
  canonKey?: string;
}

export interface GraphContext {
  cache: NimCache;
  rules: NimRules;
  /** Regions whose value was computed (memo misses). */
  nodes: number;
  hits: number;
  budget: number;
  /** Regions of at least this many coins are valued by zero tests (graphWins), smaller ones by the mex. */
  zeroTestMinCoins: number;
  /** Date.now() after which the search gives up like over budget. */
  deadline?: number;
  /** Gives up like over budget when this says so (checked every 64 regions). */
  shouldStop?: () => boolean;
  /** Rule counters (how often each simplification fired). */
  shortened: number;
  dropped: number;
  skipped: number;
}

export function newGraphContext(
  budget: number,
  cache: NimCache,
  rules: Partial<NimRules> = {},
  zeroTestMinCoins = ZERO_TEST_MIN_COINS,
): GraphContext {
  const counters = { nodes: 0, hits: 0, shortened: 0, dropped: 0, skipped: 0 };
  return { cache, rules: { ...ALL_RULES, ...rules }, budget, zeroTestMinCoins, ...counters };
}

// ---------------------------------------------------------------------------------------------
// working graph: a mutable copy with alive flags

interface Work {
  n: number;
  g: Uint8Array;
  nd: Uint8Array;
  nb: Int16Array;
  alive: Uint8Array;
}

/**
 * The working copy of G, in module-wide scratch arrays: a move's copy, captures, chain rules and
 * components never call back into the search, so one copy is alive at a time, and small typed
 * arrays made for each of the millions of options were most of the engine's time. Arrays longer
 * than n: only [0, n) (nb: [0, 4n)) is read.
 */
function workOf(G: SGraph): Work {
  const n = G.n;
  if (scratchWork.g.length < n) scratchWork = newWork(2 * n);
  const W = scratchWork;
  W.n = n;
  const { g, nd, nb } = G;
  for (let i = 0; i < n; i++) {
    W.g[i] = g[i];
    const d = (W.nd[i] = nd[i]);
    for (let k = 0; k < d; k++) W.nb[4 * i + k] = nb[4 * i + k]; // (a region's nb is made up to nd only)
  }
  W.alive.fill(1, 0, n);
  return W;
}
function newWork(capacity: number): Work {
  const [g, nd, alive] = [new Uint8Array(capacity), new Uint8Array(capacity), new Uint8Array(capacity)];
  return { n: 0, g, nd, nb: new Int16Array(4 * capacity), alive };
}
let scratchWork = newWork(64);
/** Scratch of shortenRuns and components (as workOf's). */
let scratchMarks = new Int16Array(64),
  scratchIdx = new Int16Array(64),
  scratchStack = new Int16Array(64),
  scratchSize = new Int32Array(64);
function marksFor(n: number): void {
  if (scratchMarks.length >= n) return;
  scratchMarks = new Int16Array(2 * n);
  scratchIdx = new Int16Array(2 * n);
  scratchStack = new Int16Array(2 * n);
  scratchSize = new Int32Array(2 * n);
}

function unlinkOne(W: Work, i: number, j: number): void {
  const base = 4 * i,
    d = W.nd[i];
  for (let k = 0; k < d; k++) {
    if (W.nb[base + k] === j) {
      W.nb[base + k] = W.nb[base + d - 1];
      W.nb[base + d - 1] = -1;
      W.nd[i] = d - 1;
      return;
    }
  }
  throw new Error(`nimstring graph: no string ${i}-${j}`);
}
function cut(W: Work, i: number, j: number): void {
  unlinkOne(W, i, j);
  unlinkOne(W, j, i);
}
function replaceNb(W: Work, i: number, from: number, to: number): void {
  const base = 4 * i;
  for (let k = 0; k < W.nd[i]; k++)
    if (W.nb[base + k] === from) {
      W.nb[base + k] = to;
      return;
    }
  throw new Error(`nimstring graph: no string ${i}-${from}`);
}

/**
 * Greedy free captures and loony detection (the rules of cells.ts `simplify`, on a graph): `stack`
 * holds the coins whose degree may have fallen to <= 1. Returns true if the position is loony.
 */
function capture(W: Work, stack: number[]): boolean {
  const { g, nd, nb, alive } = W;
  while (stack.length) {
    const i = stack.pop()!;
    if (!alive[i]) continue;
    const d = g[i] + nd[i];
    if (d === 0) {
      alive[i] = 0;
      continue;
    }
    if (d !== 1) continue;
    if (g[i] === 1) {
      g[i] = 0;
      alive[i] = 0;
      continue;
    }
    const j = nb[4 * i];
    const dn = g[j] + nd[j];
    if (dn >= 3) {
      cut(W, i, j);
      alive[i] = 0;
      continue;
    }
    if (dn === 1) {
      cut(W, i, j);
      alive[i] = 0;
      alive[j] = 0;
      continue;
    }
    // dn === 2: where does j's other string go?
    if (g[j] === 1) return true;
    const k = nb[4 * j] === i ? nb[4 * j + 1] : nb[4 * j];
    if (g[k] + nd[k] === 1) {
      cut(W, i, j);
      alive[i] = 0;
      stack.push(j);
      continue;
    }
    return true;
  }
  return false;
}

/** The coin after `cur` on a run of degree-2 coins (coming from `prev`), or -1 at the run's end. */
function runNext(W: Work, cur: number, prev: number): number {
  if (W.nd[cur] !== 2) return -1; // the other string goes to the ground
  const a = W.nb[4 * cur],
    b = W.nb[4 * cur + 1];
  const o = a === prev ? b : a;
  return W.g[o] + W.nd[o] === 2 ? o : -1;
}

/**
 * Runs of degree-2 coins: shorten long ones to 3 coins, drop isolated runs of value 0 (when
 * `rules.shortenChains`). Only looks at alive coins. Runs of length <= 3 are left alone.
 */
function shortenRuns(W: Work, ctx: GraphContext): void {
  const { n, g, nd, nb, alive } = W;
  marksFor(n);
  const seen = scratchMarks.fill(0, 0, n);
  // the run in order (run[0, k)), built from the walk one way (left, backwards) and the other
  const left = scratchStack,
    run = scratchIdx;
  for (let v = 0; v < n; v++) {
    if (!alive[v] || seen[v] || g[v] + nd[v] !== 2) continue;
    seen[v] = 1;
    // walk one way from v
    let cycle = false,
      nl = 0;
    const first = nd[v] >= 1 && g[nb[4 * v]] + nd[nb[4 * v]] === 2 ? nb[4 * v] : -1;
    let prev = v,
      cur = first;
    while (cur >= 0) {
      if (cur === v) {
        cycle = true;
        break;
      }
      seen[cur] = 1;
      left[nl++] = cur;
      const nx = runNext(W, cur, prev);
      prev = cur;
      cur = nx;
    }
    if (cycle) {
      // an isolated loop: value 0 when it has >= 4 coins (every move is loony)
      if (nl + 1 >= 4) {
        alive[v] = 0;
        for (let t = 0; t < nl; t++) alive[left[t]] = 0;
        ctx.dropped++;
      }
      continue;
    }
    let k = 0;
    for (let t = nl - 1; t >= 0; t--) run[k++] = left[t];
    run[k++] = v;
    // the other way
    const second = nd[v] === 2 ? (nb[4 * v + 1] === first ? nb[4 * v] : nb[4 * v + 1]) : -1;
    prev = v;
    cur = second >= 0 && g[second] + nd[second] === 2 ? second : -1;
    while (cur >= 0) {
      seen[cur] = 1;
      run[k++] = cur;
      const nx = runNext(W, cur, prev);
      prev = cur;
      cur = nx;
    }
    // isolated run: both ends on the ground
    let ends = 0;
    for (let t = 0; t < k; t++) ends += g[run[t]];
    if (ends === 2) {
      if (k >= 3) {
        for (let t = 0; t < k; t++) alive[run[t]] = 0;
        ctx.dropped++;
      }
      continue;
    }
    if (k < 4) continue;
    // v1 v2 ... vk -> v1 v2 vk
    const v2 = run[1],
      v3 = run[2],
      vk1 = run[k - 2],
      vk = run[k - 1];
    replaceNb(W, v2, v3, vk);
    replaceNb(W, vk, vk1, v2);
    for (let t = 2; t < k - 1; t++) {
      alive[run[t]] = 0;
      nd[run[t]] = 0;
    }
    ctx.shortened++;
  }
}

/** Connected components of the alive coins, renumbered in increasing old index. */
function components(W: Work): SGraph[] {
  const { n, g, nd, nb, alive } = W;
  marksFor(n);
  const comp = scratchMarks.fill(-1, 0, n),
    stack = scratchStack;
  let count = 0;
  for (let s = 0; s < n; s++) {
    if (!alive[s] || comp[s] >= 0) continue;
    const c = count++;
    comp[s] = c;
    let top = 0;
    stack[top++] = s;
    while (top > 0) {
      const i = stack[--top],
        base = 4 * i,
        d = nd[i];
      for (let k = 0; k < d; k++) {
        const j = nb[base + k];
        if (comp[j] < 0) {
          comp[j] = c;
          stack[top++] = j;
        }
      }
    }
  }
  if (count === 0) return [];
  const size = scratchSize.fill(0, 0, count);
  const newIdx = scratchIdx;
  for (let v = 0; v < n; v++) if (comp[v] >= 0) newIdx[v] = size[comp[v]]++;
  const out: SGraph[] = [];
  for (let c = 0; c < count; c++) {
    const m = size[c];
    // g and nd are filled below, nb up to nd (never read further): no zeros first (a tenth of the
    // engine's time went to making these arrays)
    const [g, nd, nb] = [new Array<number>(m), new Array<number>(m), new Array<number>(4 * m)];
    out.push({ n: m, g, nd, nb, rawKey: undefined, canonKey: undefined });
  }
  for (let v = 0; v < n; v++) {
    const c = comp[v];
    if (c < 0) continue;
    const G = out[c],
      t = newIdx[v],
      d = nd[v];
    G.g[t] = g[v];
    G.nd[t] = d;
    for (let k = 0; k < d; k++) G.nb[4 * t + k] = newIdx[nb[4 * v + k]];
  }
  return out;
}

function finish(W: Work, ctx: GraphContext): SGraph[] {
  if (ctx.rules.shortenChains) shortenRuns(W, ctx);
  return components(W);
}

/** A move: cut a ground string of coin i (j = -1) or the string i-j. */
function applyMove(G: SGraph, i: number, j: number, ctx: GraphContext): SGraph[] | Loony {
  const W = workOf(G);
  if (j < 0) W.g[i]--;
  else cut(W, i, j);
  const stack = j < 0 ? [i] : [i, j];
  if (capture(W, stack)) return LOONY;
  return finish(W, ctx);
}

/** Regions of a set of board coins (cells of cells.ts, any state): simplified, or LOONY. */
export function regionsOfCells(cells: readonly Cell[], ctx: GraphContext): SGraph[] | Loony {
  const n = cells.length;
  const idx = new Int16Array(256).fill(-1);
  for (let i = 0; i < n; i++) idx[cells[i].y * 16 + cells[i].x] = i;
  const W: Work = {
    n,
    g: new Uint8Array(n),
    nd: new Uint8Array(n),
    nb: new Int16Array(4 * n).fill(-1),
    alive: new Uint8Array(n).fill(1),
  };
  for (let i = 0; i < n; i++) {
    const c = cells[i],
      base = c.y * 16 + c.x;
    W.g[i] = c.g;
    const add = (j: number) => {
      if (j < 0) throw new Error(`nimstring: dangling link at (${c.x},${c.y})`);
      W.nb[4 * i + W.nd[i]++] = j;
    };
    if (c.links & RIGHT) add(idx[base + 1]);
    if (c.links & UP) add(idx[base + 16]);
    if (c.links & LEFT) add(idx[base - 1]);
    if (c.links & DOWN) add(idx[base - 16]);
  }
  const stack: number[] = [];
  for (let i = n - 1; i >= 0; i--) stack.push(i);
  if (capture(W, stack)) return LOONY;
  return finish(W, ctx);
}

/** Build a region from an explicit graph (tests): ground counts and coin-coin edges. */
export function graphOf(ground: number[], edges: [number, number][]): SGraph {
  const n = ground.length;
  const G: SGraph = { n, g: Uint8Array.from(ground), nd: new Uint8Array(n), nb: new Int16Array(4 * n).fill(-1) };
  for (const [a, b] of edges) {
    if (G.nd[a] >= 4 || G.nd[b] >= 4) throw new RangeError('nimstring graph: more than 4 coin strings on a coin');
    G.nb[4 * a + G.nd[a]++] = b;
    G.nb[4 * b + G.nd[b]++] = a;
  }
  return G;
}

/** Simplify an explicit graph (captures, loony detection, chain rules) into regions, or LOONY. */
export function simplifyGraph(G: SGraph, ctx: GraphContext): SGraph[] | Loony {
  const W = workOf(G);
  const stack: number[] = [];
  for (let i = G.n - 1; i >= 0; i--) stack.push(i);
  if (capture(W, stack)) return LOONY;
  return finish(W, ctx);
}

// ---------------------------------------------------------------------------------------------
// values

/**
 * The value of a simplified, connected, non-loony region when it needs no search (an isolated chain
 * or loop) or is memoized (a number), else its memo key (for the caller to store under). The memo is
 * the cell engine's NimCache, with graph keys (toKey): values by canonical form (rules.graphKey;
 * else by the graph as numbered), zero-test wins by form and heap, and canonical forms by the
 * graph as numbered (cheap: components keep the order of their coins, so the same position reached
 * again has the same numbering).
 */
function knownGraph(G: SGraph, ctx: GraphContext): number | string;
/** lookOnly: the value when the memo holds it without a new canonical form, else undefined (nothing computed). */
function knownGraph(G: SGraph, ctx: GraphContext, lookOnly: true): number | undefined;
function knownGraph(G: SGraph, ctx: GraphContext, lookOnly = false): number | string | undefined {
  const n = G.n;
  if (n === 0) return 0;
  // all coins of degree 2: an isolated chain (ground at both ends) or an isolated loop
  let allTwo = true,
    ground = 0;
  for (let i = 0; i < n; i++) {
    if (G.g[i] + G.nd[i] !== 2) {
      allTwo = false;
      break;
    }
    ground += G.g[i];
  }
  if (allTwo && (ground > 0 || n >= 4)) return ground === 0 || n >= 3 ? 0 : 1;
  const cache = ctx.cache;
  // the keys are kept on the region: one searched after its lookOnly probe is not encoded again
  const raw = (G.rawKey ??= rawGraphKey(G));
  let key: string | undefined = raw;
  if (ctx.rules.graphKey) {
    key = G.canonKey ?? cache.canonical.get(raw);
    if (key === undefined) {
      if (lookOnly) return undefined;
      key = cache.addCanonical(raw, toKey(canonicalCodes(G)));
    }
    G.canonKey = key;
  }
  const known = cache.get(key);
  if (known !== undefined) {
    ctx.hits++;
    return known;
  }
  return lookOnly ? undefined : key;
}

/** Value of a simplified, connected region that is not loony. */
export function graphValue(G: SGraph, ctx: GraphContext): number {
  const k = knownGraph(G, ctx);
  if (typeof k === 'number') return k;
  if (G.n >= ctx.zeroTestMinCoins) {
    // the first heap the region loses against is its value (graphWins); the tests share the options made
    const options = new Options(G, ctx);
    for (let h = 0; ; h++) if (!graphWins(G, h, ctx, k, options)) return h;
  }
  if (spent(ctx)) throw new BudgetExceeded();
  const seen: number[] = [];
  forEachOption(G, ctx, (i, j) => optionInto(G, i, j, ctx, seen));
  let mex = 0;
  while (seen[mex]) mex++;
  ctx.cache.set(k, mex);
  return mex;
}

/**
 * ZERO TESTS on the graph (as cellEngine.ts `wins`, whose reasoning holds for any Nimstring region):
 * does the player to move win G plus a nim heap *h? G + *h is lost exactly when h is G's value, so
 * the value is the first h whose test fails, and a test stops at the first winning move. A move in G
 * wins when it is not loony and its parts plus *h are a loss (graphSumWins); a move in the heap (to
 * *y, y < h) when G + *y is a loss. A loss proves G's value and is memoized as the value; a win is
 * memoized with its heap (NimCache.addWin, as the cell engine's). The options tried are those of
 * the mex (skipLoony leaves out only loony moves and moves equivalent to one tried). Order (the
 * work, never the answer): options whose parts all have known values first (they decide without
 * search), then the smallest largest part first, of two the one with more ground strings first; the
 * heap last. Written apart from the cell engine's on purpose: the tests compare the two as
 * independent engines.
 */
export function graphWins(G: SGraph, h: number, ctx: GraphContext, key?: string, options?: Options): boolean {
  const k = key ?? knownGraph(G, ctx);
  if (typeof k === 'number') return k !== h;
  if (ctx.cache.hasWin(k, h)) {
    ctx.hits++;
    return true;
  }
  if (spent(ctx)) throw new BudgetExceeded();
  const opts = options ?? new Options(G, ctx);
  let win = false;
  const open: { t: number; key: number }[] = [];
  for (let t = 0; t < opts.count; t++) {
    const parts = opts.partsOf(t, ctx);
    if (parts === LOONY) continue;
    let x = h;
    for (const p of parts) {
      // only what the memos hold: the canonical forms of options never searched are not computed
      const v = knownGraph(p, ctx, true);
      if (v === undefined) {
        x = -1;
        break;
      }
      x ^= v;
    }
    if (x === 0) {
      win = true; // a win ends the test: no more options
      break;
    }
    if (x < 0) open.push({ t, key: orderKey(parts) });
  }
  open.sort((a, b) => a.key - b.key); // stable: the generation order among equal keys
  for (let u = 0; !win && u < open.length; u++) win = !graphSumWins(opts.partsOf(open[u].t, ctx) as SGraph[], h, ctx);
  for (let y = 0; !win && y < h; y++) win = !graphWins(G, y, ctx, k, opts);
  if (win) ctx.cache.addWin(k, h);
  else ctx.cache.set(k, h);
  return win;
}

/**
 * The options of a region in a zero test, as moves (i, j) in forEachOption's order, their parts made
 * when a test first needs them. A small region (KEEP_PARTS_MAX_COINS) keeps its options' parts for
 * the rest of its test and for the tests of the next heaps (graphValue); a large one's are made again
 * each time (applyMove is deterministic), so that a deep test does not hold every level's parts.
 */
class Options {
  private readonly moves: number[] = [];
  private readonly parts: (SGraph[] | Loony | undefined)[] = [];
  private readonly keep: boolean;
  constructor(
    private readonly G: SGraph,
    ctx: GraphContext,
  ) {
    this.keep = G.n <= KEEP_PARTS_MAX_COINS;
    forEachOption(G, ctx, (i, j) => void this.moves.push(i, j));
  }
  get count(): number {
    return this.moves.length >> 1;
  }
  partsOf(t: number, ctx: GraphContext): SGraph[] | Loony {
    const known = this.parts[t];
    if (known !== undefined) return known;
    const made = applyMove(this.G, this.moves[2 * t], this.moves[2 * t + 1], ctx);
    if (this.keep) this.parts[t] = made;
    return made;
  }
}

/** The order of an option in a zero test: its largest part's coins, fewer first, then its ground strings, more first. */
function orderKey(parts: SGraph[]): number {
  let big = parts[0];
  for (const p of parts) if (p.n > big.n) big = p;
  let ground = 0;
  for (let i = 0; i < big.n; i++) ground += big.g[i];
  return big.n * 4096 - ground;
}

/** Does the player to move win the sum of these regions and *h? The largest is tested, the rest valued. */
export function graphSumWins(parts: SGraph[], h: number, ctx: GraphContext): boolean {
  if (parts.length === 0) return h !== 0;
  let big = 0;
  for (let i = 1; i < parts.length; i++) if (parts[i].n > parts[big].n) big = i;
  let x = h;
  for (let i = 0; i < parts.length; i++) if (i !== big) x ^= graphValue(parts[i], ctx);
  return graphWins(parts[big], x, ctx);
}

/**
 * Every option of G to try, as (i, j): cut the string i-j (j = -1: a ground string of i). With
 * rules.skipLoony, moves known to be loony are left out, and of equivalent moves one is given
 * (verifySkips: each one left out is applied anyway and checked). Stops when `visit` returns true.
 */
function forEachOption(G: SGraph, ctx: GraphContext, visit: (i: number, j: number) => boolean | void): void {
  const n = G.n;
  let allTwo = true;
  for (let i = 0; i < n && allTwo; i++) if (G.g[i] + G.nd[i] !== 2) allTwo = false;
  const skip = ctx.rules.skipLoony && !allTwo; // (a short isolated loop: runs are not chains)
  let runLen: Int32Array | null = null;
  if (skip) runLen = runLengths(G);
  const verify = ctx.rules.verifySkips === true;
  for (let i = 0; i < n; i++) {
    if (pastDeadline(ctx)) throw new BudgetExceeded();
    const deg2 = G.g[i] + G.nd[i] === 2;
    if (G.g[i] > 0) {
      let skipped = false;
      if (skip && deg2) {
        const L = runLen![i];
        // long run: loony; end of a 2-run: loony; a 1-run: the ground string is its one move
        if (L >= 2) skipped = true;
      }
      if (skipped) {
        ctx.skipped++;
        if (verify) verifyLoony(G, i, -1, ctx);
      } else if (visit(i, -1) === true) return;
    }
    for (let k = 0; k < G.nd[i]; k++) {
      const j = G.nb[4 * i + k];
      if (j < i) continue;
      let skipped = false,
        equivalentTo = -2;
      const Li = skip && G.g[i] + G.nd[i] === 2 ? runLen![i] : 0,
        Lj = skip && G.g[j] + G.nd[j] === 2 ? runLen![j] : 0;
      if (skip) {
        if (Li >= 3 || Lj >= 3) skipped = true;
        else if (Li === 2 || Lj === 2)
          skipped = !(Li === 2 && Lj === 2); // the middle of a 2-run is tried
        else if (Li === 1 || Lj === 1) {
          const a = Li === 1 ? i : j,
            other = a === i ? j : i;
          const rep = oneRunRep(G, a);
          if (rep !== other) {
            skipped = true;
            equivalentTo = rep;
          }
        }
      }
      if (skipped) {
        ctx.skipped++;
        if (verify) {
          if (equivalentTo === -2) verifyLoony(G, i, j, ctx);
          else verifySame(G, i, j, Li1(G, runLen!, i) ? i : j, equivalentTo, ctx);
        }
      } else if (visit(i, j) === true) return;
    }
  }
}

function Li1(G: SGraph, runLen: Int32Array, i: number): boolean {
  return G.g[i] + G.nd[i] === 2 && runLen[i] === 1;
}

/** The one string tried for a 1-run coin a: its ground string if any, else its string to the lowest-numbered neighbour. */
function oneRunRep(G: SGraph, a: number): number {
  if (G.g[a] > 0) return -1;
  const p = G.nb[4 * a],
    q = G.nb[4 * a + 1];
  return p < q ? p : q;
}

function optionInto(G: SGraph, i: number, j: number, ctx: GraphContext, seen: number[]): void {
  const parts = applyMove(G, i, j, ctx);
  if (parts === LOONY) return;
  let x = 0;
  for (const p of parts) x ^= graphValue(p, ctx);
  seen[x] = 1;
}

function verifyLoony(G: SGraph, i: number, j: number, ctx: GraphContext): void {
  const parts = applyMove(G, i, j, { ...ctx, rules: { ...ctx.rules, verifySkips: false } });
  if (parts !== LOONY) throw new Error(`nimstring skipLoony: move ${i}-${j} is not loony in ${rawGraphKey(G)}`);
}
function verifySame(G: SGraph, i: number, j: number, a: number, rep: number, ctx: GraphContext): void {
  const c = { ...ctx, rules: { ...ctx.rules, verifySkips: false } };
  const k1 = partsKey(applyMove(G, i, j, c));
  const k2 = partsKey(applyMove(G, a, rep, c));
  if (k1 !== k2) throw new Error(`nimstring skipLoony: moves ${i}-${j} and ${a}-${rep} differ in ${rawGraphKey(G)}`);
}
function partsKey(p: SGraph[] | Loony): string {
  return p === LOONY ? 'L' : p.map(graphKey).sort().join('|');
}

/** For every degree-2 coin, the number of coins in its run of degree-2 coins (0 for others). */
function runLengths(G: SGraph): Int32Array {
  const n = G.n;
  const out = new Int32Array(n);
  const W = G as unknown as Work; // runNext only reads g, nd, nb
  for (let v = 0; v < n; v++) {
    if (out[v] || G.g[v] + G.nd[v] !== 2) continue;
    const run = [v];
    out[v] = -1;
    for (let side = 0; side < 2; side++) {
      if (side >= G.nd[v]) break;
      let prev = v,
        cur = G.nb[4 * v + side];
      if (G.g[cur] + G.nd[cur] !== 2) continue;
      while (cur >= 0 && out[cur] === 0) {
        out[cur] = -1;
        run.push(cur);
        const nx = runNext(W, cur, prev);
        prev = cur;
        cur = nx;
      }
    }
    for (const x of run) out[x] = run.length;
  }
  return out;
}

/** Value of a set of regions (xor), or LOONY. */
export function regionsValue(parts: SGraph[] | Loony, ctx: GraphContext): number | Loony {
  if (parts === LOONY) return LOONY;
  let x = 0;
  for (const p of parts) x ^= graphValue(p, ctx);
  return x;
}

/**
 * Naive recursion on the graph (Brinker, "Developing an efficient algorithm for nimber calculation in Dots and Boxes": mex over all options, no memo, no rules
 * beyond captures and loony detection), for the benchmark baseline.
 */
export function naiveGraphValue(parts: SGraph[], counter: { nodes: number; budget: number }): number {
  if (++counter.nodes > counter.budget) throw new BudgetExceeded();
  // the whole position as one graph
  const G = union(parts);
  const ctx = newGraphContext(Infinity, new NimCache(), NO_RULES);
  const seen: number[] = [];
  for (let i = 0; i < G.n; i++) {
    const moves: number[] = G.g[i] > 0 ? [-1] : [];
    for (let k = 0; k < G.nd[i]; k++) if (G.nb[4 * i + k] > i) moves.push(G.nb[4 * i + k]);
    for (const j of moves) {
      const p = applyMove(G, i, j, ctx);
      if (p === LOONY) continue;
      seen[naiveGraphValue(p, counter)] = 1;
    }
  }
  let mex = 0;
  while (seen[mex]) mex++;
  return mex;
}

function union(parts: SGraph[]): SGraph {
  let n = 0;
  for (const p of parts) n += p.n;
  const G = { n, g: new Uint8Array(n), nd: new Uint8Array(n), nb: new Int16Array(4 * n).fill(-1) };
  let off = 0;
  for (const p of parts) {
    G.g.set(p.g, off);
    G.nd.set(p.nd, off);
    for (let v = 0; v < p.n; v++) for (let k = 0; k < p.nd[v]; k++) G.nb[4 * (off + v) + k] = p.nb[4 * v + k] + off;
    off += p.n;
  }
  return G;
}
