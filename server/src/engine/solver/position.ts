/**
 * The solver's position: drawn lines as bit sets under every symmetry of the board (so the
 * canonical image — the least one — is found without permuting at each node), side counts per box
 * and the counters the rules need, all updated incrementally by make/unmake. No allocation on the
 * hot path.
 */
import { BoardGeometry } from '../board/geometry';
import { BoardState } from '../board/state';
import { lineSymmetries, centreOutOrder } from './symmetry';

/** A deterministic xorshift32 stream for Zobrist keys. */
function zobristKeys(n: number, seed: number): Int32Array {
  const out = new Int32Array(n);
  let s = seed >>> 0 || 1;
  for (let i = 0; i < n; i++) {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    out[i] = s | 0;
  }
  return out;
}

export class SearchPosition {
  readonly g: BoardGeometry;
  /** Lines, boxes, 32-bit words per bit set, symmetries used. */
  readonly L: number;
  readonly B: number;
  readonly nw: number;
  readonly S: number;
  /** perm[s * L + l] = image of line l under symmetry s; invPerm the inverse. */
  readonly perm: Int16Array;
  readonly invPerm: Int16Array;
  readonly zob: Int32Array;
  /** Lines by distance of their midpoint from the centre (the static move order). */
  readonly order: Int16Array;
  readonly boxLines: Int16Array;
  readonly lineBoxes: Int16Array;

  /** bits[s * nw ..] = image of the drawn set under symmetry s. */
  readonly bits: Uint32Array;
  /** Zobrist hash of each image. */
  readonly hash: Int32Array;
  /** Sides drawn per box. */
  readonly sides: Uint8Array;
  /** Unclaimed boxes. */
  remaining = 0;
  undrawn = 0;
  /** Boxes with fewer than 2 sides drawn. */
  lowCount = 0;
  /** Boxes with exactly 3 sides drawn. */
  threeCount = 0;
  /** The symmetry whose image canon() found least. */
  canonSym = 0;

  constructor(g: BoardGeometry, symmetry: boolean) {
    this.g = g;
    this.L = g.lineCount;
    this.B = g.boxCount;
    this.nw = (this.L + 31) >>> 5;
    const syms = symmetry ? lineSymmetries(g) : [lineSymmetries(g)[0]];
    this.S = syms.length;
    this.perm = new Int16Array(this.S * this.L);
    this.invPerm = new Int16Array(this.S * this.L);
    syms.forEach((p, s) => {
      for (let l = 0; l < this.L; l++) {
        this.perm[s * this.L + l] = p[l];
        this.invPerm[s * this.L + p[l]] = l;
      }
    });
    this.zob = zobristKeys(this.L, 0x9e3779b9 ^ (g.width * 131 + g.height));
    this.boxLines = g.boxLines;
    this.lineBoxes = g.lineBoxes;
    this.order = Int16Array.from(centreOutOrder(g));
    this.bits = new Uint32Array(this.S * this.nw);
    this.hash = new Int32Array(this.S);
    this.sides = new Uint8Array(this.B);
  }

  load(state: BoardState): void {
    this.bits.fill(0);
    this.hash.fill(0);
    this.sides.fill(0);
    for (let l = 0; l < this.L; l++) if (state.drawn[l]) this.setLine(l);
    this.remaining = 0;
    this.lowCount = 0;
    this.threeCount = 0;
    this.undrawn = 0;
    for (let l = 0; l < this.L; l++) if (!state.drawn[l]) this.undrawn++;
    const bl = this.boxLines;
    for (let b = 0; b < this.B; b++) {
      const s =
        state.drawn[bl[4 * b]] + state.drawn[bl[4 * b + 1]] + state.drawn[bl[4 * b + 2]] + state.drawn[bl[4 * b + 3]];
      this.sides[b] = s;
      if (s < 4) this.remaining++;
      if (s < 2) this.lowCount++;
      if (s === 3) this.threeCount++;
    }
  }

  isDrawn(l: number): boolean {
    return (this.bits[l >>> 5] & (1 << (l & 31))) !== 0;
  }

  private setLine(l: number): void {
    const L = this.L,
      nw = this.nw;
    for (let s = 0; s < this.S; s++) {
      const p = this.perm[s * L + l];
      this.bits[s * nw + (p >>> 5)] |= 1 << (p & 31);
      this.hash[s] ^= this.zob[p];
    }
  }

  private clearLine(l: number): void {
    const L = this.L,
      nw = this.nw;
    for (let s = 0; s < this.S; s++) {
      const p = this.perm[s * L + l];
      this.bits[s * nw + (p >>> 5)] &= ~(1 << (p & 31));
      this.hash[s] ^= this.zob[p];
    }
  }

  /** Draw line l; returns the number of boxes completed. */
  make(l: number): number {
    this.setLine(l);
    this.undrawn--;
    let c = 0;
    const lb = this.lineBoxes;
    for (let k = 0; k < 2; k++) {
      const b = lb[2 * l + k];
      if (b < 0) continue;
      const n = ++this.sides[b];
      if (n === 2) this.lowCount--;
      else if (n === 3) this.threeCount++;
      else if (n === 4) {
        this.threeCount--;
        c++;
      }
    }
    this.remaining -= c;
    return c;
  }

  /** Undo make(l), which completed c boxes. */
  unmake(l: number, c: number): void {
    this.clearLine(l);
    this.undrawn++;
    const lb = this.lineBoxes;
    for (let k = 0; k < 2; k++) {
      const b = lb[2 * l + k];
      if (b < 0) continue;
      const n = this.sides[b]--;
      if (n === 2) this.lowCount++;
      else if (n === 3) this.threeCount--;
      else if (n === 4) this.threeCount++;
    }
    this.remaining += c;
  }

  /**
   * The least symmetric image (compared as unsigned words, most significant first): sets canonSym
   * and returns the image's hash. The image is bits[canonSym * nw ..].
   */
  canon(): number {
    const nw = this.nw,
      bits = this.bits;
    let best = 0;
    for (let s = 1; s < this.S; s++) {
      for (let w = nw - 1; w >= 0; w--) {
        const a = bits[s * nw + w],
          b = bits[best * nw + w];
        if (a !== b) {
          if (a < b) best = s;
          break;
        }
      }
    }
    this.canonSym = best;
    return this.hash[best];
  }

  /** Line l in the canonical orientation (after canon()). */
  toCanonical(l: number): number {
    return this.perm[this.canonSym * this.L + l];
  }

  /** A canonical-orientation line back in the position's own orientation (after canon()). */
  fromCanonical(l: number): number {
    return this.invPerm[this.canonSym * this.L + l];
  }

  /** The undrawn side of box b other than `except` (-1: none). */
  missingSide(b: number, except: number): number {
    const bl = this.boxLines;
    for (let k = 0; k < 4; k++) {
      const l = bl[4 * b + k];
      if (l !== except && !this.isDrawn(l)) return l;
    }
    return -1;
  }

  /** The box across line l from box b (-1: the edge). */
  across(l: number, b: number): number {
    const lb = this.lineBoxes;
    return lb[2 * l] === b ? lb[2 * l + 1] : lb[2 * l];
  }
}
