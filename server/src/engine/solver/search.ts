/**
 * The search: negamax alpha-beta on the margin of the remaining boxes, fail-soft, over the
 * incremental position (position.ts), the restricted and ordered moves (moves.ts), the
 * transposition table (table.ts) and the exact leaves (leaves.ts).
 *
 * At each node, in order: the captures rules 1 and 2 force are made in a row, without a table probe
 * and without a node of their own (so a node is a position where a choice is left: the node counts
 * of this solver and of the one before 2026-11-23, which counted each forced capture, differ by
 * definition — compare times, or the `nodes` of the same code); the table's bounds may
 * settle the node or narrow the window; a position with no box below 2 sides is valued exactly at
 * the leaf when the leaf evaluators can; the table move is searched before the other moves are
 * generated (`lazyMoves`: any legal move may be searched without changing the value, the rules only
 * decide what may be left out); with no 3-box, the safe lines are searched before the sacrifices
 * are generated (nextSafe gives the safe lines one at a time, since most cut nodes stop at the first;
 * genSacrifices: rule 6 then sees the alpha they raised); optional enhanced transposition cutoffs
 * (`etc`). Fail-soft bounds are rounded to the parity of the remaining boxes (every value has that
 * parity) before they are stored.
 *
 * The chooser's floor (`pairFloor`). Take a position P with no capture forced by rule 1, and a
 * 3-box X whose missing side l has a 2-box Y across, whose other missing side n is no side of a
 * 3-box. Then v(P) >= 0 (>= 1 when the remaining boxes are odd: values have their parity).
 * Proof, with Q = P + l + n: (take) l completes X and leaves Y a 3-box missing n; n then completes
 * Y and nothing else (no 3-box has n as a side), so the mover can make 2 and move again in Q:
 * val(l) >= 2 + v(Q). (decline) n completes nothing (Y gets its third side, the box across n at
 * most its third); in P + n, X is a 3-box with the 3-box Y across l, so by rule 1
 * v(P + n) = 2 + v(Q) and val(n) = -2 - v(Q). Hence v(P) >= max(2 + v(Q), -2 - v(Q)) >= 0:
 * whoever may take or decline two boxes is never behind. Only the values of the two moves are
 * used (rule 1 is proved in moves.ts), not rule 2's claims. The search uses it where rule 2a
 * leaves exactly that pair (X the only 3-box, the far side of Y the edge or a 0/1-box): a window
 * with beta at or below the floor is cut at once. (Used at every node where it holds, it cut more
 * nodes but cost more in all: the weak bound it returns replaces the searched bounds that the
 * table would have kept.) test/unit/solver.rules.test.ts checks the floor against bruteForce.
 *
 * Exactness: the table's keys are the canonical drawn-line sets themselves, so a probe never
 * returns another position's bounds; every bound stored is proven by the search below it.
 */
import { BoardGeometry } from '../board/geometry';
import type { BoardState } from '../board/state';
import { MoveGenerator } from './moves';
import { LeafValues } from './leaves';
import { SearchingNow, SharedTable, TranspositionTable, tableBitsFor, type SharedTableMemory } from './table';
import { DEFAULT_TABLE_MB, type LeafEvaluator, type SolverConfig } from './types';

/** log2 of the table entries a configuration asks for (tableBits, else tableMb, else the default). */
export function configuredTableBits(cfg: SolverConfig, keyWords: number): number {
  return cfg.tableBits ?? tableBitsFor((cfg.tableMb ?? DEFAULT_TABLE_MB) * 1024 * 1024, keyWords);
}

export class Abort extends Error {}
export const ABORT = new Abort('search aborted');

export const INF = 10000;
/** Enhanced transposition cutoffs only at nodes with at least this many undrawn lines. */
const ETC_MIN = 16;
/** Default of deferMinUndrawn. */
const DEFER_MIN = 18;
/** A node's move-generation stages: its safe lines, then its sacrifices (no 3-box); or every move at once. */
const STAGE_SAFE = 0,
  STAGE_SACRIFICES = 1,
  STAGE_ALL = 2,
  STAGE_DONE = 3;

/** Per-geometry search machinery and its transposition table. */
export class Engine extends MoveGenerator {
  readonly table: TranspositionTable;
  readonly leaves: LeafValues;
  /** Forced captures made on the way down (line, boxes completed), capTop entries in use. */
  private readonly captured: Int16Array;
  private capTop = 0;

