/**
 * Exact Dots-and-Boxes solver: negamax alpha-beta on the margin of the remaining boxes, with
 *  - a bounded transposition table (exact keys: the canonical drawn-line bit set, so no hash
 *    collision can ever produce a wrong value) storing lower and upper bounds and a best move;
 *  - symmetry: positions are stored under the least of their 4 (rectangle) or 8 (square) images,
 *    all maintained incrementally;
 *  - move ordering: TT move, then lines that give nothing away (centre-out), then sacrifices;
 *  - four move-restriction rules, each of which keeps at least one optimal move (see PROOFS below
 *    and test/unit/solver*.test.ts, which cross-check every rule against bruteForce);
 *  - exact leaf evaluation where every unclaimed box has 2 or 3 sides drawn: the built-in
 *    chains-and-loops recursion (simple.ts) and a pluggable evaluator (default: the endgame
 *    module's loonyEndgameValue).
 *
 * Internal state is allocation-free on the hot path: Uint32Array bit sets, per-box side counts,
 * preallocated per-ply move buffers.
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
 * Rule 2 (opened chain). Every 3-box has a 2-box across its missing side (else rule 1 applies).
 *   Take a 3-box X, missing l, and follow the chain of 2-boxes from it: X, Y (2-box, other
 *   missing side n), ... until the first box that is not a 2-box (or the edge).
 *   (a) The chain ends at the edge or a 0/1-box and has 2 boxes X, Y, and X is the only 3-box on
 *       the board: only l (take X) and n (the double-dealing move) need searching. (With other
 *       3-boxes about, the decline must come after the other captures: no restriction.)
 *   (b) The chain ends at the edge or a 0/1-box and has >= 3 boxes, or ends at a 3-box with >= 5
 *       boxes in all (opened at both ends): only l needs searching.
 *   (c) Otherwise (a chain of 3 or 4 boxes opened at both ends) this X gives no restriction.
 *   This is Berlekamp's "take all but the last two of a chain (last four of a chain opened at both
 *   ends), then take them or decline them". It is not proved here in full generality; it is
 *   cross-checked against bruteForce on thousands of positions (see the tests), and can be turned
 *   off with the `chainRule: false` option.
 *
 * Rule 3 (captures and the double-dealing line; `captureRule`). With a 3-box X (missing l, box or
 *   edge Y across l), any move m that completes nothing and is not a side of Y is strictly worse
 *   than l. Proof: m is no side of X or Y, so l completes the same c >= 1 boxes in P + m as in P,
 *   and m completes nothing in P + l. With Q = P + l + m:
 *   val(m) = -v(P+m) <= -(c + v(Q)) < c - v(Q) <= c + v(P+l) = val(l).
 *   So only lines completing a box and a non-capturing line that is the other undrawn side of
 *   every such Y need searching (when rules 1 and 2 leave the choice open).
 *
 * Rule 4 (equivalent moves; `equivalentMoves`), with no 3-box on the board: see markEquivalent.
 *   (a) and (d) are automorphisms of the strings-and-coins graph; (b) follows from rule 1, (c) from
 *   rules 1 and 3. Each class keeps its least line, so classes merged by several relations still
 *   keep one line. test/unit/solver.rules.test.ts checks on thousands of chain-rich positions that
 *   every skipped line has the brute-force value of a kept one, and the kept set holds an optimal line.
 *
 * Also: rule-1 captures are made without a table probe; fail-soft bounds are rounded to the parity
 *   of the remaining boxes (the value has that parity); optional enhanced transposition cutoffs.
 *
 * Table: entries interleaved in one Int32Array (key words, lo|hi, best|priority) so that a probe
 *   touches one cache line; buckets of 4 (`bucket`); a full bucket evicts the entry with the least
 *   search effort behind it (log2 of its subtree's nodes; `replacement: 'depth'` = fewest undrawn
 *   lines). The table move is searched before the other moves are generated (`lazyMoves`): any
 *   legal move may be searched without changing the value, the rules only decide what may be left out.
 *
 * Root: solve() gives every optimal move (and with moveValues every move's value); with
 *   `valueOnly` the root is searched like an inner node by null-window tests (MTD), the cheapest
 *   proof of the value; searchWindow() runs one window search. parallel.ts (solveParallel) splits
 *   the root moves of a value proof between worker threads (the 4x4 benchmark: `npm run bench:4x4`).
 */
