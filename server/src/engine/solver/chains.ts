/**
 * The chain analysis of a position with no 3-box: every maximal chain and loop of 2-boxes traced
 * once (markEquivalent), giving the sides of 2-boxes chain by chain (the sacrifices moves.ts
 * searches), each box's chain length (rule 6's bound, moves.ts) and the lines rules 4 and 5 let
 * the search skip.
 *
 * Rules 4 and 5 are numbered with moves.ts's rules 1-3 and 6, whose proofs are there.
 *
 * Rule 4 (equivalent moves; `equivalentMoves`), with no 3-box on the board: its classes are listed
 *   at markEquivalent. (a), (d) and (e) are automorphisms of the strings-and-coins graph; (b) follows
 *   from rule 1, (c) and (f) (rule 4f below) from rules 1 and 3. Each class keeps its least line, so
 *   classes merged by several relations still keep one line. test/unit/solver.rules.test.ts checks
 *   on thousands of chain-rich positions that every skipped line has the brute-force value of a
 *   kept one, and the kept set holds an optimal line.
 *
 * Rule 4f (openings of a long chain; `openingEquivalence`). Let C be a maximal chain of k >= 3
 *   2-boxes X1..Xk with lines e0..ek in order (e0 and ek lead to its ends Z and W: the edge or
 *   0/1-boxes), and no 3-box on the board. Every line of C has the same value, so one stands for
 *   all. Proof, from rules 1 and 3 alone (moves.ts, proved there). Let S be the boxes the opponent B
 *   can go on taking once a line m of C is drawn: C's boxes, unless Z = W is a 1-box (its third
 *   undrawn side f): then S also holds Z (a 2-box once e0 or ek is drawn) and the chain T of 2-boxes
 *   beyond f, up to U (the edge or a 0/1-box). K = |S|, Q = P + every undrawn side of S's boxes,
 *   q = v(Q). (With Z = W a 1-box the value differs from -max(k + v(P + C's lines), k - 4 - ...):
 *   brute force finds exceptions there, none to the K, Q form.)
 *   Claim: in every position G that B reaches from P + m by captures, with r boxes of S left,
 *   v(G) <= max(r + q, r - 4 - q). S's boxes left form one piece (m = e0 or ek, or one side used
 *   up; with Z = W a 1-box, Z and T then belong to it) or two (the two sides of an inner m; Z and
 *   T, not yet open, join the piece left once the other is taken), each a run open at one end (a
 *   3-box) and closed at the other; no other box is a 3-box, and no box outside S gets a third side
 *   (Z, W and U get at most two). By induction on r, B's moves in G: (i) a capture completes c >= 1
 *   boxes of S and leaves such a G' for B: c + v(G') <= max(r + q, r - 4 - q). (ii) A line
 *   completing nothing is needed (rule 3) only if it is a side of the box Y across the missing side
 *   of every 3-box, and only when no capture is free (rule 1: else the free capture is optimal).
 *   (A piece of one box facing Z while Z is a 1-box is such a free capture.) So each Y is a 2-box
 *   of S, whose undrawn sides are its two lines of S. Two pieces: their Ys are not next to each other
 *   in C, so no line is a side of both. One piece (r >= 2): the line is Y's other line of S; it
 *   leaves the mover two 3-boxes on one line and the rest of the piece open, so the mover can take
 *   all r and move in Q: val <= -(r + q) <= max(r + q, r - 4 - q). (r = 1: the last box faces the
 *   edge or a 0/1-box, a free capture: v(G) = 1 + q.) So v(P + m) <= max(K + q, K - 4 - q), and B
 *   reaches it: take all K and move in Q, or take all but the last two and draw the last box's
 *   outer line (the mover takes the two, rule 1, and moves in Q). Hence val(m) = -v(P + m) =
 *   -max(K + q, K - 4 - q) for every line m of C. test/unit/solver.rules.test.ts checks the
 *   equality against bruteForce on thousands of chains, and the rule can be switched off.
 *
 * Rule 5 (the hard-hearted handout; `handoutRule`), with no 3-box on the board. X, Y 2-boxes
 *   sharing the undrawn line m, X's other undrawn side e1 leading to Z, Y's e2 to W, where Z and W
 *   are the edge or 0/1-boxes (a maximal 2-chain). Then val(e1) <= val(m) (and val(e2) <= val(m)).
 *   Proof: neither line completes a box, so val(e1) = -v(P+e1) and val(m) = -v(P+m). In P+e1 the
 *   opponent may draw m (taking X) then e2 (taking Y): v(P+e1) >= 2 + v(Q), Q = P+e1+m+e2. In P+m,
 *   X is a 3-box missing e1 with Z across (edge or 0/1-box): by rule 1 v(P+m) = 1 + v(P+m+e1); there
 *   Y is a 3-box missing e2 with W across, and W is still the edge or a 0/1-box, because W != Z (on
 *   a grid two adjacent boxes have no common neighbour), so e1 is no side of W; by rule 1 again
 *   v(P+m) = 2 + v(Q) <= v(P+e1). So the end lines need no search when the middle line is searched.
 *   (Only <=, not an equality: rootEquivalence does not use it; the root searches every line.)
 *   test/unit/solver.rules.test.ts checks the claim against bruteForce on thousands of 2-chains.
 */