  // search control
  nodes = 0;
  /** Moves searched last because another thread was searching them (since the engine was made). */
  deferrals = 0;
  nodeLimit = Infinity;
  deadline = Infinity;
  shouldStop: (() => boolean) | undefined;
  onTick: (() => void) | undefined;
  leaf: LeafEvaluator | null = null;
  readonly simple: boolean;
  readonly workPriority: boolean;
  readonly lazy: boolean;
  readonly tableMin: number;
  readonly etc: boolean;
  readonly pairFloor: boolean;
  /**
   * At ply 0, search the moves in reverse order and not the table move first (a helper thread's
   * share; not when moves other threads search are deferred, deferBusy).
   */
  reverseRoot = false;
  /**
   * After a search from ply 0 that ended above its alpha: a root move and a proven lower bound on its
   * value (the move whose search raised the root's best, worth at least what it returned; or the
   * capture rules 1 and 2 force, which is optimal). -1 when the search gives no such move (it failed
   * low, or ended on the table's bounds, a leaf or the chooser's floor). The caller resets it before
   * a search from ply 0 (Solver.searchWindow).
   */
  rootMove = -1;
  rootMoveLower = -INF;
  /** With a table shared by threads: the moves they are searching now (simplified ABDADA), else null. */
  private readonly searchingNow: SearchingNow | null;
  /** The table is shared with other threads (SharedTable). */
  private readonly shared: boolean;
  /** Moves are deferred while another thread searches them only at nodes with this many undrawn lines. */
  private readonly deferMin: number;
  /** Per ply, the moves deferred while another thread searched them. */
  private readonly deferredMoves: Int16Array;

  /** `shared`: the memory of a table shared with other threads (sharedTableMemory), instead of a table of its own. */
  constructor(g: BoardGeometry, cfg: SolverConfig, shared?: SharedTableMemory) {
    super(g, cfg);
    const bits = configuredTableBits(cfg, this.nw);
    this.workPriority = cfg.replacement !== 'depth';
    this.table =
      shared !== undefined
        ? new SharedTable(shared)
        : new TranspositionTable(this.nw, bits, cfg.bucket ?? 4, this.workPriority);
    this.shared = shared !== undefined;
    this.leaves = new LeafValues(this);
    this.captured = new Int16Array(2 * this.L + 2);
    this.simple = cfg.simpleEndgames !== false;
    this.lazy = cfg.lazyMoves !== false;
    this.tableMin = cfg.tableMinUndrawn ?? 0;
    this.etc = cfg.etc === true;
    this.pairFloor = cfg.pairFloor !== false;
    this.searchingNow = shared !== undefined && cfg.deferBusy !== false ? new SearchingNow(shared) : null;
    this.deferMin = cfg.deferMinUndrawn ?? DEFER_MIN;
    this.deferredMoves = new Int16Array(this.moves.length);
  }

  /** Slot of the current position (canon() done, its hash h) in the table, or -1. */
  private probe(h: number): number {
    return this.table.probe(this.bits, this.canonSym * this.nw, h);
  }

  /** Store bounds and a best move (in the position's own orientation) for the current position. */
  private store(h: number, slot: number, lo: number, hi: number, best: number, priority: number): void {
    const move = best >= 0 ? this.toCanonical(best) : -1;
    this.table.store(this.bits, this.canonSym * this.nw, h, slot, lo, hi, move, priority);
  }

  /**
   * The slot to store the current position's search in, from `slot`, its probe before the search:
   * the same slot while the entry is still there, else -1 (a new entry). The search below it cannot
   * have stored this position (every position below has more lines drawn), so no probe is needed. A
   * shared table's store probes again under its lock whatever it is given.
   */
  private slotAfterSearch(slot: number): number {
    if (this.shared || slot < 0) return -1;
    return this.table.holds(slot, this.bits, this.canonSym * this.nw) ? slot : -1;
  }

  /** The table's bounds and best move (own orientation, -1 none) for the current position, or null. */
  tableBounds(): [number, number, number] | null {
    const h = this.canon();
    const slot = this.probe(h);
    if (slot < 0) return null;
    const tb = this.table.mv;
    return [this.table.lo, this.table.hi, tb >= 0 ? this.fromCanonical(tb) : -1];
  }

