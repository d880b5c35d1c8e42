/**
 * Move generation: the moves a search node must try, in the order it tries them, after the
 * move-restriction rules 1-5 (each keeps at least one optimal move) and rule 6 (which leaves out
 * only moves that cannot raise alpha). The tests cross-check every rule against bruteForce, see
 * test/unit/solver.rules.test.ts.
 *
 * PROOFS of the restriction rules (P = position, mover A to move; "k-box" = box with k sides drawn).
 *
 * Rule 1 (free capture). X is a 3-box with missing side l and the box Y across l is absent,
 *   a 0-box, a 1-box or a 3-box. Then drawing l (taking X, and Y too when Y is a 3-box) is optimal:
 *   v(P) = c + v(P+l), c = boxes completed by l.
 *   Proof by induction on undrawn lines; let m != l be any move. m completes in P exactly the boxes
 *   it completes in P+l (X and a 3-box Y have only l missing; a 0/1-box Y has at most 2 sides in
 *   P+l, at most 3 after m). (i) m completes nothing: the opponent may answer l in P+m, so
 *   val(m) = -v(P+m) <= -(c + v(P+l+m)) <= -c + v(P+l) < c + v(P+l). (ii) m completes k boxes
 *   and is not a side of Y: P+m satisfies the rule again, so by induction
 *   val(m) = k + v(P+m) = k + c + v(P+l+m) <= c + v(P+l). (iii) m completes a box Z and is a side
 *   of Y (so Y was a 0/1-box and Z a 3-box missing m): P+m and P+l are the same game with
 *   (l, X) and (m, Z) exchanged, so val(m) = 1 + v(P+m) = 1 + v(P+l) = c + v(P+l).
 *
 * Rule 2 (opened chain; `chainRule`). Take a 3-box X, missing l, and follow the chain of 2-boxes
 *   from it: Y1 across l (its other missing side n), Y2, ..., Yj, up to E, the first box that is not
 *   a 2-box, or the edge; e is the line between Yj and E. (The search applies rule 2 only where
 *   rule 1 does not, so Y1 is a 2-box.)
 *   (a) j = 1, E the edge or a 0/1-box, and X the only 3-box on the board: only l (take X) and n
 *       (the double-dealing move) need searching. (With other 3-boxes about, the decline must come
 *       after the other captures: no restriction.)
 *   (b) E the edge or a 0/1-box and j >= 2 (b1), or E a 3-box and j >= 3 (b2: a chain of 5 boxes or
 *       more opened at both ends): only l needs searching.
 *   (c) Otherwise (E a 3-box and j <= 2: 3 or 4 boxes opened at both ends) this X gives no
 *       restriction.
 *   This is Berlekamp's "take all but the last two of a chain (last four of a chain opened at both
 *   ends), then take them or decline them", as far as the search needs it. Proof of (a): l is the
 *   only capture, and by rule 3 a line that completes nothing must be a side of Y1: l or n.
 *   Proof of (b), by induction on the undrawn lines, of a claim that also holds with free captures
 *   elsewhere: whenever X and its chain are as in (b1) or (b2), val(l) = v(P). The chain's boxes
 *   have no undrawn sides but its lines l, n, ..., e, and e is the only one of them that is a side of
 *   E. Let m != l be a line.
 *   - m completes nothing and is no side of Y1: val(m) < val(l) by rule 3.
 *   - m = n in (b1). In P + n the opponent may draw l, completing X and Y1: val(n) <= -2 - v(Q),
 *     Q = P + l + n. In P + l the mover may draw n, completing Y1: val(l) >= 2 + v(Q). In Q, Y2 heads
 *     the r = j - 1 boxes left, a chain ending at E. If r >= 2, whoever moves in Q may take all of
 *     them and move in Q' = Q + every line of the chain, or take all but Y(j-1) and Yj and draw e (it
 *     completes nothing: E gets at most its second side), leaving two 3-boxes across a line, which
 *     rule 1 makes the other take before moving in Q': v(Q) >= max(r + v(Q'), r - 4 - v(Q')) >= 0,
 *     so val(l) - val(n) >= 4 + 2 v(Q) > 0. If r = 1, Y2 faces E across e in Q: v(Q) = 1 + v(Q') by
 *     rule 1, so val(n) <= -3 - v(Q'); and in P + l the mover may draw e, leaving Y1 and Y2 3-boxes
 *     across n, which rule 1 makes the opponent take: val(l) >= 1 - 2 - v(Q') > val(n).
 *   - m = n or m = e in (b2). X, the Yi and E have no other undrawn sides, so the chain is a
 *     component of the strings-and-coins graph by itself, and its reversal, an automorphism,
 *     exchanges l and e: val(e) = val(l). n is no side of Yj (j >= 3), so by rule 3 for the 3-box E,
 *     val(n) < val(e).
 *   - m completes k >= 1 boxes, none of the chain (m is the missing side of another 3-box). m
 *     completes the same boxes in P + l, so val(l) >= 1 + k + v(P+l+m). In P + m the claim's
 *     conditions hold again: the chain is unchanged, and E, when m is one of its sides, is still a
 *     0/1-box, or a 2-box that lengthens the chain, which then ends at the edge or a 0/1-box with
 *     more boxes, or at a 3-box with at least 1 + 3 + 1 boxes. By induction v(P+m) = 1 + v(P+l+m),
 *     so val(m) = k + v(P+m) <= val(l).
 *   The rule can be turned off (`chainRule: false`); the tests check it against bruteForce on
 *   thousands of positions, and check the claim itself (with free captures elsewhere too) and the
 *   two comparisons with n and e.
 *
 * Rule 3 (captures and the double-dealing line; `captureRule`). With a 3-box X (missing l, box or
 *   edge Y across l), any move m that completes nothing and is not a side of Y is strictly worse
 *   than l. Proof: m is no side of X or Y, so l completes the same c >= 1 boxes in P + m as in P,
 *   and m completes nothing in P + l. With Q = P + l + m:
 *   val(m) = -v(P+m) <= -(c + v(Q)) < c - v(Q) <= c + v(P+l) = val(l).
 *   So only lines completing a box and a non-capturing line that is the other undrawn side of
 *   every such Y need searching (when rules 1 and 2 leave the choice open).
 *
 * Rules 4 (equivalent moves) and 5 (the hard-hearted handout) come from the chain analysis that
 * marks the lines they skip: their proofs are in chains.ts.
 *
 * Rule 6 (long openings; `openingBound`), with no 3-box on the board. Let m be a line of a maximal
 *   chain X1..Xk of 2-boxes (ends: the edge or 0/1-boxes) with k >= 3, or of an isolated loop of
 *   k >= 4 2-boxes. Then val(m) <= 2 - k (chain) and val(m) <= 4 - k (loop), so a node whose alpha is
 *   at least that bound may leave m out (its fail-low bound then takes the bound into account).
 *   Proof, with Q = P + every undrawn line of the chain (loop): m completes nothing. In P + m the
 *   opponent may (take) draw the remaining lines from the 3-boxes m made inwards, completing all k
 *   boxes (an end box Z gets at most its third side, so never completes), and move again in Q:
 *   v(P+m) >= k + v(Q). Or (decline) take all but two boxes (chain: m leaves a piece of >= 2 boxes
 *   since k >= 3; take the other piece and all of this one but its last two X, Y, then draw Y's outer
 *   line, which completes nothing) or all but four (loop: leave four in a row, draw the middle one of
 *   their three inner lines): the mover then faces one (two) pairs of 3-boxes across a line, rule 1
 *   makes them take the d = 2 (4) boxes, then move in Q: v(P+m) >= k - 2d - v(Q). So
 *   v(P+m) >= max(k + v(Q), k - 2d - v(Q)) >= k - d, and val(m) = -v(P+m) <= d - k.
 *   test/unit/solver.rules.test.ts checks the bound against bruteForce on thousands of lines.
 */
