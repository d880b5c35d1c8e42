/**
 * Exact Dots-and-Boxes solver: the root drivers over the search (search.ts). Values are for the
 * player to move: the net boxes of the remaining boxes under best play.
 *
 * Files, by seam:
 *  - types.ts     options, results and configuration (the public API, re-exported by index.ts);
 *  - position.ts  the incremental position: drawn lines under every symmetry, side counts, make/unmake,
 *                 the canonical image;
 *  - symmetry.ts  the board's symmetries, the canonical key of a position and move mapping between
 *                 orientations (for callers such as a persistent store);
 *  - table.ts     the transposition table (bounds and a best move per canonical position; bit layout);
 *  - chains.ts    the chain analysis (the chains and loops of 2-boxes), with restriction rules 4 and 5;
 *  - moves.ts     move generation and ordering, with the other restriction rules (1-3, 6) and their proofs;
 *  - leaves.ts    exact values at leaves (chains and loops; a pluggable loony-endgame evaluator);
 *  - search.ts    negamax alpha-beta over all of the above;
 *  - threads.ts   the same solves on several threads sharing one table (ThreadedSolver);
 *  - brute.ts     the independent oracle (plain memoized minimax) the tests compare everything with.
 *
 * Root drivers: solve() gives every optimal move (and with moveValues every move's value) by
 * null-window (MTD) tests per root move (a root line that rule 4 proves equivalent to a smaller one
 * takes that line's value: `rootEquivalence`); with `valueOnly` the root is searched like an inner node by
 * null-window tests, the cheapest proof of the value; searchWindow() runs one window search (the
 * primitive of proofs that need only a bound).
 */
import { BoardGeometry } from '../board/geometry';
import { BoardState } from '../board/state';
import { loonyEndgameValue } from '../endgame';
import { Abort, Engine, INF } from './search';
import type { SolveOptions, SolveResult, SolverConfig, WindowResult } from './types';
import type { SharedTableMemory, TranspositionTable } from './table';

/**
 * A solver with a persistent, bounded transposition table: successive positions of one game
 * share results. Not re-entrant (one solve at a time per instance).
 */
export class Solver {
  protected readonly cfg: SolverConfig;
  private engine: Engine | null = null;
  /** Searches made by a helper thread go through the root moves in reverse (threads.ts). */
  protected reverseRoot = false;

  /**
   * `tableMemory`: gives the memory of a table shared with other threads for a board geometry
   * (threads.ts); without it the solver has a table of its own.
   */
  constructor(
    cfg: SolverConfig = {},
    private readonly tableMemory?: (g: BoardGeometry) => SharedTableMemory | undefined,
  ) {
    this.cfg = { ...cfg };
  }

  /** Forget every stored result. */
  clear(): void {
    this.engine?.table.clear();
  }

  /** Moves this thread searched last because another thread was searching them (deferBusy), all solves. */
  deferrals(): number {
    return this.pastDeferrals + (this.engine?.deferrals ?? 0);
  }
  private pastDeferrals = 0;

  /**
   * The table of this board size's searches, read-only for move ordering elsewhere (the Nimstring
   * search tries its best moves first: nimstring/bitSearch.ts); undefined before any search of it.
   */
  tableOf(g: BoardGeometry): TranspositionTable | undefined {
    const e = this.engine;
    return e && e.g.width === g.width && e.g.height === g.height ? e.table : undefined;
  }

  /** Entries in use / capacity of the transposition table. */
  tableUsage(): { used: number; capacity: number } {
    return { used: this.engine?.table.used ?? 0, capacity: this.engine?.table.size ?? 0 };
  }

  private engineFor(g: BoardGeometry): Engine {
    if (!this.engine || this.engine.g.width !== g.width || this.engine.g.height !== g.height) {
      this.pastDeferrals += this.engine?.deferrals ?? 0;
      this.engine = null; // release the old table first
      this.engine = new Engine(g, this.cfg, this.tableMemory?.(g));
    }
    return this.engine;
  }