  private tick(): void {
    if (this.nodes >= this.nodeLimit) throw ABORT;
    if (this.deadline !== Infinity && Date.now() > this.deadline) throw ABORT;
    if (this.shouldStop && this.shouldStop()) throw ABORT;
    if (this.onTick && (this.nodes & 0xffff) === 0) this.onTick();
  }

  /** A search aborted (budget, cancel) leaves forced captures on the stack: loading starts afresh. */
  override load(state: BoardState): void {
    super.load(state);
    this.capTop = 0;
  }

  /**
   * Negamax, fail-soft: the value for the player to move of the remaining boxes, or a bound on it
   * outside (alpha, beta). One node: the captures forced by rules 1 and 2 are made first, in a row,
   * then the position they leave is expanded (expand()).
   */
  search(alpha: number, beta: number, ply: number): number {
    if ((++this.nodes & 4095) === 0) this.tick();
    if (this.threeCount > 0) {
      let l = this.forcedCapture();
      if (l >= 0) {
        const stack = this.captured,
          top = this.capTop;
        let end = top,
          c = 0;
        do {
          const k = this.make(l);
          stack[end++] = l;
          stack[end++] = k;
          c += k;
          l = this.threeCount > 0 ? this.forcedCapture() : -1;
        } while (l >= 0);
        this.capTop = end;
        const v = c + this.expand(alpha - c, beta - c, ply + 1);
        this.capTop = top;
        while (end > top) {
          end -= 2;
          this.unmake(stack[end], stack[end + 1]);
        }
        // the first forced capture is an optimal move (rules 1 and 2): worth v(P), so at least v above alpha
        if (ply === 0 && v > alpha) {
          this.rootMove = stack[top];
          this.rootMoveLower = v;
        }
        return v;
      }
    }
    return this.expand(alpha, beta, ply);
  }

