/**
 * The Nimstring view of a board position, in the plain data the analysis, the JSON and the hover
 * show: the nim-value (or loony), each region's value, the long chain count and what the long
 * chain rule asks for, and the moves that win the chain fight. Budgeted: 'unknown' beyond it.
 */
import type { BoardState } from '../board/state';
import { chainFight, longChainRuleOf, nimstring } from '../nimstring';
import { sharedBitSearch } from '../nimstring/bitSearch';
import type { TranspositionTable } from '../solver/table';

/**
 * Whole-board search nodes per region of the budget. The region engine's 200,000 regions took about
 * 4 s where it gives up (record 3 of the bench, plies 16-19); at 100 nodes a region the whole-board
 * search may take 3-4 times that (20 million nodes, 13-15 s), enough for ply 18 there (the
 * CHANGELOG's stop 43; the editor's worker has 300,000 regions since stop 47, so 30 million nodes).
 * Only time depends on it.
 */
const BIT_NODES_PER_REGION = 100;
/**
 * Beyond this many undrawn lines the whole-board search is not tried: on a 5x5 record, 44 were not
 * decided in 60 million nodes (record 3, ply 16), 43 took 13-30 million. Only time depends on it.
 */
const BIT_SEARCH_MAX_UNDRAWN = 43;

export interface NimSummary {
  nimber: number | 'loony' | 'unknown';
  regions: { boxes: number[]; nimber: number | 'loony' | 'unknown' }[];
  longChains: number;
  loops: number;
  /** The parity of the long chain count the player to move wants. */
  wantsLongChains: 'even' | 'odd';
  currentFavoursPlayerToMove: boolean;
  /**
   * Proven: the player to move wins the chain fight (Nimstring: the nim-value is not 0, or loony) or
   * loses it (0). Known whenever the nim-value is, and sometimes without it (a zero test); undefined
   * when not found within the budget.
   */
  moverWinsChainFight?: boolean;
  /** Moves that win Nimstring for the player to move (line indices); undefined when not computed. */
  winningMoves?: number[];
}

/**
 * How much a view knows: 3 the value and its winning moves, 2 the value, 1 who wins the chain fight,
 * 0 nothing. Every view is true as far as it goes; of two, the one that knows more is kept.
 */
export function nimKnowledge(n: Pick<NimSummary, 'nimber' | 'moverWinsChainFight' | 'winningMoves'>): number {
  if (n.nimber !== 'unknown') return n.winningMoves !== undefined ? 3 : 2;
  return n.moverWinsChainFight !== undefined ? 1 : 0;
}

/**
 * The view without any search: the long chains and loops as they stand and what the long chain rule
 * asks for (a function of the position alone), who wins the chain fight unknown. For a position
 * given no time for the search (the command line's record budget spent).
 */
export function longChainFacts(state: BoardState): NimSummary {
  const rule = longChainRuleOf(state);
  return {
    nimber: 'unknown',
    regions: [],
    longChains: rule.currentLongChains,
    loops: rule.currentLoops,
    wantsLongChains: rule.wantsLongChains,
    currentFavoursPlayerToMove: rule.currentFavoursPlayerToMove,
  };
}

/**
 * Who wins the chain fight, carried along the moves of a line (Nimstring: a move that completes a
 * box keeps the turn). With W(P) "the player to move in P wins the chain fight" and P' = P after
 * the move played, which keeps the turn (`keepsTurn`) or passes it:
 * - W(P') false and the move passes the turn, or W(P') true and it keeps it: that move wins, so W(P);
 * - W(P) false: every move loses, this one too, so W(P') when it passes the turn, not W(P') when
 *   it keeps it (and a lost fight is the nim-value 0).
 * Only verdicts of views (`views[k]` of position k, keepsTurn[k] for the move from k to k + 1) are
 * carried, never a guess; a view without a verdict gets one (a new object: views may be shared),
 * one with a verdict keeps it, a position without a view gets none.
 */
