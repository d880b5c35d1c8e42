/**
 * Who wins the chain fight, by a boolean search on the solver's bitboard: the Nimstring game of the
 * position (Dots-and-Boxes moves under the normal play rule, the score ignored: completing a box
 * obliges the same player to move again, and a player who must move and cannot loses), decided by
 * a negamax over win/loss with the solver's incremental position, move generation and
 * transposition table. No regions and no nim-values: one zero test of the whole board.
 *
 * WHAT IT IS FOR. Who wins the chain fight where the region engine (index.ts) gives up: in a
 * middle game the board is one region, and this search, without regions, nim-values or string
 * keys, goes further (record 3 of the bench, `plausibleGame(5, 5, mulberry32(3), 60)`: ply 19 in
 * 1.7 s against 5.1 s, ply 18 in 8 s and ply 17 in 15-23 s, which the region engine did not decide
 * in 20 s). The editor's search worker runs it after the region engine's zero test fails
 * (analysis/nim.ts, NimSummaryOptions.wholeBoard). It is
 * also an independent oracle for the region engines where the whole-board brute force (brute.ts,
 * at most 31 lines) cannot reach: the tests check the chain fight of 5x5 middle games against it.
 *
 * PROOFS. W(P) = the player to move in P wins. The solver's rules are stated for Dots-and-Boxes
 * values (moves.ts); each used here has a boolean twin, proved the same way:
 * - Rule 1 (free capture l, completing c >= 1 boxes): W(P) = W(P + l). Line for line the proof of
 *   moves.ts with "c + v" read as "the same player moves again": (i) a move m completing nothing:
 *   the opponent may answer l in P + m, so W(P + m) >= W(P + m + l), and m completes nothing in
 *   P + l, so W(P + l) >= not W(P + l + m) >= not W(P + m), which is what m gives; (ii) a capture m:
 *   by induction W(P + m) = W(P + m + l) <= W(P + l); (iii) the exchange of (l, X) and (m, Z) is an
 *   isomorphism.
 * - Rule 2 (opened chain, moves.ts cases a and b; rule 1 does not apply): the player to move wins.
 *   Let Q be the position after the whole opened chain is taken (the taker to move). Taking it all
 *   gives the mover Q to move. Declining gives the opponent Q to move: (b) take all but the last two
 *   boxes X, Y and draw Y's far side (it completes nothing: beyond it is the edge or a 0/1-box), or
 *   (a) draw n at once; either way X and Y are 3-boxes across one line, which rule 1 makes the
 *   opponent's best move is to take, and taking both leaves Q with the opponent to move. One of
 *   W(Q), not W(Q) is true, so the mover wins. (For (b) with a chain opened at both ends, k + 1 >= 5
 *   boxes: the same with the chain's other end taken first.) Other 3-boxes on the board change
 *   nothing: they are part of Q.
 * - Rule 3 (with a 3-box X missing l, Y across): a move m completing nothing and no side of Y is no
 *   better than l: in P + m the opponent may take with l and move again, W(P + m) >= W(Q) with
 *   Q = P + l + m; in P + l the mover may play m, W(P + l) >= not W(Q) >= not W(P + m).
 * - Rule 5 (hard-hearted handout): W(P + e1) >= W(Q) (the opponent takes X then Y) and, by rule 1
 *   twice, W(P + m) = W(Q): e1 gives the mover no more than m.
 * - Rule 6 (openings of long chains and loops): the opponent can take all and move in Q, or decline
 *   and leave the mover Q to move (moves.ts's proof, booleans instead of margins): such a move
 *   always loses (it is loony). genMoves is given alpha = +inf, so it leaves every one of them out.
 * - Rule 4 (equivalent moves): automorphisms of the strings-and-coins graph, or consequences of
 *   rules 1 and 3, all of which hold here; 4f (chains.ts) only skips openings of long chains, which
 *   rule 6 leaves out here anyway.
 * So a position whose every move is left out loses (each is a loony opening), as does one with no
 * undrawn line. The table stores each decided position as the bounds [1, 1] (win) or [-1, -1]
 * (loss) under its canonical key (symmetric positions have the same outcome).
 * test/unit/nimstring-bitSearch.test.ts checks the outcome against the whole-board brute force and
 * the region engine on thousands of positions.
 */
import type { BoardGeometry } from '../board/geometry';
import type { BoardState } from '../board/state';
import { MoveGenerator, OPEN_BOUND_NONE } from '../solver/moves';
import { TranspositionTable, tableBitsFor } from '../solver/table';
import type { SolverConfig } from '../solver/types';

/**
 * genMoves' alpha: above every rule 6 bound (2 - k <= -1 for chains, 4 - k <= 0 for loops), so every
 * long opening is left out, and below its "no bound", so nothing else is.
 */
const NO_LOONY = OPEN_BOUND_NONE - 1;

class Stop extends Error {}
const STOP = new Stop('nimstring search stopped');

