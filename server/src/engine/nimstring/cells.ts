/**
 * Strings-and-coins view of a Dots-and-Boxes position, for Nimstring.
 *
 * Dictionary (Winning Ways ch. 16, Berlekamp ch. 3): every unclaimed box is a COIN, every undrawn line
 * is a STRING. A line between two boxes ties their coins together; a line on the board's edge ties
 * its coin to the GROUND. Drawing a line = cutting a string; a coin whose last string is cut is
 * captured, and the capturer must move again.
 *
 * Why regions are independent games although they all touch the ground: the ground is never
 * captured and has no "degree" that any rule looks at. Cutting a string changes the degree of the
 * coins at its ends only, and a coin's capture depends only on its own degree. So a cut in one
 * connected component of coins (components taken WITHOUT the ground node) can never change what is
 * capturable, loony or legal in another component: the position is the disjunctive sum of its
 * components. (Checked in test/unit/nimstring.test.ts: xor of region values equals the whole-board
 * brute force on thousands of random positions.)
 *
 * A region is kept with its board coordinates so that the 8 symmetries of the square grid can be
 * used for a canonical key; the ground strings of a coin are only counted (`g`), because which
 * edge of the board they lie on does not matter to the game.
 */

import type { BoardState } from '../board/state';
import { UNCLAIMED } from '../board/state';

/** Link bits of a cell: the string to the neighbouring coin in that direction is undrawn. */
export const RIGHT = 1,
  UP = 2,
  LEFT = 4,
  DOWN = 8;
const DIRS = [RIGHT, UP, LEFT, DOWN] as const;
const DX: Record<number, number> = { [RIGHT]: 1, [UP]: 0, [LEFT]: -1, [DOWN]: 0 };
const DY: Record<number, number> = { [RIGHT]: 0, [UP]: 1, [LEFT]: 0, [DOWN]: -1 };
const OPP: Record<number, number> = { [RIGHT]: LEFT, [LEFT]: RIGHT, [UP]: DOWN, [DOWN]: UP };
/** By link bit (1, 2, 4, 8): the opposite bit, and the step to the neighbour's slot in a CellIndex. */
const OPPOSITE = Int8Array.from({ length: 9 }, (_, d) => OPP[d] ?? 0);
const STEP = Int16Array.from({ length: 9 }, (_, d) => (DY[d] ?? 0) * 16 + (DX[d] ?? 0));

/** One coin: board cell (x, y), number of strings to the ground (0..4), links to neighbouring coins. */
export interface Cell {
  x: number;
  y: number;
  g: number;
  links: number;
}

/** Marker returned when a component is loony (the player to move wins whatever else is on the board). */
export const LOONY = 'loony' as const;
export type Loony = typeof LOONY;

const POPCOUNT = [0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4];
export function degree(c: Cell): number {
  return c.g + POPCOUNT[c.links & 15];
}
export function stringCount(cells: readonly Cell[]): number {
  let s = 0;
  for (const c of cells) s += c.g + POPCOUNT[c.links & 3];
  return s;
}

/** Coins of a board position: one cell per unclaimed box, with its board index in `boxes`. */
export function cellsOfState(state: BoardState): { cells: Cell[]; boxes: number[] } {
  const g = state.geometry,
    W = g.width,
    H = g.height;
  const cells: Cell[] = [];
  const boxes: number[] = [];
  for (let b = 0; b < g.boxCount; b++) {
    if (state.owner[b] !== UNCLAIMED) continue;
    const x = g.boxX(b),
      y = g.boxY(b);
    const bottom = g.boxLines[4 * b],
      top = g.boxLines[4 * b + 1],
      left = g.boxLines[4 * b + 2],
      right = g.boxLines[4 * b + 3];
    let ground = 0,
      links = 0;
    if (!state.drawn[bottom]) {
      if (y === 0) ground++;
      else links |= DOWN;
    }
    if (!state.drawn[top]) {
      if (y === H - 1) ground++;
      else links |= UP;
    }
    if (!state.drawn[left]) {
      if (x === 0) ground++;
      else links |= LEFT;
    }
    if (!state.drawn[right]) {
      if (x === W - 1) ground++;
      else links |= RIGHT;
    }
    cells.push({ x, y, g: ground, links });
    boxes.push(b);
  }
  return { cells, boxes };
}