import { BoardGeometry } from '../board/geometry';
import { ChainAnalysis } from './chains';
import type { SolverConfig } from './types';

/** Sacrifices of chains up to this length come before the opening of longer chains and loops. */
const SHORT = 1;
/** Rule 6's "no bound" (above every value). */
export const OPEN_BOUND_NONE = 10000;

/**
 * Rule 6: the most a line of a chain of 2-boxes is worth to the player drawing it, from the chain's
 * length as markEquivalent leaves it in clen (k, or 64 + k for a loop): 2 - k for a chain of
 * k >= 3, 4 - k for a loop of k >= 4, else no bound.
 */
function openingBound(clen: number): number {
  if (clen >= 64) return clen >= 68 ? 68 - clen : OPEN_BOUND_NONE;
  return clen >= 3 ? 2 - clen : OPEN_BOUND_NONE;
}

export class MoveGenerator extends ChainAnalysis {
  /** Per-ply move buffers: moves[ply * L ..]. */
  readonly moves: Int16Array;
  chainRule: boolean;
  captureRule: boolean;
  killers: boolean;
  /** Killer move per ply (a safe line that refuted a sibling), -1 none. */
  readonly killer: Int16Array;
  /** genSacrifices()' scratch: the lines of 2-chains, after the 1-chains; the openings of long chains and loops, last. */
  readonly deferredPairs: Int16Array;
  readonly deferred: Int16Array;
  readonly pair = new Int16Array(2);
  pairN = 0;
  /** Rule 6 (`openingBound`): leave out chain and loop openings whose bound is at most alpha. */
  openingBound: boolean;
  /** After genMoves(): the largest rule 6 bound of the moves it left out (-OPEN_BOUND_NONE: none). */
  dropped = -OPEN_BOUND_NONE;
  /** rank[l] = the position of line l in the centre-out order. */
  readonly rank: Int16Array;

