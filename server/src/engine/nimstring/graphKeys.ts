/**
 * Memo keys of strings-and-coins graphs (graphEngine.ts): a graph's encoding as numbered, and a
 * canonical form, the least encoding over the leaves of an individualisation-refinement search, so
 * that isomorphic regions share one memo entry. Either is a complete encoding of the graph (per coin
 * its ground count and degree, then its neighbours' positions), so a key never stands for two
 * different games; canonicity only buys memo hits.
 */

import type { SGraph } from './graphEngine';

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

/** The first code of every graph key: graph keys never equal cell keys of cellEngine.ts (their codes are < 8192). */
const KEY_MARK = 0xffff;

/** The key of the encoding codes[0..len): one character per code after KEY_MARK. */
export function toKey(codes: ArrayLike<number>, len = codes.length): string {
  const chars = new Array<number>(len + 1);
  chars[0] = KEY_MARK;
  for (let i = 0; i < len; i++) chars[i + 1] = codes[i];
  return String.fromCharCode.apply(null, chars);
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

let scratch = new Int32Array(1024);
function scratchFor(n: number): Int32Array {
  if (scratch.length < 5 * n + 8) scratch = new Int32Array(10 * n + 16);
  return scratch;
}

/** Key of G as it is numbered. */
export function rawGraphKey(G: SGraph): string {
  const buf = scratchFor(G.n);
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
  // scratch (refine never calls back into itself); only [0, n) is used
  if (refineSig.length < n) [refineSig, refinePacked] = [new Float64Array(2 * n), new Float64Array(2 * n)];
  const sig = refineSig;
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
    }
    let k = -1,
      last = -1;
    if (n <= 400) {
      // sort (signature, coin) pairs packed in one double: exact below 2^53 for n <= 400
      const packed = refinePacked.subarray(0, n);
      for (let v = 0; v < n; v++) packed[v] = sig[v] * n + v;
      if (n <= 32) {
        // insertion sort: a typed array's sort() costs more than the sorting on a region's few coins
        for (let i = 1; i < n; i++) {
          const x = packed[i];
          let j = i - 1;
          while (j >= 0 && packed[j] > x) {
            packed[j + 1] = packed[j];
            j--;
          }
          packed[j + 1] = x;
        }
      } else packed.sort();
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
      const sorted = Array.from({ length: n }, (_, v) => v).sort((p, q) => sig[p] - sig[q]);
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

let refineSig = new Float64Array(64),
  refinePacked = new Float64Array(64);

const LEAF_CAP = 64;

/** Scratch of canonicalCodes: the class sizes (read before any deeper call), the colouring of each depth. */
let sizeScratch = new Int32Array(64);
const colourScratch: Int32Array[] = [];
function classSizes(nc: number): Int32Array {
  if (sizeScratch.length < nc) sizeScratch = new Int32Array(2 * nc);
  return sizeScratch.fill(0, 0, nc);
}
function depthColours(depth: number, n: number): Int32Array {
  if (colourScratch.length <= depth || colourScratch[depth].length < n) colourScratch[depth] = new Int32Array(2 * n);
  return colourScratch[depth];
}

/**
 * Canonical codes of G: the lexicographically least encoding over the leaves of an
 * individualisation-refinement search (every leaf is a discrete colouring, i.e. an ordering of the
 * coins). If the search would pass LEAF_CAP leaves, the remaining branches are not explored: the
 * codes are then still a complete encoding of G (never ambiguous), only maybe not canonical.
 */
export function canonicalCodes(G: SGraph): number[] {
  const n = G.n;
  const col = new Int32Array(n);
  // initial colour: the rank of (ground count, coin degree) among those present (g <= 4, nd <= 4)
  const rank = new Int32Array(40);
  for (let v = 0; v < n; v++) rank[G.g[v] * 8 + G.nd[v]] = 1;
  let present = 0;
  for (let x = 0; x < 40; x++) if (rank[x]) rank[x] = present++;
  for (let v = 0; v < n; v++) col[v] = rank[G.g[v] * 8 + G.nd[v]];
  const classes = refine(G, col, present);
  let best: number[] | null = null;
  let leaves = 0;
  const cur: number[] = [];
  const order = new Int32Array(n),
    pos = new Int32Array(n);
  const search = (c: Int32Array, nc: number, depth: number): void => {
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
    // the first non-singleton class (colours are 0 .. nc-1, every one used)
    const size = classSizes(nc);
    for (let v = 0; v < n; v++) size[c[v]]++;
    let target = 0;
    while (size[target] < 2) target++;
    const c2 = depthColours(depth, n);
    for (let v = 0; v < n; v++) {
      if (c[v] !== target) continue;
      if (leaves >= LEAF_CAP && best !== null) return;
      // v individualised: first of its class (target), the rest of the class next (target + 1),
      // the colours after shifted by one: the ranks of 2c, 2c + 1 for the rest of the class
      for (let w = 0; w < n; w++) {
        const x = c[w];
        c2[w] = x < target ? x : x > target ? x + 1 : w === v ? target : target + 1;
      }
      search(c2, refine(G, c2, nc + 1), depth + 1);
    }
  };
  search(col, classes, 0);
  return best!;
}

export function graphKey(G: SGraph): string {
  return toKey(canonicalCodes(G));
}