import { BoardGeometry } from '../board/geometry';
import { SearchPosition } from './position';
import { DEFAULT_SYMMETRY_SLACK, type SolverConfig } from './types';

/** The end of a loop in markEquivalent's record (rule 4e); -1 is the edge. */
const LOOP_END = -2;

export class ChainAnalysis extends SearchPosition {
  /** Rule 4 (`equivalentMoves`): skip lines equivalent to a smaller one. */
  equivRule: boolean;
  /** Rule 5 (`handoutRule`): skip the end lines of a 2-chain. */
  handoutRule: boolean;
  /** Rule 4f (`openingEquivalence`): one line stands for every line of a long chain. */
  openingRule: boolean;
  /** Scratch: skipped lines, chain length per box. */
  readonly skip: Uint8Array;
  readonly clen: Uint8Array;
  readonly eqLines: Int16Array;
  readonly eqBoxes: Int16Array;
  /** After markEquivalent(): for a skipped line, a smaller line of equal value (-1: kept). */
  readonly eqOf: Int16Array;
  /** markEquivalent()'s record of the chains and loops met (rule 4e): ends, length, lines at sideLines[chOff ..] (reversed when chRev). */
  private readonly chA: Int16Array;
  private readonly chB: Int16Array;
  private readonly chK: Int16Array;
  private readonly chOff: Int16Array;
  private readonly chRev: Uint8Array;
  /** markEquivalent()'s scratch: the 2-boxes of no chain or loop traced yet (a bit set like twoBits). */
  private readonly untraced: Uint32Array;
  private nCh = 0;
  /** After markEquivalent(): the undrawn sides of 2-boxes, chain by chain (a loop by its least line only), sideCount of them. */
  readonly sideLines: Int16Array;
  sideCount = 0;
  /**
   * Rule 4a's table: edgeSiblings[3 * l ..] = the edge lines of the box of edge line l that are
   * smaller than l (up to 3, on a board one box wide), then -1.
   */
  readonly edgeSiblings: Int16Array;

  constructor(g: BoardGeometry, cfg: SolverConfig) {
    super(g, cfg.symmetry !== false, cfg.symmetrySlack ?? DEFAULT_SYMMETRY_SLACK);
    this.equivRule = cfg.equivalentMoves !== false;
    this.handoutRule = this.equivRule && cfg.handoutRule !== false;
    this.openingRule = this.equivRule && cfg.openingEquivalence !== false;
    this.skip = new Uint8Array(this.L);
    this.clen = new Uint8Array(this.B);
    this.eqLines = new Int16Array(this.L + 1);
    this.eqBoxes = new Int16Array(this.B + 1);
    this.eqOf = new Int16Array(this.L);
    this.chA = new Int16Array(this.B);
    this.chB = new Int16Array(this.B);
    this.chK = new Int16Array(this.B);
    this.chOff = new Int16Array(this.B);
    this.chRev = new Uint8Array(this.B);
    this.untraced = new Uint32Array(this.twoBits.length);
    this.sideLines = new Int16Array(this.L);
    this.edgeSiblings = new Int16Array(3 * this.L).fill(-1);
    const lb = this.lineBoxes,
      bl = this.boxLines;
    const isEdge = (l: number) => lb[2 * l] < 0 || lb[2 * l + 1] < 0;
    for (let l = 0; l < this.L; l++) {
      if (!isEdge(l)) continue;
      const b = lb[2 * l] >= 0 ? lb[2 * l] : lb[2 * l + 1];
      let n = 0;
      for (let k = 4 * b; k < 4 * b + 4; k++) if (bl[k] < l && isEdge(bl[k])) this.edgeSiblings[3 * l + n++] = bl[k];
    }
  }