/** Index lookup of a cell array by coordinates: idx[y * 16 + x] = cell index or -1 (boards <= 12x12). */
export type CellIndex = Int16Array;
export function indexOf(cells: readonly Cell[]): CellIndex {
  const m = new Int16Array(256).fill(-1);
  for (let i = 0; i < cells.length; i++) m[cells[i].y * 16 + cells[i].x] = i;
  return m;
}

export function neighbour(cells: readonly Cell[], idx: CellIndex, i: number, dir: number): number {
  const c = cells[i];
  const j = idx[c.y * 16 + c.x + STEP[dir]];
  if (j < 0) throw new Error(`nimstring: dangling link at (${c.x},${c.y}) dir ${dir}`);
  return j;
}

/** Connected components (via coin-coin strings only, never through the ground); indices into `cells`. */
export function componentIndices(
  cells: readonly Cell[],
  alive?: ArrayLike<number | boolean>,
  index?: CellIndex,
): number[][] {
  const idx = index ?? indexOf(cells);
  const n = cells.length;
  // label each cell with its component (0: none yet), then read the labels in index order: each
  // component comes out ascending, as the keys need, without a sort
  const label: number[] = new Array<number>(n).fill(0);
  const stack: number[] = [];
  let comps = 0;
  for (let s = 0; s < n; s++) {
    if (label[s] !== 0 || (alive && !alive[s])) continue;
    const id = ++comps;
    stack.push(s);
    label[s] = id;
    while (stack.length > 0) {
      const i = stack.pop()!;
      const c = cells[i],
        L = c.links,
        base = c.y * 16 + c.x;
      if (L & RIGHT) {
        const j = idx[base + 1];
        if (label[j] === 0) {
          label[j] = id;
          stack.push(j);
        }
      }
      if (L & UP) {
        const j = idx[base + 16];
        if (label[j] === 0) {
          label[j] = id;
          stack.push(j);
        }
      }
      if (L & LEFT) {
        const j = idx[base - 1];
        if (label[j] === 0) {
          label[j] = id;
          stack.push(j);
        }
      }
      if (L & DOWN) {
        const j = idx[base - 16];
        if (label[j] === 0) {
          label[j] = id;
          stack.push(j);
        }
      }
    }
  }
  const out: number[][] = [];
  for (let k = 0; k < comps; k++) out.push([]);
  for (let i = 0; i < n; i++) if (label[i] !== 0) out[label[i] - 1].push(i);
  return out;
}

/**
 * Make every capture that cannot change the Nimstring value, and detect loony components.
 * Takes ownership of `cells` (mutates them). Returns the remaining connected components, or LOONY.
 *
 * A capturable coin c (one string left) is taken greedily when its string goes to
 *  (a) the ground, (b) a coin of degree >= 3, (c) a coin of degree 1 (an isolated domino: both go), or
 *  (d') a coin n of degree 2 whose other string goes to a capturable coin (an isolated 3-path).
 * In each case the player to move cannot use the coin to hand the move over (every way of getting
 * rid of it is a capture), and whoever leaves it just gives the opponent a free capture; so
 * G + coin == G after the capture. The remaining case is loony:
 *  (d) c hangs on a coin n of degree 2 whose other string goes to the ground or to a coin of degree
 *      >= 2. The player to move may take c and n and move on, or cut n's other string (not a capture)
 *      and leave the domino c-n to the opponent: she chooses who moves next in the rest, so she wins
 *      in any sum. This is the position after a loony move (an opened long chain, a 2-chain opened
 *      at its end, an opened loop).
 * Every rule is cross-checked against the whole-board brute force (brute.ts) in the tests.
 */