export interface NimBitLimits {
  /** Nodes (positions with a choice) at most. */
  nodeBudget?: number;
  /** Stop after about this many milliseconds. */
  timeBudgetMs?: number;
  /** Stop when this says so (an edit cancelled the work). */
  shouldStop?: () => boolean;
  /**
   * The boxes solver's table of the same board size (Solver.tableOf): at each position its best
   * move, when it holds one, is tried first. Order only: the outcome never depends on it.
   */
  hints?: TranspositionTable;
}

/** Nodes between two looks at the clock and at shouldStop. */
const CHECK_EVERY = 4096;

/**
 * One search per board size, kept between calls (its table's outcomes do not depend on the root, so
 * a record read from its end backwards fills it for the earlier positions); only the last board
 * size's is kept, to bound the memory (SHARED_TABLE_MB).
 */
let shared: { w: number; h: number; search: NimBitSearch } | null = null;
const SHARED_TABLE_MB = 32;

export function sharedBitSearch(g: BoardGeometry): NimBitSearch {
  if (!shared || shared.w !== g.width || shared.h !== g.height)
    shared = { w: g.width, h: g.height, search: new NimBitSearch(g, SHARED_TABLE_MB) };
  return shared.search;
}

export class NimBitSearch extends MoveGenerator {
  private readonly table: TranspositionTable;
  nodes = 0;
  private nodeLimit = Infinity;
  private deadline = Infinity;
  private shouldStop: (() => boolean) | undefined;
  private nextCheck = CHECK_EVERY;
  private hints: TranspositionTable | undefined;

  constructor(g: BoardGeometry, tableMb = 32, cfg: SolverConfig = {}) {
    super(g, cfg);
    this.table = new TranspositionTable(this.nw, tableBitsFor(tableMb * 1024 * 1024, this.nw), 4, true);
  }

  /**
   * Whether the player to move wins the Nimstring game of `state`, or 'unknown' when the node
   * budget stopped the search first (a stop leaves the position half made: load() starts afresh). The
   * table is kept between calls (outcomes do not depend on the root).
   */
  moverWins(state: BoardState, limits: NimBitLimits = {}): boolean | 'unknown' {
    this.load(state);
    this.nodes = 0;
    this.nodeLimit = limits.nodeBudget ?? Infinity;
    this.deadline = limits.timeBudgetMs === undefined ? Infinity : Date.now() + limits.timeBudgetMs;
    this.shouldStop = limits.shouldStop;
    this.nextCheck = CHECK_EVERY;
    // a table of another board size (its keys have another length) cannot be read
    this.hints = limits.hints?.nw === this.nw ? limits.hints : undefined;
    try {
      return this.wins(0);
    } catch (e) {
      if (e === STOP) return 'unknown';
      throw e;
    }
  }

  private wins(ply: number): boolean {
    if (this.threeCount > 0) {
      const l = this.freeCapture();
      if (l >= 0) {
        // rule 1: the same player takes and moves again
        const c = this.make(l);
        const w = this.wins(ply + 1);
        this.unmake(l, c);
        return w;
      }
      // rule 2 (a or b): a loony position, won by the player to move
      if (this.chainRule && this.openedChain(this.pair, 0) > 0) return true;
    }
    if (this.undrawn === 0) return false;
    if (++this.nodes > this.nodeLimit) throw STOP;
    if (this.nodes >= this.nextCheck) {
      this.nextCheck = this.nodes + CHECK_EVERY;
      if (Date.now() > this.deadline || this.shouldStop?.()) throw STOP;
    }
    const h = this.canon(),
      sym = this.canonSym,
      off = sym * this.nw;
    if (this.table.probe(this.bits, off, h) >= 0) return this.table.lo > 0;
    const n0 = this.nodes;
    const n = this.genMoves(ply, -1, true, 0, 0, 0, NO_LOONY);
    const base = ply * this.L;
    if (this.hints && n > 1 && this.hints.probe(this.bits, off, h) >= 0 && this.hints.mv >= 0) {
      // the boxes solver's best move first (the position is canonical as for its own table)
      const m = this.fromCanonical(this.hints.mv);
      for (let i = 1; i < n; i++)
        if (this.moves[base + i] === m) {
          this.moves.copyWithin(base + 1, base, base + i);
          this.moves[base] = m;
          break;
        }
    }
    let won = false;
    for (let i = 0; i < n && !won; i++) {
      const m = this.moves[base + i];
      const c = this.make(m);
      won = c > 0 ? this.wins(ply + 1) : !this.wins(ply + 1);
      this.unmake(m, c);
    }
    // the position is unchanged again, and so is its canonical image
    this.canonSym = sym;
    const v = won ? 1 : -1;
    this.table.store(this.bits, off, h, -1, v, v, -1, 32 - Math.clz32(this.nodes - n0 + 1));
    return won;
  }
}
