/**
 * Nimstring analysis of a Dots-and-Boxes position.
 *
 * WHICH GAME. Nimstring (Winning Ways ch. 16; Berlekamp, "The Dots-and-Boxes Game") has the moves of
 * Dots-and-Boxes, including "complete a box, move again", under the NORMAL PLAY RULE: a player who
 * has to move and cannot, loses. Completing the last box obliges you to move again when no line is
 * left, so WHOEVER COMPLETES THE LAST BOX LOSES. Allcock ("Best play in Dots & Boxes endgames") says in passing "the winner is
 * whoever completes the last box"; taken literally that is a different game, and not a sound one for
 * Sprague-Grundy sums: an isolated 1-box chain would be a loss for the player to move when alone
 * but would act as *1 (a turn-passer) next to anything else. Allcock's own use of Nimstring — "in
 * Nimstring the controller always wins", "every move is loony (ie, loses the Nimstring game)" — holds
 * under both readings, and Brinker, "Developing an efficient algorithm for nimber calculation in Dots and Boxes" uses the normal play rule and mex values, so we take
 * the standard definition. The brute force (brute.ts) plays exactly that rule and the tests check
 * every value against it.
 *
 * VALUES. A position's value is a nimber, or LOONY: the position offers the player to move the
 * choice of who moves next (an opened long chain, a 2-chain opened at its end, an opened loop: most
 * often the last move was loony, but a capture or the position as written can leave it so), so the
 * player to move wins in any sum; loony absorbs in sums. The player to move
 * wins Nimstring iff the value is not 0.
 *
 * ENGINES. Two exact engines value the regions, chosen by `NimstringOptions.engine`, both with zero
 * tests (a region plus a heap, won or lost: cellEngine.ts `wins`, graphEngine.ts `graphWins`):
 *  - graphEngine.ts (DEFAULT_NIM_ENGINE = 'graph'): the strings-and-coins graph, keyed by a
 *    canonical graph form, with switchable simplification rules (long chains shortened, loony
 *    moves skipped): two to six times fewer regions evaluated than the cell engine, each about 1.2
 *    times as dear since stop 47 (twice before), so about twice as fast where both finish: who wins
 *    the chain fight on plies 19-20 of six plausible 5x5 records, 16.3 s and 390,230 regions against
 *    31.6 s and 896,095 (stop 47, two runs each; bench/nimstring.bench.ts prints the same
 *    comparison on plies 19-24). Where both give up, the same region budget takes the graph engine
 *    about 1.2 times as long.
 *  - cellEngine.ts ('cells'): memoized search on board cells (cells.ts), keyed by the 8 grid
 *    symmetries; the independent second engine the tests compare with.
 * brute.ts is the independent whole-board brute force the tests check both against.
 */

import type { BoardState } from '../board/state';
import { NIM_BUDGET_DEFAULT } from '../limits';
import { UNCLAIMED } from '../board/state';
import { Cell, LOONY, cellsOfState, componentIndices, simplify, cloneCells, degree, indexOf, neighbour } from './cells';
import { BudgetExceeded, NimCache, SearchContext, newContext, positionValue, sharedCache, sumWins } from './cellEngine';
import { GraphContext, NimRules, graphSumWins, newGraphContext, regionsOfCells, regionsValue } from './graphEngine';

/**
 * The default engine: the graph engine, the faster one in wall time since it has zero tests too
 * (stop 46; bench/nimstring.bench.ts): it evaluates fewer regions, each dearer.
 */
export const DEFAULT_NIM_ENGINE: 'cells' | 'graph' = 'graph';

export type NimValue = number | 'loony';
export type NimResultValue = NimValue | 'unknown';

export interface NimstringOptions {
  /**
   * Max regions evaluated (memo misses) for the whole call, default 250 000 (a few seconds at
   * worst); beyond it values are 'unknown'.
   */
  budget?: number;
  /** Also give up (values 'unknown') after about this many milliseconds. */
  timeBudgetMs?: number;
  /** Compute the value of every legal move (default true). */
  moveValues?: boolean;
  /** Memo to use (default: a module-wide cache shared by all calls). */
  cache?: NimCache;
  /**
   * Simplification rules of the graph engine (graphEngine.ts), all on by default; tests and the bench
   * switch them off one by one. The value never depends on them, only the time.
   */
  rules?: Partial<NimRules>;
  /**
   * 'graph' (DEFAULT_NIM_ENGINE): the strings-and-coins graph engine (graphEngine.ts); 'cells': the
   * board-cell engine (cellEngine.ts). Both are exact and cross-checked with the brute force.
   */
  engine?: 'graph' | 'cells';
  /**
   * Either engine values regions of at least this many coins by zero tests (`wins`, `graphWins`),
   * smaller ones by the mex of every option; Infinity: the mex only. Default ZERO_TEST_MIN_COINS. The
   * value never depends on it, only the time.
   */
  zeroTestMinCoins?: number;
  /** Gives up (the value 'unknown') when this says so: an edit cancelled the work. */
  shouldStop?: () => boolean;
}