export function chainFightAlongLine(
  views: readonly (NimSummary | undefined)[],
  keepsTurn: readonly boolean[],
): (NimSummary | undefined)[] {
  const out = [...views];
  const verdict = (k: number) => out[k]?.moverWinsChainFight;
  const settle = (k: number, wins: boolean) => {
    const v = out[k];
    if (v === undefined || v.moverWinsChainFight !== undefined) return;
    out[k] = { ...v, moverWinsChainFight: wins, ...(wins ? {} : { nimber: 0 }) };
  };
  // from the end backwards: a winning move played proves its position won (and on through moves
  // that keep the turn)
  for (let k = Math.min(keepsTurn.length, out.length - 1) - 1; k >= 0; k--) {
    const after = verdict(k + 1);
    if (after !== undefined && after === keepsTurn[k]) settle(k, true);
  }
  // forwards: after a lost position, the move played leaves the other player the win, or keeps the loss
  for (let k = 0; k < Math.min(keepsTurn.length, out.length - 1); k++)
    if (verdict(k) === false) settle(k + 1, !keepsTurn[k]);
  return out;
}

export interface NimSummaryOptions {
  /** Give up (unknown) after about this many milliseconds. */
  timeBudgetMs?: number;
  /** An edit cancelled the work: it ends like the budget, and what is not found is unknown. */
  shouldStop?: () => boolean;
  /**
   * Where the region engine's zero test gives up, ask the whole-board search (the editor's search
   * worker only: it may take the budget's regions as BIT_NODES_PER_REGION nodes each, which the
   * editor's main thread cannot wait for and the command line's record budget cannot spare); `hints`,
   * the boxes solver's table (Solver.tableOf), orders its moves.
   */
  wholeBoard?: { hints?: TranspositionTable };
}

export function nimSummary(
  state: BoardState,
  budget: number,
  moveValues = true,
  { timeBudgetMs, shouldStop, wholeBoard }: NimSummaryOptions = {},
): NimSummary {
  const deadline = timeBudgetMs === undefined ? undefined : Date.now() + timeBudgetMs;
  const msLeft = () => (deadline === undefined ? undefined : Math.max(0, deadline - Date.now()));
  // Who wins the chain fight first (one zero test, cheaper than the value and reaching further back),
  // then the value with what is left (the test's memo makes its start free), then the moves only when
  // the value is known (each costs about as much as the value).
  const fight = chainFight(state, { budget, timeBudgetMs: msLeft(), shouldStop });
  let root = nimstring(state, {
    budget: Math.max(1, budget - fight.nodes),
    moveValues: false,
    timeBudgetMs: msLeft(),
    shouldStop,
  });
  // a lost fight proves the value 0 (the region values are memoized then: the call above finds them)
  if (fight.moverWins === false) root = { ...root, nimber: 0 };
  // neither found who wins the fight: the whole-board search, which reaches further back in a middle
  // game (nimstring/bitSearch.ts), with the budget's regions in nodes (each costs about that many)
  const bits =
    wholeBoard &&
    root.nimber === 'unknown' &&
    fight.moverWins === 'unknown' &&
    msLeft() !== 0 &&
    state.geometry.lineCount - state.drawnCount <= BIT_SEARCH_MAX_UNDRAWN
      ? sharedBitSearch(state.geometry).moverWins(state, {
          nodeBudget: budget * BIT_NODES_PER_REGION,
          timeBudgetMs: msLeft(),
          shouldStop,
          hints: wholeBoard.hints,
        })
      : fight.moverWins;
  const moverWinsChainFight = root.nimber !== 'unknown' ? root.nimber !== 0 : bits === 'unknown' ? undefined : bits;
  const r =
    moveValues && root.nimber !== 'unknown'
      ? nimstring(state, {
          budget: Math.max(1, budget - fight.nodes - root.nodes),
          moveValues,
          timeBudgetMs: msLeft(),
          shouldStop,
        })
      : root;
  return {
    nimber: root.nimber,
    ...(moverWinsChainFight !== undefined ? { moverWinsChainFight } : {}),
    regions: r.regions.map((x) => ({ boxes: x.boxes, nimber: x.nimber })),
    longChains: r.longChains,
    loops: r.loops,
    wantsLongChains: r.longChainRule.wantsLongChains,
    currentFavoursPlayerToMove: r.longChainRule.currentFavoursPlayerToMove,
    winningMoves:
      moveValues && r.moveValues.length > 0 && r.moveValues.every((m) => m.winning !== 'unknown')
        ? r.moveValues.filter((m) => m.winning === true).map((m) => m.line)
        : undefined,
  };
}
