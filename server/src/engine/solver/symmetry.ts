/**
 * Symmetries of a W x H board as permutations of line indices: the 4 of a rectangle (identity,
 * left-right mirror, top-bottom mirror, half turn) and, on a square, the 4 more that swap axes.
 *
 * The canonical form of a position is its least image under these symmetries, the drawn-line set
 * compared as a bit set (line l = bit l & 31 of word l >> 5, words compared as unsigned numbers, the
 * most significant word first). The solver's table stores positions under exactly this image
 * (SearchPosition.canon); canonicalPosition() gives it to callers (e.g. a persistent store) with the
 * symmetry that maps the position onto it, so that moves can be carried between orientations with
 * lineToCanonical / lineFromCanonical. The value of a position (margin of the remaining boxes for the
 * player to move) depends only on its drawn lines, so positions with the same key have the same value.
 */
import { BoardGeometry, Dot } from '../board/geometry';

const cache = new Map<string, Int16Array[]>();

/** The board's symmetries: perm[l] = image of line l (index 0 is the identity). Cached per size. */
export function lineSymmetries(g: BoardGeometry): Int16Array[] {
  const W = g.width,
    H = g.height;
  const id = `${W}x${H}`;
  const known = cache.get(id);
  if (known) return known;
  const maps: ((d: Dot) => Dot)[] = [
    (d) => d,
    (d) => ({ x: W - d.x, y: d.y }),
    (d) => ({ x: d.x, y: H - d.y }),
    (d) => ({ x: W - d.x, y: H - d.y }),
  ];
  if (W === H) {
    maps.push(
      (d) => ({ x: d.y, y: d.x }),
      (d) => ({ x: W - d.y, y: H - d.x }),
      (d) => ({ x: d.y, y: H - d.x }),
      (d) => ({ x: W - d.y, y: d.x }),
    );
  }
  const perms = maps.map((m) => {
    const perm = new Int16Array(g.lineCount);
    for (let l = 0; l < g.lineCount; l++) {
      const [a, b] = g.lineDots(l);
      const img = g.lineBetween(m(a), m(b));
      if (img === undefined) throw new Error('symmetry maps a line off the board');
      perm[l] = img;
    }
    return perm;
  });
  cache.set(id, perms);
  return perms;
}

/** Every line, nearest the board's centre first (ties by index): the solver's static move order. */
export function centreOutOrder(g: BoardGeometry): number[] {
  const cx = g.width / 2,
    cy = g.height / 2;
  const dist = (l: number) => {
    const [a, b] = g.lineDots(l);
    const mx = (a.x + b.x) / 2 - cx,
      my = (a.y + b.y) / 2 - cy;
    return mx * mx + my * my;
  };
  return g.allLines().sort((a, b) => dist(a) - dist(b) || a - b);
}

export interface CanonicalPosition {
  /** `WxH:` and the canonical drawn-line bit set in hex, 8 digits per word, most significant word first. */
  key: string;
  /** Index (into lineSymmetries(g)) of the symmetry that maps the position onto its canonical image. */
  symmetry: number;
  /** The canonical image's drawn lines, ascending. */
  lines: number[];
}

/** The canonical form of the position whose drawn lines are `drawn` (drawn[l] nonzero = drawn). */
export function canonicalPosition(g: BoardGeometry, drawn: ArrayLike<number>): CanonicalPosition {
  const perms = lineSymmetries(g);
  const nw = (g.lineCount + 31) >>> 5;
  let best: Uint32Array | null = null,
    bestSym = 0;
  perms.forEach((p, s) => {
    const words = new Uint32Array(nw);
    for (let l = 0; l < g.lineCount; l++) if (drawn[l]) words[p[l] >>> 5] |= 1 << (p[l] & 31);
    if (best === null || lessThan(words, best)) {
      best = words;
      bestSym = s;
    }
  });
  const img = best as unknown as Uint32Array;
  let hex = '';
  for (let w = nw - 1; w >= 0; w--) hex += img[w].toString(16).padStart(8, '0');
  const lines: number[] = [];
  for (let l = 0; l < g.lineCount; l++) if ((img[l >>> 5] & (1 << (l & 31))) !== 0) lines.push(l);
  return { key: `${g.width}x${g.height}:${hex}`, symmetry: bestSym, lines };
}

function lessThan(a: Uint32Array, b: Uint32Array): boolean {
  for (let w = a.length - 1; w >= 0; w--) if (a[w] !== b[w]) return a[w] < b[w];
  return false;
}

/** A line of the position in the canonical image's orientation (symmetry from canonicalPosition). */
export function lineToCanonical(g: BoardGeometry, symmetry: number, line: number): number {
  return lineSymmetries(g)[symmetry][line];
}

/** A line of the canonical image back in the position's own orientation. */
export function lineFromCanonical(g: BoardGeometry, symmetry: number, line: number): number {
  return lineSymmetries(g)[symmetry].indexOf(line);
}