export interface NimRegion {
  /** Unclaimed boxes of the region (board box indices). */
  boxes: number[];
  /** Undrawn lines touching those boxes (board line indices). */
  lines: number[];
  nimber: NimResultValue;
}

export interface NimMoveValue {
  line: number;
  /** Canonical line name, e.g. `a1-b1`. */
  name: string;
  /** The move completes a box, so the same player moves again. */
  capture: boolean;
  /** Value of the position after the move, for the player then to move. */
  nimber: NimResultValue;
  /**
   * The move wins Nimstring for the player making it: after a capture (she moves again) iff the
   * resulting value is not 0 (loony counts as a win for her); otherwise iff it is exactly 0.
   */
  winning: boolean | 'unknown';
}

export interface LongChainRule {
  /** Dots of the board ((W+1)(H+1)); the classic statement: first player wants dots + long chains even. */
  dots: number;
  undrawnLines: number;
  unclaimedBoxes: number;
  /**
   * Parity of the number of long chains the player to move wants at the end, (undrawn - unclaimed + 1) mod 2.
   * Derivation: every line that completes no box ends a turn, and so does the last line; lines
   * completing boxes = boxes - doublecrosses. So the remaining turns = undrawn - unclaimed + DC + 1,
   * and the player to move makes the last turn iff that is odd. In Dots-and-Boxes with k >= 1 long
   * chains and control kept, DC = k - 1 (+2 per loop) and the controller makes the last turn; so the
   * player to move is the controller iff k has this parity. (At the start undrawn - unclaimed + 1 = dots.)
   */
  wantsLongChains: 'even' | 'odd';
  /** Long chains (>= 3 boxes of degree-2 coins, not closed) counted in the position as it stands. */
  currentLongChains: number;
  /** Loops counted as they stand (they do not change the parity). */
  currentLoops: number;
  /** Does the current count have the parity the player to move wants? */
  currentFavoursPlayerToMove: boolean;
}

export interface NimstringResult {
  nimber: NimResultValue;
  regions: NimRegion[];
  moveValues: NimMoveValue[];
  longChains: number;
  loops: number;
  longChainRule: LongChainRule;
  /** Regions evaluated (memo misses) and memo hits in this call. */
  nodes: number;
  hits: number;
  complete: boolean;
}

function xorValues(vals: NimResultValue[]): NimResultValue {
  let x = 0,
    unknown = false;
  for (const v of vals) {
    if (v === LOONY) return LOONY;
    if (v === 'unknown') unknown = true;
    else x ^= v;
  }
  return unknown ? 'unknown' : x;
}

function evalCells(cells: Cell[], ctx: SearchContext | GraphContext): NimResultValue {
  try {
    if ('rules' in ctx) return regionsValue(regionsOfCells(cells, ctx), ctx);
    return positionValue(simplify(cloneCells(cells)), ctx);
  } catch (e) {
    if (e instanceof BudgetExceeded) return 'unknown';
    throw e;
  }
}