  /**
   * Rule 4 (equivalent moves), only with no 3-box on the board: skip[l] = 1 for an undrawn line
   * that is equivalent to a smaller undrawn line (each class keeps its least line). Classes:
   *  (a) the undrawn edge lines of one box (an automorphism of the strings-and-coins graph);
   *  (b) the two lines of a 1-chain (a 2-box whose neighbours across its undrawn sides are not
   *      2-boxes): either way the opponent's capture is forced by rule 1 and the result is the same;
   *  (c) the two end lines of a 2-chain: either way the opponent's options are (rule 3) taking both
   *      boxes (P + all three lines) or declining (P + both end lines);
   *  (d) a chain of 2-boxes with both ends at the edge: e_i and e_(k-i) (reversal automorphism);
   *      an isolated loop of 2-boxes: all its lines (rotation);
   *  (e) two chains of one length with the same ends (the edge or the same 0/1-boxes): the i-th
   *      line of each from the same end (swapping them is an automorphism); isolated loops of one
   *      length: all their lines (swap and rotation);
   *  (f) every line of a chain of k >= 3 2-boxes (`openingEquivalence`): each opens the chain, with
   *      the same value (the header's proof).
   * `edges` false: (a) is left out (genSacrifices: its lines are sides of 2-boxes, where (a) only
   * repeats (b) on a corner box; genSafe applies (a) to the safe lines itself).
   */
  markEquivalent(edges = true): void {
    const skip = this.skip,
      sides = this.sides,
      bl = this.boxLines,
      lb = this.lineBoxes,
      todo = this.untraced;
    const eq = this.eqOf;
    eq.fill(-1);
    skip.fill(0);
    todo.set(this.twoBits);
    this.nCh = 0;
    this.sideCount = 0;
    if (!edges) {
      // the 2-boxes in ascending order: each chain or loop once (tracing takes its boxes off `untraced`)
      for (let w = 0; w < todo.length; w++)
        for (let m = todo[w]; m !== 0; m = todo[w]) this.traceChain((w << 5) + 31 - Math.clz32(m & -m));
      return;
    }
    for (let b = 0; b < this.B; b++) {
      if (sides[b] >= 4) continue;
      // (a) edge lines of the box
      let g0 = -1;
      for (let k = 0; k < 4; k++) {
        const l = bl[4 * b + k];
        if (this.isDrawn(l) || (lb[2 * l] >= 0 && lb[2 * l + 1] >= 0)) continue;
        if (g0 < 0 || l < g0) {
          if (g0 >= 0) {
            skip[g0] = 1;
            eq[g0] = l;
          }
          g0 = l;
        } else {
          skip[l] = 1;
          eq[l] = g0;
        }
      }
      if ((todo[b >>> 5] & (1 << (b & 31))) !== 0) this.traceChain(b);
    }
  }