import { BoardGeometry } from '../board/geometry';
import { BoardState, CLAIMED_UNKNOWN, UNCLAIMED } from '../board/state';
import { lineSymmetries } from './symmetry';
import { simpleEndgameValue } from './simple';
import { loonyEndgameValue } from '../endgame';

export type LeafEvaluator = (state: BoardState) => number | undefined;

export interface SolveProgress {
  nodes: number;
  ms: number;
  /** Proven bounds on the value so far. */
  lower: number;
  upper: number;
  /** Root moves finished / total. */
  movesDone: number;
  movesTotal: number;
}

export interface SolveOptions {
  /** Give up (status 'unknown') after about this many nodes. */
  nodeBudget?: number;
  /** Give up after about this many milliseconds. */
  timeBudgetMs?: number;
  /** Also compute the exact value of every legal move (slower: full window for every move). */
  moveValues?: boolean;
  /** Polled every 4096 nodes; returning true cancels the search (status 'unknown'). */
  shouldStop?: () => boolean;
  /** Called after each root move and every ~65536 nodes. */
  onProgress?: (info: SolveProgress) => void;
  /**
   * Exact evaluator consulted when every unclaimed box has 2 or 3 sides drawn (after the built-in
   * chains-and-loops evaluator, which takes the all-2-sides case); returns undefined to decline.
   * null = none. Default: the Solver's (which defaults to the endgame module's loonyEndgameValue).
   */
  leafEvaluator?: LeafEvaluator | null;
  /**
   * Only the value: the root is searched like any inner node (rules 1-4 apply, symmetric moves are
   * found in the table) by null-window tests around the table's guess. `best` is then [] and
   * moveValues is ignored. Cheapest way to prove a value (default false).
   */
  valueOnly?: boolean;
}

/** Result of Solver.searchWindow: proven bounds from one window search. */
export interface WindowResult {
  /** 'done', or 'unknown' when a budget or stop request cut the search (bounds are then the trivial ones or the table's). */
  status: 'done' | 'unknown';
  /** Proven bounds on the value (lower === upper when the value fell inside the window). */
  lower: number;
  upper: number;
  nodes: number;
  ms: number;
}

export interface SolveResult {
  status: 'exact' | 'unknown';
  /** Value for the player to move (net boxes of the remaining boxes), null when unknown. */
  value: number | null;
  /** Proven bounds on the value (equal to value when exact). */
  lower: number;
  upper: number;
  /** All optimal moves (line indices, ascending); [] when unknown. */
  best: number[];
  /**
   * With options.moveValues: moveValues[line] = exact value of drawing `line` now, for the player
   * to move (boxes it completes included); null for drawn lines and for moves left unknown.
   */
  moveValues?: (number | null)[];
  /** With options.moveValues: proven [lower, upper] per legal line (null for drawn lines). */
  moveBounds?: ([number, number] | null)[];
  nodes: number;
  ms: number;
}

