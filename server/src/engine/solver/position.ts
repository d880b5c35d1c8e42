/**
 * The solver's position: drawn lines as bit sets under every symmetry of the board (so the
 * canonical image — the least one — is found without permuting at each node), side counts per box
 * and the counters the rules need, all updated incrementally by make/unmake. No allocation on the
 * hot path.
 */
import { BoardGeometry } from '../board/geometry';
import { BoardState } from '../board/state';
import { lineSymmetries, centreOutOrder } from './symmetry';

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
  /** Lines by distance of their midpoint from the centre (the static move order). */
  readonly order: Int16Array;
  readonly boxLines: Int16Array;
  readonly lineBoxes: Int16Array;

  /** bits[s * nw ..] = image of the drawn set under symmetry s. */
  readonly bits: Uint32Array;
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
  /** Per box, the XOR of its undrawn sides' line indices: a 3-box's last side, a 2-box's other side. */
  readonly undrawnXor: Int32Array;
  /** Boxes with exactly 3 sides drawn, as a bit set (box b = bit b & 31 of word b >> 5). */
  readonly threeBits: Uint32Array;
  /** Boxes with exactly 2 sides drawn, the same way. */
  readonly twoBits: Uint32Array;
  /** Per symmetry s and line l (index s * L + l): the word of bits[] and the bit that hold l's image. */
  private readonly symWord: Int32Array;
  private readonly symMask: Int32Array;

  /**
   * The symmetries whose images are kept, active[0 .. nActive) (always the identity, 0): chosen by
   * load() for each root. A symmetry s maps the search tree below a root R into itself only if it
   * fixes R; otherwise the image of a position Q is in the tree only when Q already holds the lines
   * of s^-1(R) as well, which happens only deep down, if ever. So a symmetry is kept when it moves
   * at most `symmetrySlack` drawn lines of R off R (Infinity: every symmetry). Any subset is exact:
   * a table key is always an image of the position itself, and images have the same value.
   */
  readonly active: Int8Array;
  nActive = 1;
  readonly symmetrySlack: number;

  constructor(g: BoardGeometry, symmetry: boolean, symmetrySlack = Infinity) {
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
    this.boxLines = g.boxLines;
    this.lineBoxes = g.lineBoxes;
    this.order = Int16Array.from(centreOutOrder(g));
    this.symWord = new Int32Array(this.S * this.L);
    this.symMask = new Int32Array(this.S * this.L);
    for (let i = 0; i < this.S * this.L; i++) {
      const s = Math.floor(i / this.L),
        p = this.perm[i];
      this.symWord[i] = s * this.nw + (p >>> 5);
      this.symMask[i] = 1 << (p & 31);
    }
    this.threeBits = new Uint32Array((this.B + 31) >>> 5);
    this.twoBits = new Uint32Array((this.B + 31) >>> 5);
    this.bits = new Uint32Array(this.S * this.nw);
    this.sides = new Uint8Array(this.B);
    this.undrawnXor = new Int32Array(this.B);
    this.symmetrySlack = symmetrySlack;
    this.active = Int8Array.from({ length: this.S }, (_, i) => i);
    this.nActive = this.S;
  }

  load(state: BoardState): void {
    this.chooseSymmetries(state);
    this.bits.fill(0);
    this.sides.fill(0);
    this.threeBits.fill(0);
    this.twoBits.fill(0);
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
      let x = 0;
      for (let k = 0; k < 4; k++) if (!state.drawn[bl[4 * b + k]]) x ^= bl[4 * b + k];
      this.undrawnXor[b] = x;
      if (s < 4) this.remaining++;
      if (s < 2) this.lowCount++;
      if (s === 2) this.twoBits[b >>> 5] |= 1 << (b & 31);
      if (s === 3) {
        this.threeCount++;
        this.threeBits[b >>> 5] |= 1 << (b & 31);
      }
    }
  }

  /** The symmetries that move at most symmetrySlack drawn lines of the root off its drawn set. */
  private chooseSymmetries(state: BoardState): void {
    let n = 1;
    for (let s = 1; s < this.S; s++) {
      let moved = 0;
      for (let l = 0; l < this.L && moved <= this.symmetrySlack; l++)
        if (state.drawn[l] && !state.drawn[this.perm[s * this.L + l]]) moved++;
      if (moved <= this.symmetrySlack) this.active[n++] = s;
    }
    this.nActive = n;
  }

  isDrawn(l: number): boolean {
    return (this.bits[l >>> 5] & (1 << (l & 31))) !== 0;
  }

  private setLine(l: number): void {
    const L = this.L,
      bits = this.bits,
      active = this.active;
    bits[l >>> 5] |= 1 << (l & 31);
    for (let j = 1; j < this.nActive; j++) {
      const i = active[j] * L + l;
      bits[this.symWord[i]] |= this.symMask[i];
    }
  }

  private clearLine(l: number): void {
    const L = this.L,
      bits = this.bits,
      active = this.active;
    bits[l >>> 5] &= ~(1 << (l & 31));
    for (let j = 1; j < this.nActive; j++) {
      const i = active[j] * L + l;
      bits[this.symWord[i]] &= ~this.symMask[i];
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
      this.undrawnXor[b] ^= l;
      const n = ++this.sides[b];
      if (n === 2) {
        this.lowCount--;
        this.twoBits[b >>> 5] |= 1 << (b & 31);
      } else if (n === 3) {
        this.twoBits[b >>> 5] &= ~(1 << (b & 31));
        this.threeCount++;
        this.threeBits[b >>> 5] |= 1 << (b & 31);
      } else if (n === 4) {
        this.threeCount--;
        this.threeBits[b >>> 5] &= ~(1 << (b & 31));
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
      this.undrawnXor[b] ^= l;
      const n = this.sides[b]--;
      if (n === 2) {
        this.lowCount++;
        this.twoBits[b >>> 5] &= ~(1 << (b & 31));
      } else if (n === 3) {
        this.threeCount--;
        this.threeBits[b >>> 5] &= ~(1 << (b & 31));
        this.twoBits[b >>> 5] |= 1 << (b & 31);
      } else if (n === 4) {
        this.threeCount++;
        this.threeBits[b >>> 5] |= 1 << (b & 31);
      }
    }
    this.remaining += c;
  }

  /**
   * The least symmetric image (compared as unsigned words, most significant first): sets canonSym
   * and returns a hash of the image (bits[canonSym * nw ..]; a hash of the key words, computed here
   * rather than kept per image by make/unmake).
   */
  canon(): number {
    const nw = this.nw,
      bits = this.bits;
    let best = 0;
    for (let j = 1; j < this.nActive; j++) {
      const s = this.active[j];
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
    let h = 0x2545f491;
    for (let w = best * nw, end = w + nw; w < end; w++) h = Math.imul(h ^ bits[w], 0x9e3779b1) ^ (h >>> 15);
    h ^= h >>> 16;
    h = Math.imul(h, 0x85ebca6b);
    h ^= h >>> 13;
    return h;
  }

  /** Line l in the canonical orientation (after canon()). */
  toCanonical(l: number): number {
    return this.perm[this.canonSym * this.L + l];
  }

  /** A canonical-orientation line back in the position's own orientation (after canon()). */
  fromCanonical(l: number): number {
    return this.invPerm[this.canonSym * this.L + l];
  }

  /**
   * The undrawn side of box b other than `except`: with except = -1, a 3-box's last side (or the
   * first undrawn side of another box, -1 when none); with except an undrawn side of a 2-box, its
   * other side (O(1) from undrawnXor; callers only ask this of 2-boxes).
   */
  missingSide(b: number, except: number): number {
    if (except >= 0) return this.undrawnXor[b] ^ except;
    if (this.sides[b] === 3) return this.undrawnXor[b];
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