  /**
   * markEquivalent's rules (b)-(e) on the maximal chain or loop of 2-boxes through the 2-box b (not
   * traced yet): its lines go to sideLines, its boxes' lengths to clen, and it is recorded for (e).
   */
  private traceChain(b: number): void {
    const skip = this.skip,
      sides = this.sides,
      todo = this.untraced,
      eq = this.eqOf;
    const lines = this.eqLines,
      boxes = this.eqBoxes;
    // trace the maximal chain or loop through b: boxes[0..k-1], lines[0..k] (chain) / [0..k-1] (loop)
    todo[b >>> 5] &= ~(1 << (b & 31));
    const s1 = this.missingSide(b, -1),
      s2 = this.missingSide(b, s1);
    // walk backwards from b through s1 to find one end
    let cur = b,
      via = s1,
      loop = false;
    for (;;) {
      const nx = this.across(via, cur);
      if (nx < 0 || sides[nx] !== 2) break;
      if (nx === b) {
        loop = true;
        break;
      }
      cur = nx;
      via = this.missingSide(nx, via);
    }
    // now walk forward from the end `cur` whose outer line is `via`
    let k = 0,
      n = 0;
    lines[n++] = via;
    let fw = loop ? b : cur,
      fl = loop ? s2 : via;
    if (loop) {
      lines[0] = s1;
      fl = s1;
      fw = b;
    }
    {
      let c = fw;
      let inLine = fl;
      for (;;) {
        boxes[k++] = c;
        todo[c >>> 5] &= ~(1 << (c & 31));
        const out = this.missingSide(c, inLine);
        if (loop) {
          const nx = this.across(out, c);
          if (nx === b) {
            break;
          }
          lines[n++] = out;
          inLine = out;
          c = nx;
          continue;
        }
        lines[n++] = out;
        const nx = this.across(out, c);
        if (nx < 0 || sides[nx] !== 2) break;
        inLine = out;
        c = nx;
      }
    }
    for (let i = 0; i < k; i++) this.clen[boxes[i]] = loop ? 64 + k : k;
    const side = this.sideLines;
    if (loop) {
      // lines[0..n-1] are the loop's lines (n === k): keep the least
      let mn = lines[0];
      for (let i = 1; i < n; i++) if (lines[i] < mn) mn = lines[i];
      side[this.sideCount++] = mn; // the others are skipped
      for (let i = 0; i < n; i++)
        if (lines[i] !== mn) {
          skip[lines[i]] = 1;
          eq[lines[i]] = mn;
        }
      // (e) a loop of the length of one met before: its least line matches that loop's
      const c = this.parallelOf(LOOP_END, LOOP_END, k);
      if (c >= 0) this.equate(mn, side[this.chOff[c]]);
      else this.record(LOOP_END, LOOP_END, k, this.sideCount - 1, false);
      return;
    }
    // chain: boxes[0..k-1], lines[0..k]
    const at = this.sideCount;
    for (let i = 0; i <= k; i++) side[this.sideCount++] = lines[i];
    const first = lines[0],
      last = lines[k];
    const endA = this.across(first, boxes[0]),
      endB = this.across(last, boxes[k - 1]);
    if (k >= 3 && this.openingRule) {
      // (f) one opening of a long chain stands for all of them
      let mn = first;
      for (let i = 1; i <= k; i++) if (lines[i] < mn) mn = lines[i];
      for (let i = 0; i <= k; i++) if (lines[i] !== mn) this.equate(lines[i], mn);
    }
    if (k === 1 || k === 2) {
      if (first < last) {
        skip[last] = 1;
        eq[last] = first;
      } else {
        skip[first] = 1;
        eq[first] = last;
      }
      // rule 5: the middle line of a 2-chain dominates its end lines (not an equality: eqOf is kept)
      if (k === 2 && this.handoutRule) skip[first] = skip[last] = 1;
    }
    // (e) a chain with the ends and length of one met before: line i matches that chain's line i
    {
      const rev = endA > endB;
      const a = rev ? endB : endA,
        z = rev ? endA : endB;
      const c = this.parallelOf(a, z, k);
      if (c >= 0) {
        const off = this.chOff[c],
          r = this.chRev[c] === 1;
        for (let i = 0; i <= k; i++) this.equate(rev ? lines[k - i] : lines[i], side[off + (r ? k - i : i)]);
      } else this.record(a, z, k, at, rev);
    }
    // (d) reversal: a long chain's lines are all equated already when (f) applies
    if (endA < 0 && endB < 0 && !(k >= 3 && this.openingRule)) {
      for (let i = 0; i + i < k; i++) {
        const a = lines[i],
          z = lines[k - i];
        if (a < z) {
          skip[z] = 1;
          eq[z] = a;
        } else if (z < a) {
          skip[a] = 1;
          eq[a] = z;
        }
      }
    }
  }

  /** The chain (loop) recorded with these ends and length, or -1. */
  private parallelOf(a: number, z: number, k: number): number {
    for (let c = 0; c < this.nCh; c++) if (this.chA[c] === a && this.chB[c] === z && this.chK[c] === k) return c;
    return -1;
  }

  /**
   * Records a chain (loop) for rule 4e: its ends, length, and where its lines are in sideLines (from
   * end a: sideLines[at + i], or sideLines[at + k - i] when `rev`; a loop: its least line at `at`).
   */
  private record(a: number, z: number, k: number, at: number, rev: boolean): void {
    const c = this.nCh++;
    this.chA[c] = a;
    this.chB[c] = z;
    this.chK[c] = k;
    this.chOff[c] = at;
    this.chRev[c] = rev ? 1 : 0;
  }

  /** Two lines of equal value: the larger is skipped, pointing to the smaller. */
  private equate(x: number, y: number): void {
    if (x === y) return;
    const lo = x < y ? x : y,
      hi = x < y ? y : x;
    this.skip[hi] = 1;
    if (this.eqOf[hi] < 0 || this.eqOf[hi] > lo) this.eqOf[hi] = lo;
  }
}