  constructor(g: BoardGeometry, cfg: SolverConfig) {
    super(g, cfg);
    this.moves = new Int16Array((this.L + 2) * this.L);
    this.chainRule = cfg.chainRule !== false;
    this.captureRule = cfg.captureRule !== false;
    this.killers = cfg.killers === true;
    this.openingBound = this.equivRule && cfg.openingBound !== false;
    this.killer = new Int16Array(this.L + 2).fill(-1);
    this.deferred = new Int16Array(this.L);
    this.deferredPairs = new Int16Array(this.L);
    this.rank = new Int16Array(this.L);
    for (let i = 0; i < this.L; i++) this.rank[this.order[i]] = i;
  }

  /** The missing side of a 3-box that rule 1 says to take now, or -1. */
  freeCapture(): number {
    const sides = this.sides,
      three = this.threeBits;
    for (let w = 0; w < three.length; w++) {
      for (let m = three[w]; m !== 0;) {
        const t = m & -m;
        m ^= t;
        const b = (w << 5) + 31 - Math.clz32(t); // the 3-boxes in ascending order
        const l = this.missingSide(b, -1);
        const y = this.across(l, b);
        if (y < 0 || sides[y] !== 2) return l;
      }
    }
    return -1;
  }

  /**
   * Rule 2 (opened chain): writes the moves it leaves to out[at ..] and returns their number (1 or
   * 2), or 0 when it gives no restriction. Call only when rule 1 does not apply.
   */
  openedChain(out: Int16Array, at: number): number {
    const sides = this.sides,
      three = this.threeBits;
    for (let w = 0; w < three.length; w++) {
      for (let mask = three[w]; mask !== 0;) {
        const t = mask & -mask;
        mask ^= t;
        const b = (w << 5) + 31 - Math.clz32(t); // the 3-boxes in ascending order
        const l = this.missingSide(b, -1);
        const y = this.across(l, b); // a 2-box (rule 1 did not apply)
        const n = this.missingSide(y, l);
        let k = 2,
          cur = y,
          via = n;
        let next = this.across(via, cur);
        while (next >= 0 && sides[next] === 2) {
          k++;
          const exit = this.missingSide(next, via);
          cur = next;
          via = exit;
          next = this.across(via, cur);
        }
        if (next < 0 || sides[next] < 2) {
          if (k === 2) {
            if (this.threeCount === 1) {
              out[at] = l;
              out[at + 1] = n;
              return 2;
            }
            continue;
          }
          out[at] = l;
          return 1;
        }
        // ends at a 3-box: chain opened at both ends, k + 1 boxes
        if (k + 1 >= 5) {
          out[at] = l;
          return 1;
        }
      }
    }
    return 0;
  }

  /**
   * A capture that rules 1 and 2 make forced (the only move to search), or -1. The search makes
   * such captures in a row without a node of their own: the same player moves again after each.
   * When it returns -1 with a 3-box on the board, pairN and pair[] hold rule 2's verdict (0: no
   * restriction, 2: the take and double-dealing lines of rule 2a) for genMoves.
   */
  forcedCapture(): number {
    const l = this.freeCapture();
    this.pairN = 0;
    if (l >= 0 || !this.chainRule) return l;
    const k = this.openedChain(this.pair, 0);
    if (k === 1) return this.pair[0];
    this.pairN = k;
    return -1;
  }