  private prepare(state: BoardState, options: SolveOptions, t0: number): Engine {
    const e = this.engineFor(state.geometry);
    e.reverseRoot = this.reverseRoot;
    e.load(state);
    e.nodes = 0;
    e.nodeLimit = options.nodeBudget ?? Infinity;
    e.deadline = options.timeBudgetMs !== undefined ? t0 + options.timeBudgetMs : Infinity;
    e.shouldStop = options.shouldStop;
    e.leaf =
      options.leafEvaluator !== undefined
        ? options.leafEvaluator
        : this.cfg.leafEvaluator !== undefined
          ? this.cfg.leafEvaluator
          : loonyEndgameValue;
    e.onTick = undefined;
    return e;
  }

  /**
   * What the table holds for this position: proven bounds and the best move of the last search
   * that stored it (-1 when none), or null. Costs one probe.
   */
  tableEntry(state: BoardState): { lower: number; upper: number; best: number } | null {
    const e = this.engineFor(state.geometry);
    e.load(state);
    const tb = e.tableBounds();
    return tb ? { lower: tb[0] + 0, upper: tb[1] + 0, best: tb[2] } : null;
  }

  /**
   * One fail-soft window search of the position (alpha < beta, values for the player to move):
   * proves value <= upper or value >= lower (both when it falls inside). `searchWindow(s, t - 1, t)`
   * answers "is the value >= t?". The table is kept, so successive calls share results.
   */
  searchWindow(state: BoardState, alpha: number, beta: number, options: SolveOptions = {}): WindowResult {
    const t0 = Date.now();
    const e = this.prepare(state, options, t0);
    const R = e.remaining;
    let lower = -R,
      upper = R,
      status: 'done' | 'unknown' = 'done';
    // reports as it goes, as solve() does: a helper thread counts its nodes into the caller's
    // result this way (threads.ts), also when the caller finishes first
    reportBounds(e, options, t0, () => [lower, upper]);
    let move: WindowResult['move'];
    e.rootMove = -1;
    try {
      const v = e.search(alpha, beta, 0);
      if (v <= alpha) upper = ((v - R) & 1) !== 0 ? v - 1 : v;
      else if (v >= beta) lower = ((v - R) & 1) !== 0 ? v + 1 : v;
      else lower = upper = v;
      if (v > alpha && e.rootMove >= 0) {
        // a move's value has the parity of R as the position's does: round its bound the same way
        const l = e.rootMoveLower;
        move = { line: e.rootMove, lower: (((l - R) & 1) !== 0 ? l + 1 : l) + 0 };
      }
    } catch (err) {
      if (!(err instanceof Abort)) throw err;
      status = 'unknown';
      e.load(state);
    }
    e.onTick = undefined;
    // + 0: no -0
    return {
      status,
      lower: lower + 0,
      upper: upper + 0,
      nodes: e.nodes,
      ms: Date.now() - t0,
      ...(move ? { move } : {}),
    };
  }