/** Nimstring value of a position, its regions and every move. */
export function nimstring(state: BoardState, options: NimstringOptions = {}): NimstringResult {
  const budget = options.budget ?? NIM_BUDGET_DEFAULT;
  // Passing `rules` selects the graph engine (the rules are its own).
  const engine = options.engine ?? (options.rules ? 'graph' : DEFAULT_NIM_ENGINE);
  const ctx =
    engine === 'cells'
      ? newContext(budget, options.cache, options.zeroTestMinCoins)
      : newGraphContext(budget, options.cache ?? sharedCache, options.rules, options.zeroTestMinCoins);
  if (options.timeBudgetMs !== undefined) ctx.deadline = Date.now() + options.timeBudgetMs;
  ctx.shouldStop = options.shouldStop;
  const g = state.geometry;
  const { cells, boxes } = cellsOfState(state);
  const comps = componentIndices(cells);
  const boxToComp = new Map<number, number>();
  const regions: NimRegion[] = comps.map((comp, r) => {
    const rb = comp.map((i) => boxes[i]).sort((a, b) => a - b);
    for (const b of rb) boxToComp.set(b, r);
    const lineSet = new Set<number>();
    for (const b of rb) for (const l of g.linesOfBox(b)) if (!state.drawn[l]) lineSet.add(l);
    return {
      boxes: rb,
      lines: [...lineSet].sort((a, b) => a - b),
      nimber: evalCells(
        comp.map((i) => cells[i]),
        ctx,
      ),
    };
  });
  const nimber = xorValues(regions.map((r) => r.nimber));

  const moveValues: NimMoveValue[] = [];
  if (options.moveValues !== false) {
    for (let line = 0; line < g.lineCount; line++) {
      if (state.drawn[line]) continue;
      const after = state.clone();
      const res = after.drawSilently(line, state.toMove);
      const capture = res.length > 0;
      // Only the region holding the line changes.
      const r = boxToComp.get(g.boxesOfLine(line)[0])!;
      const { cells: afterCells, boxes: afterBoxes } = cellsOfState(after);
      const regionBoxes = new Set(regions[r].boxes);
      const changed = afterCells.filter((_, i) => regionBoxes.has(afterBoxes[i]));
      const vals = regions.filter((_, k) => k !== r).map((x) => x.nimber);
      vals.push(evalCells(changed, ctx));
      const v = xorValues(vals);
      const winning = v === 'unknown' ? 'unknown' : capture ? v !== 0 : v === 0;
      moveValues.push({ line, name: g.lineName(line), capture, nimber: v, winning });
    }
  }

  const longChainRule = longChainRuleOf(state, cells);
  const longChains = longChainRule.currentLongChains,
    loops = longChainRule.currentLoops;
  const complete = nimber !== 'unknown' && moveValues.every((m) => m.nimber !== 'unknown');
  return { nimber, regions, moveValues, longChains, loops, longChainRule, nodes: ctx.nodes, hits: ctx.hits, complete };
}

/**
 * The long chain rule for the position as it stands: what it asks of the player to move, and the
 * chains and loops counted now (countChains). No search: a function of the position alone.
 */
export function longChainRuleOf(state: BoardState, cells: readonly Cell[] = cellsOfState(state).cells): LongChainRule {
  const g = state.geometry;
  const { longChains, loops } = countChains(cells);
  const undrawnLines = g.lineCount - state.drawnCount;
  let unclaimedBoxes = 0;
  for (let b = 0; b < g.boxCount; b++) if (state.owner[b] === UNCLAIMED) unclaimedBoxes++;
  const wantsLongChains = (undrawnLines - unclaimedBoxes + 1) % 2 === 0 ? 'even' : 'odd';
  return {
    dots: (g.width + 1) * (g.height + 1),
    undrawnLines,
    unclaimedBoxes,
    wantsLongChains,
    currentLongChains: longChains,
    currentLoops: loops,
    currentFavoursPlayerToMove: (longChains % 2 === 0) === (wantsLongChains === 'even'),
  };
}

/**
 * Who wins the chain fight (Nimstring, the score ignored) from this position: the player to move
 * wins exactly when the nim-value is not 0 (or the position is loony). Decided by one zero test of
 * the whole position (graphEngine.ts `graphWins`, or cellEngine.ts `wins` with engine 'cells'),
 * which stops at the first winning move and so often finishes where the value does not. 'unknown'
 * beyond the budget, never a guess.
 */
export function chainFight(
  state: BoardState,
  options: Pick<
    NimstringOptions,
    'budget' | 'cache' | 'timeBudgetMs' | 'zeroTestMinCoins' | 'shouldStop' | 'engine' | 'rules'
  > = {},
): { moverWins: boolean | 'unknown'; nodes: number } {
  const budget = options.budget ?? NIM_BUDGET_DEFAULT;
  const { cells } = cellsOfState(state);
  let test: () => boolean, ctx: SearchContext | GraphContext;
  if ((options.engine ?? (options.rules ? 'graph' : DEFAULT_NIM_ENGINE)) === 'graph') {
    const graphCtx = newGraphContext(budget, options.cache ?? sharedCache, options.rules, options.zeroTestMinCoins);
    const parts = regionsOfCells(cells, graphCtx);
    if (parts === LOONY) return { moverWins: true, nodes: 0 };
    [ctx, test] = [graphCtx, () => graphSumWins(parts, 0, graphCtx)];
  } else {
    const cellCtx = newContext(budget, options.cache, options.zeroTestMinCoins);
    const parts = simplify(cells);
    if (parts === LOONY) return { moverWins: true, nodes: 0 };
    [ctx, test] = [cellCtx, () => sumWins(parts, 0, cellCtx)];
  }
  if (options.timeBudgetMs !== undefined) ctx.deadline = Date.now() + options.timeBudgetMs;
  ctx.shouldStop = options.shouldStop;
  try {
    return { moverWins: test(), nodes: ctx.nodes };
  } catch (e) {
    if (e instanceof BudgetExceeded) return { moverWins: 'unknown', nodes: ctx.nodes };
    throw e;
  }
}

