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
 *                 see canonicalCodes): isomorphic regions share one entry. Off: the encoding of the
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
 */

import { Cell, LOONY, Loony, RIGHT, UP, LEFT, DOWN } from './cells';
import { BudgetExceeded, NimCache, pastDeadline, spent } from './cellEngine';

export interface NimRules {
  graphKey: boolean;
  shortenChains: boolean;
  skipLoony: boolean;
  /** Tests only: apply every skipped move anyway and throw if it was not loony / not equivalent. */
  verifySkips?: boolean;
}
export const ALL_RULES: Readonly<NimRules> = { graphKey: true, shortenChains: true, skipLoony: true };
export const NO_RULES: Readonly<NimRules> = { graphKey: false, shortenChains: false, skipLoony: false };

/** A region: n coins, ground strings g[i], coin neighbours nb[4i .. 4i+nd[i]-1]. */
export interface SGraph {
  n: number;
  g: Uint8Array;
  nd: Uint8Array;
  nb: Int16Array;
}

export interface GraphContext {
  cache: NimCache;
  rules: NimRules;
  /** Regions whose value was computed (memo misses). */
  nodes: number;
  hits: number;
  budget: number;
  /** Date.now() after which the search gives up like over budget. */
  deadline?: number;
  /** Gives up like over budget when this says so (checked every 64 regions). */
  shouldStop?: () => boolean;
  /** Rule counters (how often each simplification fired). */
  shortened: number;
  dropped: number;
  skipped: number;
}