  /** The search of a position with no forced capture (the rest of search()). */
  private expand(alpha: number, beta: number, ply: number): number {
    const n0 = this.nodes;
    // forcedCapture() has just run here when there is a 3-box: keep its verdict on rule 2a
    const pairN = this.threeCount > 0 ? this.pairN : 0,
      pa = this.pair[0],
      pb = this.pair[1];
    const R = this.remaining;
    if (R === 0) return 0;
    if (R <= alpha) return R;
    if (-R >= beta) return -R;
    // the player who may take or decline two boxes (rule 2a) gets at least 0 (the header's proof)
    const floor = this.pairFloor && pairN === 2 ? R & 1 : -R;
    const useTable = this.undrawn >= this.tableMin;
    const h = useTable ? this.canon() : 0;
    const slot = useTable ? this.probe(h) : -1;
    let lo = -R,
      hi = R,
      ttMove = -1;
    if (slot >= 0) {
      const tl = this.table.lo,
        th = this.table.hi;
      if (tl > lo) lo = tl;
      if (th < hi) hi = th;
      if (lo >= beta) return lo;
      if (hi <= alpha) return hi;
      if (lo === hi) return lo;
      const tb = this.table.mv;
      if (tb >= 0) ttMove = this.fromCanonical(tb);
    }
    if (floor >= beta) return lo > floor ? lo : floor;
    const undrawn = this.undrawn,
      sym = this.canonSym;
    if (this.lowCount === 0 && (this.simple || this.leaf !== null)) {
      const v =
        this.simple && this.threeCount === 0
          ? this.leaves.simple()
          : this.leaf !== null
            ? this.leaves.external(this.leaf)
            : undefined;
      if (v !== undefined) {
        this.canonSym = sym;
        if (useTable) this.store(h, slot, v, v, -1, this.workPriority ? 1 : undrawn);
        return v;
      }
    }
    if (alpha < lo) alpha = lo;
    if (beta > hi) beta = hi;
    const a0 = alpha;
    let best = -INF,
      bestMove = -1,
      first = -1,
      searched = false;
    // a helper deferring busy moves follows the same order as the others: deferral spreads the threads
    const reverse = ply === 0 && this.reverseRoot && this.searchingNow === null;
    if (this.lazy && !this.etc && !reverse && ttMove >= 0 && !this.isDrawn(ttMove)) {
      // the table move before generating the others: most cut nodes stop here
      first = ttMove;
      const c = this.make(first);
      const v = c > 0 ? c + this.search(alpha - c, beta - c, ply + 1) : 0 - this.search(0 - beta, 0 - alpha, ply + 1);
      this.unmake(first, c);
      best = v;
      bestMove = first;
      searched = true;
      if (v > alpha) alpha = v;
    }
    // With no 3-box, the moves come in two stages: the safe lines, then (if none cut) the sacrifices.
    const staged = this.lazy && !this.etc && !reverse && this.threeCount === 0;
    for (
      let stage = staged ? STAGE_SAFE : STAGE_ALL;
      alpha < beta && stage !== STAGE_DONE;
      stage = stage === STAGE_SAFE ? STAGE_SACRIFICES : STAGE_DONE
    ) {
      const base = ply * this.L;
      let n: number;
      // the safe lines one at a time (cursor: where nextSafe goes on in the centre-out order; L: all given)
      let cursor = this.L;
      if (stage === STAGE_SAFE) {
        if (this.killers) n = this.genSafe(ply, first);
        else {
          n = 0;
          cursor = 0;
        }
      } else {
        n =
          stage === STAGE_SACRIFICES
            ? this.genSacrifices(ply, first, alpha)
            : this.genMoves(ply, ttMove, true, pairN, pa, pb, alpha);
        // moves rule 6 left out are worth at most `dropped` <= alpha: a fail-low bound must cover them
        if (this.dropped > best) best = this.dropped;
      }
      if (stage === STAGE_ALL) {
        if (reverse) this.moves.subarray(base, base + n).reverse();
        if (this.etc && n > 1 && undrawn >= ETC_MIN) {
          // enhanced transposition cutoff: a child already known to refute the window
          for (let i = 0; i < n; i++) {
            const m = this.moves[base + i];
            const c = this.make(m);
            const cs = this.probe(this.canon());
            let v = -INF;
            if (cs >= 0) v = c > 0 ? c + this.table.lo : -this.table.hi;
            this.unmake(m, c);
            if (v >= beta) {
              this.canonSym = sym;
              if (useTable && v > lo) this.store(h, this.probe(h), v, hi, m, this.workPriority ? 1 : undrawn);
              return v;
            }
          }
        }
      }
      // with other threads: a move one of them is searching now waits for the end of the stage
      const now = this.searchingNow !== null && useTable && undrawn >= this.deferMin ? this.searchingNow : null;
      let nDeferred = 0;
      for (let i = 0; ; i++) {
        if (i === n && cursor < this.L) {
          cursor = this.nextSafe(cursor, first);
          if (cursor < this.L) this.moves[base + n++] = this.order[cursor++];
        }
        if (i >= n + nDeferred) break;
        const m = i < n ? this.moves[base + i] : this.deferredMoves[base + i - n];
        if (m === first) continue;
        let mark = 0;
        if (now !== null && i < n) {
          mark = SearchingNow.mark(h, this.perm[sym * this.L + m]);
          if (searched && now.busy(mark)) {
            this.deferredMoves[base + nDeferred++] = m;
            this.deferrals++;
            continue;
          }
          now.start(mark);
        }
        const c = this.make(m);
        const v = c > 0 ? c + this.search(alpha - c, beta - c, ply + 1) : 0 - this.search(0 - beta, 0 - alpha, ply + 1);
        this.unmake(m, c);
        if (mark !== 0) now!.end(mark);
        searched = true;
        if (v > best) {
          best = v;
          bestMove = m;
          if (v > alpha) {
            alpha = v;
            if (alpha >= beta) {
              if (c === 0) this.killer[ply] = m;
              break;
            }
          }
        }
      }
    }
    // the position is unchanged again: so is its canonical image
    this.canonSym = sym;
    // values have the parity of the remaining boxes: round fail-soft bounds inwards
    if (best <= a0) {
      if (((best - R) & 1) !== 0) best--;
      if (best < hi) hi = best;
    } else if (best >= beta) {
      if (((best - R) & 1) !== 0) best++;
      if (best > lo) lo = best;
    } else {
      lo = best;
      hi = best;
    }
    // above alpha, bestMove's own search returned best: the move is worth at least that (every
    // move's value has the parity of R, so the rounding holds for it too)
    if (ply === 0 && best > a0 && bestMove >= 0) {
      this.rootMove = bestMove;
      this.rootMoveLower = best;
    }
    if (useTable)
      this.store(
        h,
        this.slotAfterSearch(slot),
        lo,
        hi,
        bestMove,
        this.workPriority ? 32 - Math.clz32(this.nodes - n0 + 1) : undrawn,
      );
    return best;
  }
}