  /**
   * Fill the move buffer moves[ply * L ..] for this position; returns the number of moves. Rules
   * 1-6 decide what may be left out (rules 1-5 keep an optimal move, rule 6 what may raise `alpha`);
   * the order is: the table move (`ttMove`, -1 for none), captures, then with no 3-box genSafe's
   * lines and genSacrifices' (the staged search's two stages in one list). Never used at solve()'s root, which tries
   * every line. `checked`: forcedCapture() has just run on this position and found nothing forced;
   * pairN, pa, pb are its pairN and pair[].
   */
  genMoves(ply: number, ttMove: number, checked = false, pairN = 0, pa = 0, pb = 0, alpha = -OPEN_BOUND_NONE): number {
    this.dropped = -OPEN_BOUND_NONE;
    const L = this.L,
      buf = this.moves,
      base = ply * L,
      sides = this.sides;
    if (this.threeCount > 0) {
      if (checked) {
        // rules 1 and 2 were applied by forcedCapture() here: nothing forced, rule 2a's pair or nothing
        if (pairN === 2) {
          buf[base] = pa;
          buf[base + 1] = pb;
          return 2;
        }
      } else {
        // Rule 1
        for (let b = 0; b < this.B; b++) {
          if (sides[b] !== 3) continue;
          const l = this.missingSide(b, -1);
          const y = this.across(l, b);
          if (y < 0 || sides[y] !== 2) {
            buf[base] = l;
            return 1;
          }
        }
        if (this.chainRule) {
          const k = this.openedChain(buf, base);
          if (k > 0) return k;
        }
      }
      if (this.captureRule) {
        // Rule 3: captures, plus the one non-capturing line that is a side of every Y
        let cnt = 0,
          common = -2;
        if (ttMove >= 0 && !this.isDrawn(ttMove)) {
          const b0 = this.lineBoxes[2 * ttMove],
            b1 = this.lineBoxes[2 * ttMove + 1];
          if ((b0 >= 0 && sides[b0] === 3) || (b1 >= 0 && sides[b1] === 3)) buf[base + cnt++] = ttMove;
        }
        for (let b = 0; b < this.B; b++) {
          if (sides[b] !== 3) continue;
          const l = this.missingSide(b, -1);
          let dup = false;
          for (let i = 0; i < cnt; i++)
            if (buf[base + i] === l) {
              dup = true;
              break;
            }
          if (!dup) buf[base + cnt++] = l;
          if (common !== -1) {
            const y = this.across(l, b);
            // y is a 2-box here (rule 1 did not apply): its other missing side
            const n = y >= 0 && sides[y] === 2 ? this.missingSide(y, l) : -1;
            if (common === -2) common = n;
            else if (common !== n) common = -1;
          }
        }
        if (common >= 0) {
          let dup = false;
          for (let i = 0; i < cnt; i++)
            if (buf[base + i] === common) {
              dup = true;
              break;
            }
          if (!dup) buf[base + cnt++] = common;
        }
        return cnt;
      }
    }
    let cnt = 0;
    if (ttMove >= 0 && !this.isDrawn(ttMove)) buf[base + cnt++] = ttMove;
    if (this.threeCount > 0) {
      // rule 3 off: the captures, then every other line
      const order = this.order,
        lb = this.lineBoxes;
      for (let pass = 0; pass < 2; pass++)
        for (let i = 0; i < L; i++) {
          const l = order[i];
          if (l === ttMove || this.isDrawn(l)) continue;
          const b0 = lb[2 * l],
            b1 = lb[2 * l + 1];
          const capture = (b0 >= 0 && sides[b0] === 3) || (b1 >= 0 && sides[b1] === 3);
          if (capture === (pass === 0)) buf[base + cnt++] = l;
        }
      return cnt;
    }
    // the two stages of the search's staged nodes, in one list
    cnt += this.genSafe(ply, ttMove, cnt);
    return cnt + this.genSacrifices(ply, ttMove, alpha, cnt);
  }

  /**
   * The first stage of a node with no 3-box (genMoves in two parts, for nodes that stop at a safe
   * move): the lines that give nothing away (no side of a 2-box), centre-out, the killer first,
   * without `except` (the table move, already searched) and, of the undrawn edge lines of one box,
   * all but the least (rule 4a). Returns their number, in moves[ply * L + at ..]. The search itself
   * takes them one at a time with nextSafe (most cut nodes stop at the first).
   */
  genSafe(ply: number, except: number, at = 0): number {
    const buf = this.moves,
      base = ply * this.L + at,
      order = this.order;
    const killer = this.killers ? this.killer[ply] : -1;
    let cnt = 0;
    if (killer >= 0 && killer !== except && !this.isDrawn(killer) && this.givesNothing(killer))
      buf[base + cnt++] = killer;
    for (let i = this.nextSafe(0, except); i < this.L; i = this.nextSafe(i + 1, except))
      if (order[i] !== killer) buf[base + cnt++] = order[i];
    return cnt;
  }