export interface SolverConfig {
  /** log2 of the transposition-table entries (default: 20 for boards up to ~7x7, less above, ~24 MB max). */
  tableBits?: number;
  /** Store positions under their least symmetric image (default true). */
  symmetry?: boolean;
  /** Root moves by null-window (MTD) tests instead of one wide window (default true). */
  rootMtd?: boolean;
  /** Apply rule 2 (opened chains) (default true). Rule 1 is always applied. */
  chainRule?: boolean;
  /** Enhanced transposition cutoffs (look up every child before searching any; fewer nodes, but slower here) (default false). */
  etc?: boolean;
  /** Apply rule 4 (equivalent moves: edge lines of a box, 1- and 2-chains, edge-to-edge chains, loops) (default true). */
  equivalentMoves?: boolean;
  /**
   * Table replacement in a full bucket: evict the entry with the smaller search effort behind it
   * ('work': log2 of the subtree's nodes, default) or with fewer undrawn lines ('depth').
   */
  replacement?: 'work' | 'depth';
  /** Search the table move before generating the other moves (saves move generation at most cut nodes) (default true). */
  lazyMoves?: boolean;
  /** Positions with fewer undrawn lines than this skip the table (re-searching is cheaper than a probe) (default 0). */
  tableMinUndrawn?: number;
  /** Table entries per bucket: 1, 2, 4 or 8 (default 4: one 64-byte cache line when keys take 2 words, i.e. up to 64 lines). */
  bucket?: 1 | 2 | 4 | 8;
  /** Killer move per ply: the last safe line that refuted a sibling is tried right after the table move (default false: more nodes on 4x4). */
  killers?: boolean;
  /** Apply rule 3 (with a capturable box: only captures and the double-dealing line) (default true). */
  captureRule?: boolean;
  /**
   * Evaluate positions made only of isolated chains and loops (every unclaimed box has exactly 2
   * sides drawn) exactly by the built-in component recursion (default true).
   */
  simpleEndgames?: boolean;
  /** Default leaf evaluator for solve() calls that do not pass one (default: endgame's loonyEndgameValue; null = none). */
  leafEvaluator?: LeafEvaluator | null;
}

class Abort extends Error {}
const ABORT = new Abort('search aborted');

const INF = 10000;
const SHORT = 1;
const ETC_MIN = 16;

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

/** Per-geometry search machinery and its transposition table. */
class Engine {
  readonly g: BoardGeometry;
  readonly L: number;
  readonly B: number;
  readonly nw: number;
  readonly S: number;
  readonly perm: Int16Array; // S * L
  readonly invPerm: Int16Array;
  readonly zob: Int32Array;
  readonly order: Int16Array;
  readonly boxLines: Int16Array;
  readonly lineBoxes: Int16Array;

  // position
  readonly bits: Uint32Array; // S * nw, bits[s*nw..] = image of the drawn set under symmetry s
  readonly hash: Int32Array; // S
  readonly sides: Uint8Array;
  remaining = 0;
  undrawn = 0;
  lowCount = 0; // boxes with < 2 sides
  threeCount = 0; // boxes with exactly 3 sides

  // move buffers
  readonly moves: Int16Array;

  // transposition table
  readonly tBits: number;
  readonly tSize: number;
  /**
   * Entries of ew = nw + 2 words, interleaved so that a probe touches one cache line: the key
   * (nw words), lo | hi << 16, best | depth << 16 (depth 0 = empty, else undrawn lines + 1).
   */
  readonly tab: Int32Array;
  readonly ew: number;
  tUsed = 0;

  // search control
  nodes = 0;
  nodeLimit = Infinity;
  deadline = Infinity;
  shouldStop: (() => boolean) | undefined;
  onTick: (() => void) | undefined;
  leaf: LeafEvaluator | null = null;
  chainRule = true;
  captureRule = true;
  simple = true;
  readonly visited: Uint8Array;
  readonly skip: Uint8Array;
  readonly clen: Uint8Array;
  readonly clsOf: Int8Array;
  readonly killer: Int16Array;
  workPriority = true;
  lazy = true;
  tableMin = 0;
  readonly bucket: number;
  killers = true;
  readonly eqLines: Int16Array;
  readonly eqBoxes: Int16Array;
  equivRule = true;
  etc = true;
  readonly chainBuf: number[] = [];
  readonly loopBuf: number[] = [];
  scratch: BoardState;
  canonSym = 0;