  solve(state: BoardState, options: SolveOptions = {}): SolveResult {
    const t0 = Date.now();
    const e = this.prepare(state, options, t0);
    if (options.valueOnly === true) return this.solveValue(state, e, options, t0);
    const L = e.L;
    const R = e.remaining;
    const wantValues = options.moveValues === true;

    const rootMoves: number[] = [];
    for (let i = 0; i < L; i++) {
      const l = e.order[i];
      if (!state.drawn[l]) rootMoves.push(l);
    }
    if (this.reverseRoot) rootMoves.reverse();
    const tb = e.tableBounds();
    if (tb && tb[2] >= 0 && !this.reverseRoot) {
      const k = rootMoves.indexOf(tb[2]);
      if (k > 0) {
        rootMoves.splice(k, 1);
        rootMoves.unshift(tb[2]);
      }
    }
    // rule 4 at the root: a line equivalent to a smaller one has its value (followers take their representative's bounds)
    const follow = new Map<number, number>();
    if (this.cfg.rootEquivalence !== false && e.equivRule && e.threeCount === 0 && R > 0) {
      e.markEquivalent();
      for (const m of rootMoves) {
        let rep = m;
        while (e.eqOf[rep] >= 0) rep = e.eqOf[rep];
        if (rep !== m) follow.set(m, rep);
      }
    }
    // per-move proven bounds
    const mLo = new Map<number, number>(),
      mHi = new Map<number, number>();
    const capt = new Map<number, number>();
    for (const m of rootMoves) {
      const c = e.make(m);
      e.unmake(m, c);
      capt.set(m, c);
      mLo.set(m, c - (R - c));
      mHi.set(m, R);
    }
    let done = 0;
    const bounds = (): [number, number] => {
      let lo = R === 0 ? 0 : -INF,
        hi = R === 0 ? 0 : -INF;
      for (const m of rootMoves) {
        lo = Math.max(lo, mLo.get(m)!);
        hi = Math.max(hi, mHi.get(m)!);
      }
      if (tb) {
        lo = Math.max(lo, tb[0]);
        hi = Math.min(hi, tb[1]);
      }
      return [lo, hi];
    };
    const progress = () => {
      if (!options.onProgress) return;
      const [lower, upper] = bounds();
      options.onProgress({
        nodes: e.nodes,
        ms: Date.now() - t0,
        lower,
        upper,
        movesDone: done,
        movesTotal: rootMoves.length,
      });
    };
    e.onTick = options.onProgress ? progress : undefined;

    let bestVal = -INF;
    let aborted = false;
    const mtd = this.cfg.rootMtd !== false;
    /** Value of root move m is >= t? (null window); updates the move's proven bounds. */
    const probeMove = (m: number, alpha: number, beta: number): number => {
      const c = e.make(m);
      const v = c > 0 ? c + e.search(alpha - c, beta - c, 1) : 0 - e.search(0 - beta, 0 - alpha, 1);
      e.unmake(m, c);
      if (v > alpha && v < beta) {
        mLo.set(m, v);
        mHi.set(m, v);
      } else if (v <= alpha) mHi.set(m, Math.min(mHi.get(m)!, v));
      else mLo.set(m, Math.max(mLo.get(m)!, v));
      return v;
    };
    /** Narrow the move's bounds by null-window tests until exact (or, with `floor`, until known below it). */
    const exactMove = (m: number, guess: number, floor: number): void => {
      while (mLo.get(m)! < mHi.get(m)!) {
        const lo = mLo.get(m)!,
          hi = mHi.get(m)!;
        if (hi < floor) return;
        if (!mtd) {
          probeMove(m, lo - 1, hi + 1);
          continue;
        }
        let t = Math.max(lo + 1, Math.min(hi, guess));
        if (((t - R) & 1) !== 0) t++; // values have the parity of R
        if (t > hi) t = hi;
        const v = probeMove(m, t - 1, t);
        guess = v >= t ? v + 2 : v;
      }
    };
    try {
      const guess0 = tb ? Math.max(tb[0], Math.min(tb[1], 0)) : 0;
      for (const m of rootMoves) {
        if (follow.has(m)) {
          // valued with its representative at the end
          done++;
          progress();
          continue;
        }
        if (wantValues || bestVal === -INF) {
          exactMove(m, bestVal === -INF ? guess0 : bestVal, -INF);
        } else {
          // is this move as good as the best so far? one null-window test, exact only if better
          const v = probeMove(m, bestVal - 1, bestVal);
          if (v >= bestVal) exactMove(m, bestVal, -INF);
        }
        if (mLo.get(m) === mHi.get(m) && mLo.get(m)! > bestVal) bestVal = mLo.get(m)!;
        done++;
        progress?.();
      }
    } catch (err) {
      if (!(err instanceof Abort)) throw err;
      aborted = true;
      e.load(state); // the abort left lines drawn
    }
    e.onTick = undefined;
    for (const [m, rep] of follow) {
      mLo.set(m, mLo.get(rep)!);
      mHi.set(m, mHi.get(rep)!);
    }
    const [lower, upper] = bounds();
    const ms = Date.now() - t0;
    const result: SolveResult = {
      status: 'unknown',
      value: null,
      lower,
      upper,
      best: [],
      nodes: e.nodes,
      ms,
    };
    if (!aborted) {
      result.status = 'exact';
      result.value = R === 0 ? 0 : bestVal;
      result.lower = result.upper = result.value;
      result.best = rootMoves.filter((m) => mLo.get(m) === bestVal && mHi.get(m) === bestVal).sort((a, b) => a - b);
    }
    if (wantValues) {
      const mv: (number | null)[] = new Array(L).fill(null);
      const mb: ([number, number] | null)[] = new Array(L).fill(null);
      for (const m of rootMoves) {
        const lo = mLo.get(m)!,
          hi = mHi.get(m)!;
        mb[m] = [lo, hi];
        if (lo === hi) mv[m] = lo;
      }
      result.moveValues = mv;
      result.moveBounds = mb;
    }
    return result;
  }