export function newGraphContext(budget: number, cache: NimCache, rules: Partial<NimRules> = {}): GraphContext {
  return { cache, rules: { ...ALL_RULES, ...rules }, nodes: 0, hits: 0, budget, shortened: 0, dropped: 0, skipped: 0 };
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

function workOf(G: SGraph): Work {
  const alive = new Uint8Array(G.n).fill(1);
  return { n: G.n, g: G.g.slice(), nd: G.nd.slice(), nb: G.nb.slice(), alive };
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
  const seen = new Uint8Array(n);
  const run: number[] = [];
  for (let v = 0; v < n; v++) {
    if (!alive[v] || seen[v] || g[v] + nd[v] !== 2) continue;
    run.length = 0;
    seen[v] = 1;
    // walk one way from v
    let cycle = false;
    const left: number[] = [];
    const first = nd[v] >= 1 && g[nb[4 * v]] + nd[nb[4 * v]] === 2 ? nb[4 * v] : -1;
    let prev = v,
      cur = first;
    while (cur >= 0) {
      if (cur === v) {
        cycle = true;
        break;
      }
      seen[cur] = 1;
      left.push(cur);
      const nx = runNext(W, cur, prev);
      prev = cur;
      cur = nx;
    }
    if (cycle) {
      // an isolated loop: value 0 when it has >= 4 coins (every move is loony)
      if (left.length + 1 >= 4) {
        alive[v] = 0;
        for (const x of left) alive[x] = 0;
        ctx.dropped++;
      }
      continue;
    }
    // the other way
    const second = nd[v] === 2 ? (nb[4 * v + 1] === first ? nb[4 * v] : nb[4 * v + 1]) : -1;
    const right: number[] = [];
    prev = v;
    cur = second >= 0 && g[second] + nd[second] === 2 ? second : -1;
    while (cur >= 0) {
      seen[cur] = 1;
      right.push(cur);
      const nx = runNext(W, cur, prev);
      prev = cur;
      cur = nx;
    }
    for (let k = left.length - 1; k >= 0; k--) run.push(left[k]);
    run.push(v);
    for (const x of right) run.push(x);
    const k = run.length;
    // isolated run: both ends on the ground
    let ends = 0;
    for (const x of run) ends += g[x];
    if (ends === 2) {
      if (k >= 3) {
        for (const x of run) alive[x] = 0;
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
  const comp = new Int16Array(n).fill(-1);
  let count = 0;
  const stack: number[] = [];
  for (let s = 0; s < n; s++) {
    if (!alive[s] || comp[s] >= 0) continue;
    const c = count++;
    comp[s] = c;
    stack.push(s);
    while (stack.length) {
      const i = stack.pop()!;
      for (let k = 0; k < nd[i]; k++) {
        const j = nb[4 * i + k];
        if (comp[j] < 0) {
          comp[j] = c;
          stack.push(j);
        }
      }
    }
  }
  if (count === 0) return [];
  const size = new Int32Array(count);
  const newIdx = new Int16Array(n);
  for (let v = 0; v < n; v++) if (comp[v] >= 0) newIdx[v] = size[comp[v]]++;
  const out: SGraph[] = new Array(count);
  for (let c = 0; c < count; c++) {
    const m = size[c];
    out[c] = { n: m, g: new Uint8Array(m), nd: new Uint8Array(m), nb: new Int16Array(4 * m) };
  } // (nb is read up to nd only)
  for (let v = 0; v < n; v++) {
    const c = comp[v];
    if (c < 0) continue;
    const G = out[c],
      t = newIdx[v];
    G.g[t] = g[v];
    G.nd[t] = nd[v];
    for (let k = 0; k < nd[v]; k++) G.nb[4 * t + k] = newIdx[nb[4 * v + k]];
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
// keys

/** Encoding of G with coins in the order `order`: per coin its ground count and degree, then its neighbours' positions, sorted. */
function encode(G: SGraph, order: ArrayLike<number>, pos: Int32Array, out: number[]): void {
  out.length = 0;
  const n = G.n;
  for (let t = 0; t < n; t++) {
    const v = order[t],
      d = G.nd[v];
    out.push(G.g[v] * 8 + d);
    // neighbours' positions, sorted (d <= 4: insertion sort)
    const s0 = out.length;
    for (let k = 0; k < d; k++) {
      const p = pos[G.nb[4 * v + k]];
      let q = out.length;
      out.push(p);
      while (q > s0 && out[q - 1] > p) {
        out[q] = out[q - 1];
        q--;
      }
      out[q] = p;
    }
  }
}

const KEY_MARK = '\uFFFF'; // graph keys never equal cell keys of cellEngine.ts (their codes are < 8192)

function toKey(codes: ArrayLike<number>, len = codes.length): string {
  let s = KEY_MARK;
  for (let i = 0; i < len; i++) s += String.fromCharCode(codes[i]);
  return s;
}

/** Encoding of G as it is numbered, into out; returns its length. */
function rawCodes(G: SGraph, out: Int32Array): number {
  let p = 0;
  const { n, g, nd, nb } = G;
  for (let v = 0; v < n; v++) {
    const d = nd[v];
    out[p++] = g[v] * 8 + d;
    const s0 = p;
    for (let k = 0; k < d; k++) {
      const x = nb[4 * v + k];
      let q = p++;
      while (q > s0 && out[q - 1] > x) {
        out[q] = out[q - 1];
        q--;
      }
      out[q] = x;
    }
  }
  return p;
}

/** 30-bit hash of codes[0..len). */
function hashCodes(codes: ArrayLike<number>, len: number): number {
  let h1 = 0x811c9dc5 | 0,
    h2 = 0x2545f491 | 0;
  for (let i = 0; i < len; i++) {
    const c = codes[i];
    h1 = Math.imul(h1 ^ c, 0x01000193);
    h2 = Math.imul(h2 + c, 0x5bd1e995) ^ (h2 >>> 15);
  }
  h1 ^= h1 >>> 13;
  h1 = Math.imul(h1, 0xc2b2ae35);
  h1 ^= h1 >>> 16;
  // a small integer (fast Map key); collisions are resolved by comparing whole encodings
  return (h1 ^ Math.imul(h2, 0x27d4eb2d)) & 0x3fffffff;
}

let scratch = new Int32Array(1024);
function scratchFor(n: number): Int32Array {
  if (scratch.length < 5 * n + 8) scratch = new Int32Array(10 * n + 16);
  return scratch;
}

/** Key of G as it is numbered (a string, for tests and debugging). */
export function rawGraphKey(G: SGraph): string {
  const buf = new Int32Array(5 * G.n + 8);
  return toKey(buf, rawCodes(G, buf));
}

/**
 * Colour refinement: colours are ranks of (own colour, sorted neighbour colours) until the
 * number of classes is stable. Ranks are computed from isomorphism-invariant data only, so
 * isomorphic graphs with corresponding colourings refine to corresponding colourings.
 * Returns the number of classes.
 */
function refine(G: SGraph, col: Int32Array, classes: number): number {
  const n = G.n,
    B = n + 1;
  const sig = new Float64Array(n);
  const idx = new Int32Array(n);
  for (;;) {
    for (let v = 0; v < n; v++) {
      const d = G.nd[v];
      let a = 0,
        b = 0,
        c = 0,
        e = 0;
      // sorted neighbour colours (+1 so that "no neighbour" = 0 sorts first)
      const base = 4 * v;
      const t0 = d > 0 ? col[G.nb[base]] + 1 : 0,
        t1 = d > 1 ? col[G.nb[base + 1]] + 1 : 0;
      const t2 = d > 2 ? col[G.nb[base + 2]] + 1 : 0,
        t3 = d > 3 ? col[G.nb[base + 3]] + 1 : 0;
      // sort 4 numbers descending
      let x0 = t0,
        x1 = t1,
        x2 = t2,
        x3 = t3,
        tmp;
      if (x0 < x1) {
        tmp = x0;
        x0 = x1;
        x1 = tmp;
      }
      if (x2 < x3) {
        tmp = x2;
        x2 = x3;
        x3 = tmp;
      }
      if (x0 < x2) {
        tmp = x0;
        x0 = x2;
        x2 = tmp;
      }
      if (x1 < x3) {
        tmp = x1;
        x1 = x3;
        x3 = tmp;
      }
      if (x1 < x2) {
        tmp = x1;
        x1 = x2;
        x2 = tmp;
      }
      a = x0;
      b = x1;
      c = x2;
      e = x3;
      sig[v] = (((col[v] * B + a) * B + b) * B + c) * B + e;
      idx[v] = v;
    }
    let k = -1,
      last = -1;
    if (n <= 400) {
      // sort (signature, coin) pairs packed in one double: exact below 2^53 for n <= 400
      const packed = new Float64Array(n);
      for (let v = 0; v < n; v++) packed[v] = sig[v] * n + v;
      packed.sort();
      for (let t = 0; t < n; t++) {
        const v = packed[t] % n,
          sg = (packed[t] - v) / n;
        if (sg !== last) {
          k++;
          last = sg;
        }
        col[v] = k;
      }
    } else {
      const sorted = Array.from(idx).sort((p, q) => sig[p] - sig[q]);
      for (const v of sorted) {
        if (sig[v] !== last) {
          k++;
          last = sig[v];
        }
        col[v] = k;
      }
    }
    const nc = k + 1;
    if (nc === classes) return nc;
    classes = nc;
    if (nc === n) return nc;
  }
}

const LEAF_CAP = 64;

/**
 * Canonical codes of G: the lexicographically least encoding over the leaves of an
 * individualisation-refinement search (every leaf is a discrete colouring, i.e. an ordering of the
 * coins). If the search would pass LEAF_CAP leaves, the remaining branches are not explored: the
 * codes are then still a complete encoding of G (never ambiguous), only maybe not canonical.
 */
export function canonicalCodes(G: SGraph): number[] {
  const n = G.n;
  const col = new Int32Array(n);
  // initial colour: ground count and coin degree
  const init = new Float64Array(n);
  for (let v = 0; v < n; v++) init[v] = G.g[v] * 8 + G.nd[v];
  const vals = Array.from(new Set(init)).sort((a, b) => a - b);
  for (let v = 0; v < n; v++) col[v] = vals.indexOf(init[v]);
  const classes = refine(G, col, vals.length);
  let best: number[] | null = null;
  let leaves = 0;
  const cur: number[] = [];
  const order = new Int32Array(n),
    pos = new Int32Array(n);
  const search = (c: Int32Array, nc: number): void => {
    if (nc === n) {
      for (let v = 0; v < n; v++) {
        order[c[v]] = v;
        pos[v] = c[v];
      }
      encode(G, order, pos, cur);
      leaves++;
      if (best === null) {
        best = cur.slice();
        return;
      }
      for (let i = 0; i < cur.length; i++) {
        if (cur[i] !== best[i]) {
          if (cur[i] < best[i]) best = cur.slice();
          return;
        }
      }
      return;
    }
    // the first non-singleton class
    const size = new Int32Array(nc);
    for (let v = 0; v < n; v++) size[c[v]]++;
    let target = 0;
    while (size[target] < 2) target++;
    for (let v = 0; v < n; v++) {
      if (c[v] !== target) continue;
      if (leaves >= LEAF_CAP && best !== null) return;
      const c2 = new Int32Array(n);
      for (let w = 0; w < n; w++) c2[w] = 2 * c[w] + (c[w] === target && w !== v ? 1 : 0);
      // re-rank to 0..nc (the colours are < 2 nc)
      const used = new Int32Array(2 * nc + 1);
      for (let w = 0; w < n; w++) used[c2[w]] = 1;
      let r = 0;
      for (let x = 0; x < used.length; x++)
        if (used[x]) used[x] = r++;
        else used[x] = -1;
      for (let w = 0; w < n; w++) c2[w] = used[c2[w]];
      search(c2, refine(G, c2, r));
    }
  };
  search(col, classes);
  return best!;
}

export function graphKey(G: SGraph): string {
  return toKey(canonicalCodes(G));
}

// ---------------------------------------------------------------------------------------------
// values

/** Value of a simplified, connected region that is not loony. */
export function graphValue(G: SGraph, ctx: GraphContext): number {
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
  // the graph as numbered first (cheap; components keep the order of their coins, so the same
  // position reached again has the same numbering), then its canonical form. Either encoding
  // describes the whole graph, so both can share the memo.
  const cache = ctx.cache;
  const buf = scratchFor(n);
  const rawLen = rawCodes(G, buf);
  const rawHash = hashCodes(buf, rawLen);
  const quick = cache.getCodes(rawHash, buf, rawLen);
  if (quick !== undefined) {
    ctx.hits++;
    return quick;
  }
  const raw = buf.slice(0, rawLen);
  let canon: number[] | null = null,
    canonHash = 0;
  if (ctx.rules.graphKey) {
    canon = canonicalCodes(G);
    canonHash = hashCodes(canon, canon.length);
    const known = cache.getCodes(canonHash, canon, canon.length);
    if (known !== undefined) {
      ctx.hits++;
      cache.setCodes(rawHash, raw, rawLen, known);
      return known;
    }
  }
  if (spent(ctx)) throw new BudgetExceeded();
  const seen: number[] = [];
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
      } else optionInto(G, i, -1, ctx, seen);
    }
    for (let k = 0; k < G.nd[i]; k++) {
      const j = G.nb[4 * i + k];
      if (j < i) continue;
      let skipped = false,
        equivalentTo = -2;
      if (skip) {
        const Li = G.g[i] + G.nd[i] === 2 ? runLen![i] : 0,
          Lj = G.g[j] + G.nd[j] === 2 ? runLen![j] : 0;
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
      } else optionInto(G, i, j, ctx, seen);
    }
  }
  let mex = 0;
  while (seen[mex]) mex++;
  if (canon) cache.setCodes(canonHash, canon, canon.length, mex);
  cache.setCodes(rawHash, raw, rawLen, mex);
  return mex;
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
  const G: SGraph = { n, g: new Uint8Array(n), nd: new Uint8Array(n), nb: new Int16Array(4 * n).fill(-1) };
  let off = 0;
  for (const p of parts) {
    G.g.set(p.g, off);
    G.nd.set(p.nd, off);
    for (let k = 0; k < 4 * p.n; k++) G.nb[4 * off + k] = p.nb[k] < 0 ? -1 : p.nb[k] + off;
    off += p.n;
  }
  return G;
}