  constructor(g: BoardGeometry, cfg: SolverConfig) {
    this.g = g;
    this.L = g.lineCount;
    this.B = g.boxCount;
    this.nw = (this.L + 31) >>> 5;
    const syms = cfg.symmetry === false ? [lineSymmetries(g)[0]] : lineSymmetries(g);
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
    // centre-out static order: distance of the line's midpoint from the board centre
    const cx = g.width / 2,
      cy = g.height / 2;
    const dist = (l: number) => {
      const [a, b] = g.lineDots(l);
      const mx = (a.x + b.x) / 2 - cx,
        my = (a.y + b.y) / 2 - cy;
      return mx * mx + my * my;
    };
    this.order = Int16Array.from(g.allLines().sort((a, b) => dist(a) - dist(b) || a - b));
    this.bits = new Uint32Array(this.S * this.nw);
    this.hash = new Int32Array(this.S);
    this.sides = new Uint8Array(this.B);
    this.moves = new Int16Array((this.L + 2) * this.L);
    const entryBytes = 4 * this.nw + 8;
    const defBits = Math.max(12, Math.min(20, Math.floor(Math.log2((24 * 1024 * 1024) / entryBytes))));
    this.tBits = Math.max(4, Math.min(26, cfg.tableBits ?? defBits));
    this.tSize = 1 << this.tBits;
    this.ew = this.nw + 2;
    this.tab = new Int32Array(this.tSize * this.ew);
    this.chainRule = cfg.chainRule !== false;
    this.captureRule = cfg.captureRule !== false;
    this.simple = cfg.simpleEndgames !== false;
    this.visited = new Uint8Array(this.B);
    this.skip = new Uint8Array(this.L);
    this.clen = new Uint8Array(this.B);
    this.clsOf = new Int8Array(this.L);
    this.killer = new Int16Array(this.L + 2).fill(-1);
    this.killers = cfg.killers === true;
    this.workPriority = cfg.replacement !== 'depth';
    this.lazy = cfg.lazyMoves !== false;
    this.tableMin = cfg.tableMinUndrawn ?? 0;
    this.bucket = Math.min(cfg.bucket ?? 4, this.tSize);
    this.eqLines = new Int16Array(this.L + 1);
    this.eqBoxes = new Int16Array(this.B + 1);
    this.equivRule = cfg.equivalentMoves !== false;
    this.etc = cfg.etc === true;
    this.scratch = new BoardState(g);
  }