  /** options.valueOnly: MTD(f) on the root position itself (null-window tests until the bounds meet). */
  private solveValue(state: BoardState, e: Engine, options: SolveOptions, t0: number): SolveResult {
    const R = e.remaining;
    let lo = -R,
      hi = R;
    const tb = e.tableBounds();
    if (tb) {
      lo = Math.max(lo, tb[0]);
      hi = Math.min(hi, tb[1]);
    }
    const progress = reportBounds(e, options, t0, () => [lo, hi]);
    let aborted = false;
    let guess = Math.max(lo, Math.min(hi, 0));
    try {
      while (lo < hi) {
        let t = Math.max(lo + 1, Math.min(hi, guess));
        if (((t - R) & 1) !== 0) t++; // values have the parity of R
        if (t > hi) t = hi;
        const v = e.search(t - 1, t, 0);
        // fail-soft bounds rounded to the parity of R
        if (v >= t) {
          const w = ((v - R) & 1) !== 0 ? v + 1 : v;
          lo = Math.max(lo, w);
          guess = w + 2;
        } else {
          const w = ((v - R) & 1) !== 0 ? v - 1 : v;
          hi = Math.min(hi, w);
          guess = w;
        }
        progress?.();
      }
    } catch (err) {
      if (!(err instanceof Abort)) throw err;
      aborted = true;
      e.load(state);
    }
    e.onTick = undefined;
    const exact = !aborted && lo === hi;
    return {
      status: exact ? 'exact' : 'unknown',
      value: exact ? lo + 0 : null,
      lower: lo + 0,
      upper: hi + 0,
      best: [], // + 0: no -0
      nodes: e.nodes,
      ms: Date.now() - t0,
    };
  }
}

/**
 * The moves the search would consider in this position (after rules 1-4; the TT move aside), for
 * tests: at least one of them must be optimal. Not used by the solver's root, which tries every line.
 */
export function candidateMoves(state: BoardState, config: SolverConfig = {}): number[] {
  const e = new Engine(state.geometry, { tableBits: 4, ...config });
  e.load(state);
  if (e.threeCount > 0) {
    const l = e.freeCapture();
    if (l >= 0) return [l];
  }
  const n = e.genMoves(0, -1);
  return Array.from(e.moves.subarray(0, n));
}

/** One-shot solve with a fresh table (use a Solver instance to share results between calls). */
export function solve(state: BoardState, options: SolveOptions = {}, config: SolverConfig = {}): SolveResult {
  return new Solver({ tableBits: 18, ...config }).solve(state, options);
}

/**
 * Has the engine report to options.onProgress as it searches (its tick), with the proven bounds
 * `bounds()` gives and no root moves: the window drivers' progress (solve() reports its root moves
 * too). Returns the reporter, to call after each finished window; undefined without onProgress.
 */
function reportBounds(
  e: Engine,
  options: SolveOptions,
  t0: number,
  bounds: () => [lower: number, upper: number],
): (() => void) | undefined {
  const { onProgress } = options;
  e.onTick = onProgress
    ? () => {
        const [lower, upper] = bounds();
        onProgress({ nodes: e.nodes, ms: Date.now() - t0, lower, upper, movesDone: 0, movesTotal: 0 });
      }
    : undefined;
  return e.onTick;
}