  /**
   * The position in the centre-out order, at or after `from`, of the next line genSafe gives (no
   * side of a 2-box or 3-box, not `except`, not an edge line of a box with a smaller undrawn edge
   * line under rule 4a), or L when none.
   */
  nextSafe(from: number, except: number): number {
    const L = this.L,
      sides = this.sides,
      order = this.order,
      lb = this.lineBoxes,
      bits = this.bits,
      sib = this.edgeSiblings,
      equiv = this.equivRule;
    for (let i = from; i < L; i++) {
      const l = order[i];
      if (l === except || (bits[l >>> 5] & (1 << (l & 31))) !== 0) continue;
      const b0 = lb[2 * l],
        b1 = lb[2 * l + 1];
      if ((b0 >= 0 && sides[b0] >= 2) || (b1 >= 0 && sides[b1] >= 2)) continue;
      if (equiv) {
        // an edge line: kept only when no smaller edge line of its box is undrawn
        let smaller = false;
        for (let k = 3 * l; k < 3 * l + 3; k++) {
          const o = sib[k];
          if (o < 0) break;
          if ((bits[o >>> 5] & (1 << (o & 31))) === 0) {
            smaller = true;
            break;
          }
        }
        if (smaller) continue;
      }
      return i;
    }
    return L;
  }

  /**
   * The second stage: the sides of 2-boxes (sacrifices): 1-chains, then 2-chains, then the openings
   * of long chains and loops (fewer nodes than other orders, measured), after rules 4-6
   * (rule 6 with this alpha), without `except`. Returns their number, in moves[ply * L + at ..].
   * The lines are markEquivalent's (it walks every chain and loop anyway), sorted by rank: the same
   * moves in the same order as a centre-out scan of the board would give, without the scan.
   */
  genSacrifices(ply: number, except: number, alpha: number, at = 0): number {
    const L = this.L,
      buf = this.moves,
      base = ply * L + at,
      sides = this.sides,
      lb = this.lineBoxes,
      clen = this.clen,
      skip = this.skip;
    this.dropped = -OPEN_BOUND_NONE;
    if (!this.equivRule) {
      // no chain analysis: every side of a 2-box, centre-out
      let cnt = 0;
      for (let i = 0; i < L; i++) {
        const l = this.order[i];
        if (l === except || this.isDrawn(l)) continue;
        const b0 = lb[2 * l],
          b1 = lb[2 * l + 1];
        if ((b0 >= 0 && sides[b0] === 2) || (b1 >= 0 && sides[b1] === 2)) buf[base + cnt++] = l;
      }
      return cnt;
    }
    // the sides of 2-boxes come from the chain analysis (no scan of the board), each class centre-out
    this.markEquivalent(false);
    let cnt = 0,
      nPair = 0,
      nLong = 0;
    const pairs = this.deferredPairs,
      longs = this.deferred,
      side = this.sideLines;
    for (let j = 0; j < this.sideCount; j++) {
      const l = side[j];
      if (l === except || skip[l]) continue;
      const b0 = lb[2 * l],
        b1 = lb[2 * l + 1];
      const s0 = b0 >= 0 ? sides[b0] : 0,
        s1 = b1 >= 0 ? sides[b1] : 0;
      if ((s0 === 2 ? clen[b0] : 0) + (s1 === 2 ? clen[b1] : 0) <= SHORT) {
        buf[base + cnt++] = l;
        continue;
      }
      const len = s0 === 2 ? clen[b0] : clen[b1];
      if (this.openingBound) {
        const ub = openingBound(len);
        if (ub <= alpha) {
          if (ub > this.dropped) this.dropped = ub;
          continue;
        }
      }
      if (len === 2) pairs[nPair++] = l;
      else longs[nLong++] = l;
    }
    this.byRank(buf, base, cnt);
    this.byRank(pairs, 0, nPair);
    this.byRank(longs, 0, nLong);
    for (let i = 0; i < nPair; i++) buf[base + cnt++] = pairs[i];
    for (let i = 0; i < nLong; i++) buf[base + cnt++] = longs[i];
    return cnt;
  }

  /** Sort a[from .. from + n) into the centre-out order (insertion sort: a few lines). */
  private byRank(a: Int16Array, from: number, n: number): void {
    const rank = this.rank;
    for (let i = from + 1; i < from + n; i++) {
      const x = a[i],
        r = rank[x];
      let j = i - 1;
      while (j >= from && rank[a[j]] > r) {
        a[j + 1] = a[j];
        j--;
      }
      a[j + 1] = x;
    }
  }

  /** No side of the line is a side of a 2-box or 3-box. */
  private givesNothing(l: number): boolean {
    const b0 = this.lineBoxes[2 * l],
      b1 = this.lineBoxes[2 * l + 1];
    return (b0 < 0 || this.sides[b0] < 2) && (b1 < 0 || this.sides[b1] < 2);
  }
}