export function simplify(cells: Cell[], index?: CellIndex, touched?: readonly number[]): Cell[][] | Loony {
  const idx = index ?? indexOf(cells);
  const n = cells.length;
  const alive: number[] = new Array<number>(n).fill(1);
  // Only a coin with at most one string acts. Every coin starts on the stack, lowest index on top;
  // when the caller knows that only the `touched` coins can have fewer than two strings (a move in a
  // simplified region: see applyMove), only they do, in the same order. Nothing else changes: a coin
  // of two or more strings is popped and passed over, and the only way one falls to one string is a
  // capture next to it, which pushes it (the degree >= 3 case leaves its neighbour two or more).
  const stack: number[] = [];
  if (touched) for (let t = touched.length - 1; t >= 0; t--) stack.push(touched[t]);
  else for (let i = n - 1; i >= 0; i--) stack.push(i);
  while (stack.length > 0) {
    const i = stack.pop()!;
    if (!alive[i]) continue;
    const c = cells[i];
    const d = degree(c);
    if (d === 0) {
      alive[i] = 0;
      continue;
    }
    if (d !== 1) continue;
    if (c.g === 1) {
      c.g = 0;
      alive[i] = 0;
      continue;
    }
    const dir = c.links & 15;
    const j = neighbour(cells, idx, i, dir);
    const nb = cells[j];
    const dn = degree(nb);
    if (dn >= 3 || dn === 1) {
      c.links = 0;
      nb.links &= ~OPPOSITE[dir];
      alive[i] = 0;
      if (dn === 1) alive[j] = 0;
      continue;
    }
    // dn === 2: where does nb's other string go?
    if (nb.g === 1) return LOONY;
    const other = nb.links & ~OPPOSITE[dir] & 15;
    const k = neighbour(cells, idx, j, other);
    if (degree(cells[k]) === 1) {
      c.links = 0;
      nb.links &= ~OPPOSITE[dir];
      alive[i] = 0;
      stack.push(j);
      continue;
    }
    return LOONY;
  }
  const comps = componentIndices(cells, alive, idx);
  return comps.map((comp) => comp.map((i) => cells[i]));
}

export function cloneCells(cells: readonly Cell[]): Cell[] {
  return cells.map((c) => ({ x: c.x, y: c.y, g: c.g, links: c.links }));
}

/** A move inside a region: cut one ground string of cell i, or the link from cell i in direction dir. */
export interface RegionMove {
  i: number;
  dir: number;
} // dir 0 = ground

/** The distinct moves of a region (ground strings of one coin are interchangeable: one move each). */
export function regionMoves(cells: readonly Cell[]): RegionMove[] {
  const out: RegionMove[] = [];
  for (let i = 0; i < cells.length; i++) {
    const c = cells[i];
    if (c.g > 0) out.push({ i, dir: 0 });
    if (c.links & RIGHT) out.push({ i, dir: RIGHT });
    if (c.links & UP) out.push({ i, dir: UP });
  }
  return out;
}

/**
 * Apply a move to a copy of the region and simplify the result. `cells` must be a simplified region
 * (simplify's output: every coin has two strings or more), so only the coins at the cut string's
 * ends can need simplifying (simplify's `touched`).
 */
export function applyMove(cells: readonly Cell[], m: RegionMove, index?: CellIndex): Cell[][] | Loony {
  const next = cloneCells(cells);
  const idx = index ?? indexOf(next); // the clone keeps the order, so the index is the same
  if (m.dir === 0) {
    next[m.i].g--;
    return simplify(next, idx, [m.i]);
  }
  const j = neighbour(next, idx, m.i, m.dir);
  next[m.i].links &= ~m.dir;
  next[j].links &= ~OPPOSITE[m.dir];
  return simplify(next, idx, m.i < j ? [m.i, j] : [j, m.i]);
}

// ---- canonical key over the 8 symmetries of the grid ----