  clearTable(): void {
    this.tab.fill(0);
    this.tUsed = 0;
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

  /** Index of the least symmetric image (sets canonSym) and its hash. */
  private canon(): number {
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

  /** Slot holding the current (canonical) position, or -1. Bucket of 2 slots. */
  private probe(h: number): number {
    const nw = this.nw,
      base = this.canonSym * nw;
    const bk = this.bucket;
    let i = h & (this.tSize - bk);
    for (let k = 0; k < bk; k++, i++) {
      const e0 = i * this.ew,
        tab = this.tab;
      if (tab[e0 + nw + 1] >>> 16 === 0) continue;
      let same = true;
      for (let w = 0; w < nw; w++)
        if (tab[e0 + w] !== (this.bits[base + w] | 0)) {
          same = false;
          break;
        }
      if (same) return i;
    }
    return -1;
  }

  private store(h: number, slot: number, lo: number, hi: number, best: number, depth: number): void {
    const nw = this.nw;
    let i = slot;
    if (i < 0) {
      // the empty or least valuable entry of the bucket
      const j = h & (this.tSize - this.bucket);
      i = j;
      let dmin = this.tDepthOf(j);
      for (let k = 1; k < this.bucket && dmin !== 0; k++) {
        const d = this.tDepthOf(j + k);
        if (d < dmin) {
          dmin = d;
          i = j + k;
        }
      }
      if (this.tDepthOf(i) === 0) this.tUsed++;
      const base = this.canonSym * nw;
      for (let w = 0; w < nw; w++) this.tab[i * this.ew + w] = this.bits[base + w];
    }
    const e0 = i * this.ew + nw;
    const b = best >= 0 ? this.perm[this.canonSym * this.L + best] : -1;
    this.tab[e0] = (lo & 0xffff) | (hi << 16);
    if (slot >= 0 && this.workPriority) {
      const d0 = this.tDepthOf(i) - 1;
      if (d0 > depth) depth = d0;
    }
    this.tab[e0 + 1] = (b & 0xffff) | ((depth + 1) << 16);
  }

  tLoOf(slot: number): number {
    return (this.tab[slot * this.ew + this.nw] << 16) >> 16;
  }
  tHiOf(slot: number): number {
    return this.tab[slot * this.ew + this.nw] >> 16;
  }
  tBestOf(slot: number): number {
    return (this.tab[slot * this.ew + this.nw + 1] << 16) >> 16;
  }
  tDepthOf(slot: number): number {
    return this.tab[slot * this.ew + this.nw + 1] >>> 16;
  }

  /** Exact bounds known for the current position from the table, or null. */
  tableBounds(): [number, number, number] | null {
    const h = this.canon();
    const slot = this.probe(h);
    if (slot < 0) return null;
    const tb = this.tBestOf(slot);
    return [this.tLoOf(slot), this.tHiOf(slot), tb >= 0 ? this.invPerm[this.canonSym * this.L + tb] : -1];
  }

  private missingSide(b: number, except: number): number {
    const bl = this.boxLines;
    for (let k = 0; k < 4; k++) {
      const l = bl[4 * b + k];
      if (l !== except && !this.isDrawn(l)) return l;
    }
    return -1;
  }

  private across(l: number, b: number): number {
    const lb = this.lineBoxes;
    return lb[2 * l] === b ? lb[2 * l + 1] : lb[2 * l];
  }

  /** The missing side of a 3-box that rule 1 says to take now, or -1. */
  freeCapture(): number {
    const sides = this.sides;
    for (let b = 0; b < this.B; b++) {
      if (sides[b] !== 3) continue;
      const l = this.missingSide(b, -1);
      const y = this.across(l, b);
      if (y < 0 || sides[y] !== 2) return l;
    }
    return -1;
  }

  /**
   * Fill the move buffer for this ply; returns the number of moves.
   * Applies rules 1 and 2 when `restrict` (never at the root).
   */
  genMoves(ply: number, ttMove: number): number {
    const L = this.L,
      buf = this.moves,
      base = ply * L,
      sides = this.sides;
    if (this.threeCount > 0) {
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
        // Rule 2
        for (let b = 0; b < this.B; b++) {
          if (sides[b] !== 3) continue;
          const l = this.missingSide(b, -1);
          const y = this.across(l, b); // a 2-box (rule 1 did not apply)
          const n = this.missingSide(y, l);
          let k = 2,
            cur = y,
            via = n;
          let next = this.across(via, cur);
          while (next >= 0 && sides[next] === 2) {
            k++;
            const out = this.missingSide(next, via);
            cur = next;
            via = out;
            next = this.across(via, cur);
          }
          if (next < 0 || sides[next] < 2) {
            if (k === 2) {
              if (this.threeCount === 1) {
                buf[base] = l;
                buf[base + 1] = n;
                return 2;
              }
              continue;
            }
            buf[base] = l;
            return 1;
          }
          // ends at a 3-box: chain opened at both ends, k + 1 boxes
          if (k + 1 >= 5) {
            buf[base] = l;
            return 1;
          }
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
    const skip = this.skip;
    const useSkip = this.equivRule && this.threeCount === 0;
    if (useSkip) {
      this.markEquivalent();
      if (ttMove >= 0 && skip[ttMove]) ttMove = -1;
    }
    if (ttMove >= 0 && !this.isDrawn(ttMove)) buf[base + cnt++] = ttMove;
    const order = this.order,
      lb = this.lineBoxes;
    // captures first, then lines giving nothing away, then sacrifices
    const clen = this.clen,
      clsOf = this.clsOf,
      bits = this.bits;
    const killer = this.killers ? this.killer[ply] : -1;
    let n0 = 0,
      n1 = 0,
      n2 = 0;
    for (let i = 0; i < L; i++) {
      const l = order[i];
      if (l === ttMove || (bits[l >>> 5] & (1 << (l & 31))) !== 0 || (useSkip && skip[l])) {
        clsOf[i] = -1;
        continue;
      }
      const b0 = lb[2 * l],
        b1 = lb[2 * l + 1];
      const s0 = b0 >= 0 ? sides[b0] : 0,
        s1 = b1 >= 0 ? sides[b1] : 0;
      let cls = s0 === 3 || s1 === 3 ? 0 : s0 === 2 || s1 === 2 ? 2 : 1;
      // sacrifices of short chains before the opening of long chains and loops
      if (cls === 2 && (!useSkip || (s0 === 2 ? clen[b0] : 0) + (s1 === 2 ? clen[b1] : 0) > SHORT)) cls = 3;
      if (cls === 1 && l === killer) cls = 0; // the killer: right after the table move
      clsOf[i] = cls;
      if (cls === 0) n0++;
      else if (cls === 1) n1++;
      else if (cls === 2) n2++;
    }
    // captures first, then lines giving nothing away, then short sacrifices, then the rest (static order within each)
    let o0 = base + cnt,
      o1 = o0 + n0,
      o2 = o1 + n1,
      o3 = o2 + n2;
    for (let i = 0; i < L; i++) {
      const c = clsOf[i];
      if (c < 0) continue;
      const l = order[i];
      if (c === 0) buf[o0++] = l;
      else if (c === 1) buf[o1++] = l;
      else if (c === 2) buf[o2++] = l;
      else buf[o3++] = l;
    }
    return o3 - base;
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
   *      an isolated loop of 2-boxes: all its lines (rotation).
   */
  private markEquivalent(): void {
    const skip = this.skip,
      sides = this.sides,
      bl = this.boxLines,
      vis = this.visited,
      lb = this.lineBoxes;
    skip.fill(0);
    vis.fill(0);
    const lines = this.eqLines,
      boxes = this.eqBoxes;
    for (let b = 0; b < this.B; b++) {
      if (sides[b] >= 4) continue;
      // (a) edge lines of the box
      let g0 = -1;
      for (let k = 0; k < 4; k++) {
        const l = bl[4 * b + k];
        if (this.isDrawn(l) || (lb[2 * l] >= 0 && lb[2 * l + 1] >= 0)) continue;
        if (g0 < 0 || l < g0) {
          if (g0 >= 0) skip[g0] = 1;
          g0 = l;
        } else skip[l] = 1;
      }
      if (sides[b] !== 2 || vis[b]) continue;
      // trace the maximal chain or loop through b: boxes[0..k-1], lines[0..k] (chain) / [0..k-1] (loop)
      vis[b] = 1;
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
          vis[c] = 1;
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
      if (loop) {
        // lines[0..n-1] are the loop's lines (n === k): keep the least
        let mn = lines[0];
        for (let i = 1; i < n; i++) if (lines[i] < mn) mn = lines[i];
        for (let i = 0; i < n; i++) if (lines[i] !== mn) skip[lines[i]] = 1;
        continue;
      }
      // chain: boxes[0..k-1], lines[0..k]
      const first = lines[0],
        last = lines[k];
      const endA = this.across(first, boxes[0]),
        endB = this.across(last, boxes[k - 1]);
      if (k === 1 || k === 2) {
        if (first < last) skip[last] = 1;
        else skip[first] = 1;
      }
      if (endA < 0 && endB < 0) {
        for (let i = 0; i + i < k; i++) {
          const a = lines[i],
            z = lines[k - i];
          if (a < z) skip[z] = 1;
          else if (z < a) skip[a] = 1;
        }
      }
    }
  }

  private tick(): void {
    if (this.nodes >= this.nodeLimit) throw ABORT;
    if (this.deadline !== Infinity && Date.now() > this.deadline) throw ABORT;
    if (this.shouldStop && this.shouldStop()) throw ABORT;
    if (this.onTick && (this.nodes & 0xffff) === 0) this.onTick();
  }

  private leafValue(): number | undefined {
    const st = this.scratch,
      g = this.g;
    for (let l = 0; l < this.L; l++) st.drawn[l] = this.isDrawn(l) ? 1 : 0;
    st.drawnCount = 0;
    for (let l = 0; l < this.L; l++) st.drawnCount += st.drawn[l];
    for (let b = 0; b < g.boxCount; b++) st.owner[b] = this.sides[b] === 4 ? CLAIMED_UNKNOWN : UNCLAIMED;
    st.score[0] = 0;
    st.score[1] = 0;
    st.toMove = 0;
    return this.leaf!(st);
  }

  /** Walk from box b through undrawn side `via`; returns boxes met before the edge, or -1 if back at `start`. */
  private walk(start: number, b: number, via: number): number {
    let n = 0,
      cur = b,
      line = via;
    for (;;) {
      const next = this.across(line, cur);
      if (next < 0) return n;
      if (next === start) return -1;
      this.visited[next] = 1;
      n++;
      line = this.missingSide(next, line);
      cur = next;
    }
  }

  /** Every unclaimed box has exactly 2 sides: split into chains and loops and evaluate. */
  private simpleValue(): number | undefined {
    const chains = this.chainBuf,
      loops = this.loopBuf;
    chains.length = 0;
    loops.length = 0;
    this.visited.fill(0);
    for (let b = 0; b < this.B; b++) {
      if (this.sides[b] !== 2 || this.visited[b]) continue;
      this.visited[b] = 1;
      const s1 = this.missingSide(b, -1),
        s2 = this.missingSide(b, s1);
      const a = this.walk(b, b, s1);
      if (a < 0) {
        loops.push(this.countLoop(b, s1));
        continue;
      }
      const c = this.walk(b, b, s2);
      chains.push(1 + a + c);
    }
    return simpleEndgameValue(chains, loops);
  }

  private countLoop(b: number, s1: number): number {
    let n = 1,
      cur = b,
      line = s1;
    for (;;) {
      const next = this.across(line, cur);
      if (next === b) return n;
      n++;
      line = this.missingSide(next, line);
      cur = next;
    }
  }

  /** Negamax, fail-soft. Value for the player to move of the remaining boxes. */
  search(alpha: number, beta: number, ply: number): number {
    if ((++this.nodes & 4095) === 0) this.tick();
    const n0 = this.nodes;
    const R = this.remaining;
    if (R === 0) return 0;
    if (R <= alpha) return R;
    if (-R >= beta) return -R;
    if (this.threeCount > 0) {
      // rule 1 needs no table: take the box and go on
      const l = this.freeCapture();
      if (l >= 0) {
        const c = this.make(l);
        const v = c + this.search(alpha - c, beta - c, ply + 1);
        this.unmake(l, c);
        return v;
      }
    }
    const useTable = this.undrawn >= this.tableMin;
    const h = useTable ? this.canon() : 0;
    const slot = useTable ? this.probe(h) : -1;
    let lo = -R,
      hi = R,
      ttMove = -1;
    if (slot >= 0) {
      const tl = this.tLoOf(slot),
        th = this.tHiOf(slot);
      if (tl > lo) lo = tl;
      if (th < hi) hi = th;
      if (lo >= beta) return lo;
      if (hi <= alpha) return hi;
      if (lo === hi) return lo;
      const tb = this.tBestOf(slot);
      if (tb >= 0) ttMove = this.invPerm[this.canonSym * this.L + tb];
    }
    const undrawn = this.undrawn,
      sym = this.canonSym;
    if (this.lowCount === 0 && (this.simple || this.leaf !== null)) {
      const v =
        this.simple && this.threeCount === 0 ? this.simpleValue() : this.leaf !== null ? this.leafValue() : undefined;
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
      first = -1;
    if (this.lazy && !this.etc && ttMove >= 0 && !this.isDrawn(ttMove)) {
      // the table move before generating the others: most cut nodes stop here
      first = ttMove;
      const c = this.make(first);
      const v = c > 0 ? c + this.search(alpha - c, beta - c, ply + 1) : 0 - this.search(0 - beta, 0 - alpha, ply + 1);
      this.unmake(first, c);
      best = v;
      bestMove = first;
      if (v > alpha) alpha = v;
    }
    if (alpha < beta) {
      const n = this.genMoves(ply, ttMove);
      const base = ply * this.L;
      if (this.etc && n > 1 && undrawn >= ETC_MIN) {
        // enhanced transposition cutoff: a child already known to refute the window
        for (let i = 0; i < n; i++) {
          const m = this.moves[base + i];
          const c = this.make(m);
          const cs = this.probe(this.canon());
          let v = -INF;
          if (cs >= 0) v = c > 0 ? c + this.tLoOf(cs) : -this.tHiOf(cs);
          this.unmake(m, c);
          if (v >= beta) {
            this.canonSym = sym;
            if (useTable && v > lo) this.store(h, this.probe(h), v, hi, m, this.workPriority ? 1 : undrawn);
            return v;
          }
        }
      }
      for (let i = 0; i < n; i++) {
        const m = this.moves[base + i];
        if (m === first) continue;
        const c = this.make(m);
        const v = c > 0 ? c + this.search(alpha - c, beta - c, ply + 1) : 0 - this.search(0 - beta, 0 - alpha, ply + 1);
        this.unmake(m, c);
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
    if (useTable)
      this.store(
        h,
        this.probe(h),
        lo,
        hi,
        bestMove,
        this.workPriority ? 32 - Math.clz32(this.nodes - n0 + 1) : undrawn,
      );
    return best;
  }
}

/**
 * A solver with a persistent, bounded transposition table: successive positions of one game
 * share results. Not re-entrant (one solve at a time per instance).
 */
export class Solver {
  private readonly cfg: SolverConfig;
  private engine: Engine | null = null;

  constructor(cfg: SolverConfig = {}) {
    this.cfg = { ...cfg };
  }

  /** Forget every stored result. */
  clear(): void {
    this.engine?.clearTable();
  }

  /** Entries in use / capacity of the transposition table. */
  tableUsage(): { used: number; capacity: number } {
    return { used: this.engine?.tUsed ?? 0, capacity: this.engine?.tSize ?? 0 };
  }

  private engineFor(g: BoardGeometry): Engine {
    if (!this.engine || this.engine.g.width !== g.width || this.engine.g.height !== g.height) {
      this.engine = null; // release the old table first
      this.engine = new Engine(g, this.cfg);
    }
    return this.engine;
  }

  private prepare(state: BoardState, options: SolveOptions, t0: number): Engine {
    const e = this.engineFor(state.geometry);
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
    try {
      const v = e.search(alpha, beta, 0);
      if (v <= alpha) upper = ((v - R) & 1) !== 0 ? v - 1 : v;
      else if (v >= beta) lower = ((v - R) & 1) !== 0 ? v + 1 : v;
      else lower = upper = v;
    } catch (err) {
      if (!(err instanceof Abort)) throw err;
      status = 'unknown';
      e.load(state);
    }
    return { status, lower: lower + 0, upper: upper + 0, nodes: e.nodes, ms: Date.now() - t0 }; // + 0: no -0
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
    const tb = e.tableBounds();
    if (tb && tb[2] >= 0) {
      const k = rootMoves.indexOf(tb[2]);
      if (k > 0) {
        rootMoves.splice(k, 1);
        rootMoves.unshift(tb[2]);
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
        if (wantValues || bestVal === -INF) {
          exactMove(m, bestVal === -INF ? guess0 : bestVal, -INF);
        } else {
          // is this move as good as the best so far? one null-window test, exact only if better
          const v = probeMove(m, bestVal - 1, bestVal);
          if (v >= bestVal) exactMove(m, bestVal, -INF);
        }
        if (mLo.get(m) === mHi.get(m) && mLo.get(m)! > bestVal) bestVal = mLo.get(m)!;
        done++;
        progress();
      }
    } catch (err) {
      if (!(err instanceof Abort)) throw err;
      aborted = true;
      e.load(state); // the abort left lines drawn
    }
    e.onTick = undefined;
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
    const progress = () =>
      options.onProgress?.({ nodes: e.nodes, ms: Date.now() - t0, lower: lo, upper: hi, movesDone: 0, movesTotal: 0 });
    e.onTick = options.onProgress ? progress : undefined;
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
        progress();
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
