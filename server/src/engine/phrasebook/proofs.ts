/**
 * Proofs in words: what proven bounds say when the value is unknown ("Alice does not lose"), results
 * that change, why a position stayed unproven, and the labels every estimate carries (the best
 * move found so far, the Nimstring view) wherever it is shown.
 */
import type { GameResult, Proof, ProvenStanding } from '../analysis/prove';
import { seconds } from './search';
import { listOr, metBounds, signed } from './grammar';

/** The label every unproven best move carries, wherever it is shown. */
export const BEST_SO_FAR_LABEL = 'best found so far, not proven';

/** The label of the Nimstring view: it ignores the score and the margin. */
export const NIM_VIEW_LABEL = 'Nimstring view (who wins the chain fight; it ignores the score and is not the value)';

/** "a win", "a tie", "a loss" (or without the article). */
export function resultNoun(r: GameResult, article = true): string {
  return `${article ? 'a ' : ''}${r}`;
}

/** "turns Alice's win into a loss". */
export function resultChangeWords(player: string, before: GameResult, after: GameResult): string {
  return `turns ${player}'s ${resultNoun(before, false)} into ${resultNoun(after)}`;
}

const UNPROVEN_RESULT = 'the result is not proven';

/** Said of moves proven optimal when the optimal moves were not all searched. */
export const NOT_ALL_SEARCHED = 'not every move was searched';

/** "a1-b1 keeps the win (proven)" — a move proven to keep the mover's win, named already. */
export function keepsWinWords(moves: string): string {
  return `${moves} keeps the win (proven)`;
}

/** "best: a1-b1 (proven; not every move was searched)" — moves proven optimal, listed already. */
export function provenBestWords(moves: string): string {
  return `best: ${moves} (proven; ${NOT_ALL_SEARCHED})`;
}

/**
 * What proven bounds [lower, upper] on the rest say, for the player to move with `lead` boxes
 * more than the other so far: "Alice wins; Alice wins the rest by at least 3", "Bob does not lose;
 * the rest is between Alice by 5 and Bob by 3", "the rest is between …; the result is not proven".
 * Never the trivial box when something is proven.
 */
export function boundsInWords(
  lower: number,
  upper: number,
  remaining: number,
  lead: number,
  mover: string,
  other: string,
): string {
  if (lower <= -remaining && upper >= remaining) return `nothing proven yet (the rest: ${remaining} boxes)`;
  const result =
    lead + lower > 0
      ? `${mover} wins`
      : lead + upper < 0
        ? `${other} wins`
        : lead + lower >= 0 && lead + upper <= 0
          ? 'the game is a tie'
          : lead + lower >= 0
            ? `${mover} does not lose`
            : lead + upper <= 0
              ? `${other} does not lose`
              : UNPROVEN_RESULT;
  let rest: string;
  if (lower > 0) rest = `${mover} wins the rest by at least ${lower}${upper < remaining ? ` (at most ${upper})` : ''}`;
  else if (upper < 0)
    rest = `${other} wins the rest by at least ${-upper}${lower > -remaining ? ` (at most ${-lower})` : ''}`;
  else if (lower === 0)
    rest = `${other} does not win the rest${upper < remaining ? `; ${mover} wins it by at most ${upper}` : ''}`;
  else if (upper === 0)
    rest = `${mover} does not win the rest${lower > -remaining ? `; ${other} wins it by at most ${-lower}` : ''}`;
  else rest = `the rest is between ${other} by ${-lower} and ${mover} by ${upper}`;
  // what is proven first ("Proven: the result is not proven; …" read as a contradiction)
  return result === UNPROVEN_RESULT ? `${rest}; ${result}` : `${result}; ${rest}`;
}

/** A position given no search (its record's budget was spent): its bounds come from earlier proofs. */
export const NOT_SEARCHED = 'not searched in this run (bounds from earlier proofs only; the search summary says why)';

/** Why a searched position's value stayed unknown. */
export function unprovenNote(proof: Proof, remaining: number): string {
  const searched = `${proof.nodes.toLocaleString('en-US')} positions searched in ${(proof.ms / 1000).toFixed(1)} s`;
  if (proof.stopped === 'cancelled') return `search cancelled (${searched})`;
  if (proof.nodes === 0) return NOT_SEARCHED;
  const what = proof.result !== null ? 'result proven; the margin was' : 'the result was';
  const trivial = proof.lower <= -remaining && proof.upper >= remaining;
  return `${what} not proven within the search budget (${searched}${trivial ? '' : ', bounds proven'})`;
}

/**
 * Why a record position stayed unproven (the CLI's schedule, cli/search.ts). budget: searched with
 * the whole per-position budget; extended: then given a second, result-only search (extensionMs); probe:
 * a short search only, because a later position's result was not proven; skipped: not searched
 * (several later results unproven); margin-probe: the result proven, the margin given a short search
 * only (several later margins unproven); record-budget / total-budget: the record's or the run's
 * budget ran out.
 */