/** The 8 maps (x, y) -> (a*x + b*y, c*x + d*y). */
const SYMS: [number, number, number, number][] = [
  [1, 0, 0, 1],
  [-1, 0, 0, 1],
  [1, 0, 0, -1],
  [-1, 0, 0, -1],
  [0, 1, 1, 0],
  [0, -1, 1, 0],
  [0, 1, -1, 0],
  [0, -1, -1, 0],
];
/** LINK_MAP[s][links] = the link bits after symmetry s. */
const LINK_MAP: Uint8Array[] = SYMS.map(([a, b, c, d]) => {
  const t = new Uint8Array(16);
  for (let m = 0; m < 16; m++) {
    let r = 0;
    for (const dir of DIRS) {
      if (!(m & dir)) continue;
      const nx = a * DX[dir] + b * DY[dir],
        ny = c * DX[dir] + d * DY[dir];
      for (const e of DIRS) if (DX[e] === nx && DY[e] === ny) r |= e;
    }
    t[m] = r;
  }
  return t;
});

/**
 * Key of the region as it lies (translation removed, no symmetry); `cells` must be in (y, x) order
 * (componentIndices/simplify keep that order), so no sorting is needed.
 */
export function rawKey(cells: readonly Cell[]): string {
  const n = cells.length;
  let minX = Infinity,
    minY = Infinity;
  for (let i = 0; i < n; i++) {
    if (cells[i].x < minX) minX = cells[i].x;
    if (cells[i].y < minY) minY = cells[i].y;
  }
  const codes = new Array<number>(n);
  for (let i = 0; i < n; i++) {
    const c = cells[i];
    codes[i] = ((c.y - minY) * 16 + (c.x - minX)) * 32 + c.g * 4 + (c.links & 3);
  }
  return String.fromCharCode(...codes);
}

/**
 * Canonical key of a region: the smallest encoding over the 8 symmetries of the square grid
 * (rotations and reflections; translations are removed by normalising the bounding box). Two
 * regions with the same key are the same strings-and-coins graph, hence the same game.
 * (An open question in Brinker's paper on nimber calculation: symmetric regions are the same game because the game only depends on
 * the graph; isomorphic graphs that are not grid-symmetric still get different keys, which only
 * costs memo hits, never correctness.) No sorting: each symmetry's codes are laid on a grid of the
 * transformed bounding box and read back in scan order.
 */
export function canonicalKey(cells: readonly Cell[]): string {
  const n = cells.length;
  let minX = Infinity,
    minY = Infinity,
    maxX = -Infinity,
    maxY = -Infinity;
  for (let i = 0; i < n; i++) {
    const c = cells[i];
    if (c.x < minX) minX = c.x;
    if (c.x > maxX) maxX = c.x;
    if (c.y < minY) minY = c.y;
    if (c.y > maxY) maxY = c.y;
  }
  const w = maxX - minX + 1,
    h = maxY - minY + 1;
  const grid = new Int32Array(w * h);
  let best: Int32Array | null = null;
  const cur = new Int32Array(n);
  for (let s = 0; s < 8; s++) {
    const [a, b, c, d] = SYMS[s];
    const lm = LINK_MAP[s];
    const tw = a !== 0 ? w : h,
      th = a !== 0 ? h : w;
    // offsets so that transformed coordinates start at 0
    const ox = (a < 0 ? w - 1 : 0) + (b < 0 ? h - 1 : 0);
    const oy = (c < 0 ? w - 1 : 0) + (d < 0 ? h - 1 : 0);
    grid.fill(-1);
    for (let i = 0; i < n; i++) {
      const x = cells[i].x - minX,
        y = cells[i].y - minY;
      const tx = a * x + b * y + ox,
        ty = c * x + d * y + oy;
      grid[ty * tw + tx] = (ty * 16 + tx) * 32 + cells[i].g * 4 + (lm[cells[i].links] & 3);
    }
    let k = 0;
    for (let p = 0; p < tw * th; p++) if (grid[p] >= 0) cur[k++] = grid[p];
    if (best === null) {
      best = cur.slice();
      continue;
    }
    let cmp = 0;
    for (let i = 0; i < n && cmp === 0; i++) cmp = cur[i] - best[i];
    if (cmp < 0) best.set(cur);
  }
  return String.fromCharCode(...best!);
}