/**
 * Chains and loops as they stand: maximal runs of coins with one or two strings (boxes with two or
 * three sides drawn). A run that closes on itself is a loop. Otherwise it is a chain, long when it has
 * >= 3 coins, counting an opened one as it stands (found by an audit: counting only the coins of two
 * strings took a just-opened 3-chain for no chain and an opened loop for a chain, so right after a
 * loony move the parity verdict was wrong for the player in control). A run whose two ends both have
 * one string left (capturable at both ends) is an opened loop when it has >= 4 coins (a chain opened
 * at both ends is the same strings-and-coins game): the controller keeps control by leaving 4 boxes,
 * two doublecrosses, so it counts as a loop, which does not change the parity; with 2 or 3 coins it
 * offers no way to keep control (every move in it completes a box) and is no long chain. (Runs through
 * junctions are not chains yet; the count is a guide for the long chain rule, not a prediction.)
 */
export function countChains(cells: readonly Cell[]): {
  longChains: number;
  loops: number;
  chains: { length: number; loop: boolean; opened: number }[];
} {
  const idx = indexOf(cells);
  const seen = new Uint8Array(cells.length);
  const chains: { length: number; loop: boolean; opened: number }[] = [];
  const inRun = (i: number) => {
    const d = degree(cells[i]);
    return d === 1 || d === 2;
  };
  const nbrs = (i: number): number[] => {
    const out: number[] = [];
    for (const d of [1, 2, 4, 8]) if (cells[i].links & d) out.push(neighbour(cells, idx, i, d));
    return out;
  };
  for (let s = 0; s < cells.length; s++) {
    if (seen[s] || !inRun(s)) continue;
    // walk both ways through coins of one or two strings
    const run = new Set<number>([s]);
    seen[s] = 1;
    const stack = [s];
    while (stack.length) {
      const i = stack.pop()!;
      for (const j of nbrs(i)) {
        if (!inRun(j) || run.has(j)) continue;
        run.add(j);
        seen[j] = 1;
        stack.push(j);
      }
    }
    // a loop: every coin in the run has both strings to coins in the run
    const closed = [...run].every(
      (i) => degree(cells[i]) === 2 && cells[i].g === 0 && nbrs(i).every((j) => run.has(j)),
    );
    // capturable ends: in a run of two or more coins, a coin of one string is an end
    const opened = run.size < 2 ? 0 : [...run].filter((i) => degree(cells[i]) === 1).length;
    chains.push({ length: run.size, loop: closed || (opened === 2 && run.size >= 4), opened });
  }
  return {
    longChains: chains.filter((c) => !c.loop && c.length >= 3 && c.opened < 2).length,
    loops: chains.filter((c) => c.loop).length,
    chains,
  };
}

export {
  NimCache,
  sharedCache,
  regionValue,
  naiveValue,
  newContext,
  wins,
  sumWins,
  BudgetExceeded,
} from './cellEngine';
export { bruteValue, bruteWins } from './brute';
export { orderingRules, chainStructure, firstOpening } from './ordering';
export type { OrderChain, OrderingResult } from './ordering';
export { canonicalKey, cellsOfState, simplify, LOONY } from './cells';
export {
  ALL_RULES,
  NO_RULES,
  newGraphContext,
  regionsOfCells,
  regionsValue,
  graphValue,
  graphWins,
  graphSumWins,
  graphOf,
  simplifyGraph,
  naiveGraphValue,
} from './graphEngine';
export type { NimRules, SGraph, GraphContext } from './graphEngine';
export { graphKey, rawGraphKey } from './graphKeys';
export type { Cell } from './cells';