export type UnprovenReason =
  'budget' | 'extended' | 'probe' | 'skipped' | 'margin-probe' | 'record-budget' | 'total-budget';

/** What the last finished position of a record proved (the CLI's progress line). */
export function provenSoFarWords(
  ply: number,
  e: { status: string; value: number | null; lower: number; upper: number },
  result: string | null,
): string {
  const exact = e.status === 'exact' ? e.value! : metBounds(e.lower, e.upper);
  if (exact !== null) return `ply ${ply} exact (${exact > 0 ? '+' : ''}${exact})`;
  return `ply ${ply} ${result !== null ? `${result} proven for the player to move` : `between ${e.lower} and ${e.upper}`}`;
}

/** Why positions of a record stayed unproven (CLI summary). */
export function unprovenReasonWords(reason: UnprovenReason, resultProven: boolean, positionBudgetMs: number): string {
  const what = resultProven ? 'result proven, margin not' : 'result not proven';
  switch (reason) {
    case 'budget':
      return `${what} within ${seconds(positionBudgetMs)} each (--budget-ms)`;
    case 'extended':
      // (given only where the second search left the result unproven)
      return `${what} within ${seconds(positionBudgetMs)} (--budget-ms), nor by a second, result-only search with what the record's budget had left (--record-budget-ms)`;
    case 'probe':
      return `${what}: a short search only, a later position's result was not proven`;
    case 'skipped':
      return `${what}: not searched, several later results were not proven (bounds from earlier proofs only)`;
    case 'margin-probe':
      // (given only where the result is proven)
      return `${what}: a short search of the margin only, several later margins were not proven`;
    case 'record-budget':
      return `${what}: the record's budget ran out (--record-budget-ms)`;
    case 'total-budget':
      return `${what}: the run's budget ran out (--total-budget-ms)`;
  }
}

/**
 * What a position's proven bounds say when its value is unknown, as a sentence: "Proven: Alice does
 * not lose; Bob wins the rest by at most 3." Empty when nothing beyond the trivial box is proven.
 */
export function provenFacts(
  p: { lower: number | null; upper: number | null; remaining: number; score: [number, number]; toMove: 0 | 1 },
  players: [string, string],
): string {
  if (p.lower === null || p.upper === null || (p.lower <= -p.remaining && p.upper >= p.remaining)) return '';
  const lead = p.score[p.toMove] - p.score[1 - p.toMove];
  return `Proven: ${boundsInWords(p.lower, p.upper, p.remaining, lead, players[p.toMove], players[1 - p.toMove])}.`;
}

/**
 * The label of the best move found so far, by what its proven bound proves (estimateStanding):
 * "a best move, proven (not every move was searched)", "keeps the win, proven (…)", or
 * BEST_SO_FAR_LABEL when nothing is.
 */
export function estimateLabel(standing: ProvenStanding | 'unproven'): string {
  switch (standing) {
    case 'optimal':
      return `a best move, proven (${NOT_ALL_SEARCHED})`;
    case 'keeps-win':
      return 'keeps the win, proven (not proven to keep the best margin)';
    case 'unproven':
      return BEST_SO_FAR_LABEL;
  }
}

/** "Best found so far, not proven: a1-b1" (or what is proven of it) — `format` marks the move (e.g. as code). */
export function bestSoFarLine(
  moves: string[],
  format: (move: string) => string = (m) => m,
  standing: ProvenStanding | 'unproven' = 'unproven',
): string {
  const label = estimateLabel(standing);
  return `${label.charAt(0).toUpperCase()}${label.slice(1)}: ${moves.map(format).join(', ')}`;
}

/**
 * What to play instead of a mistake: "best: a1-b1 or c2-c3" (every optimal move), or, when those
 * were not searched, the moves proven optimal, or one proven to keep the win or proven better than
 * the move played ("best: a1-b1 (proven; not every move was searched)", "instead, a1-b1 keeps the
 * win (proven)", "instead, a1-b1 is proven better (worth at least +3, the move played at most +1)");
 * '' when none is known.
 */
export function insteadWords(
  m: {
    best: string[];
    provenInstead?: { moves: string[]; standing: ProvenStanding | 'better'; atLeast?: number; playedAtMost?: number };
  },
  format: (move: string) => string = (x) => x,
): string {
  if (m.best.length) return `best: ${listOr(m.best.map(format), 6)}`;
  const p = m.provenInstead;
  if (!p) return '';
  const moves = listOr(p.moves.map(format), 6);
  if (p.standing === 'optimal') return provenBestWords(moves);
  if (p.standing === 'better')
    return `instead, ${moves} is proven better (worth at least ${signed(p.atLeast!)}, the move played at most ${signed(p.playedAtMost!)})`;
  return `instead, ${keepsWinWords(moves)}`;
}
