/** What to play, in words: the code lenses' advice, endgame openings, keeping control or taking all. */
import type { EntryReport, PositionReport } from '../analysis/report';
import { boxes, capitalized, listOr, plural, signed } from './grammar';
import { finalInWords, gameOver, predictedFinal, restWinner, roleWinner, unknownValue } from './values';
import { keepsWinWords, provenBestWords } from './proofs';
import { estimateStanding, provenLoss, provenOptimalMoves } from '../analysis/prove';

/** "4-loop", "3-chain" from a component's name ("4l", "3"). */
export function componentWords(name: string): string {
  const loop = name.endsWith('l');
  const n = parseInt(name, 10);
  return loop ? `${n}-loop` : `${n}-chain`;
}

/** "the 4-loop", "a 3-chain" (when there are several of its kind). */
export function componentPhrase(name: string, count: number): string {
  return `${count > 1 ? 'a' : 'the'} ${componentWords(name)}`;
}

/**
 * The move of a 2-chain written with a suffix (`2:keep`, `2:all`): opened at an end, the half-hearted
 * handout that lets the controller decline, a different move from `2` (opened in its middle).
 */
export function endOpenedWords(name: string): string {
  return `${name} (opened at an end)`;
}

/** The controller's choice after an opening: "keep control", "take all", "keep control or take all (equal)". */
export function decisionWords(d: 'keep' | 'all' | 'either' | undefined): string {
  return d === 'keep' ? 'keep control' : d === 'all' ? 'take all' : 'keep control or take all (equal)';
}

/**
 * The advice for a position, as a lens title: "Open the 4-loop — the controller wins by 1";
 * "Keep control — …"; "Best: a1-b1 — Alice wins the rest by 2"; "Value unknown (…)".
 */
export function positionAdvice(e: EntryReport, p: PositionReport): string {
  if (p.remaining === 0) return capitalized(gameOver(p.score, p.unowned));
  if (p.value === null) {
    // a move proven to keep the win, when the search found one
    const keeps =
      p.bestSoFar?.length && estimateStanding(p) === 'keeps-win' ? `; ${keepsWinWords(p.bestSoFar[0])}` : '';
    return capitalized(unknownValue(p)) + keeps;
  }
  const rest = restWinner(p.value, e.players[p.toMove], e.players[1 - p.toMove]);
  // Abstract endgame or loony board position with nothing opened: the player to move is the opener.
  if (
    p.endgame &&
    p.best.length &&
    (e.kind === 'endgame' ? !p.decision && !isDecision(p.best) : p.loony?.phase === 'loony')
  ) {
    const counts = new Map(p.endgame.openings.map((o) => [o.component, o.count]));
    const names = e.kind === 'endgame' ? p.best : p.endgame.best;
    const what = listOr(names.map((b) => componentPhrase(b, counts.get(b) ?? 1)));
    return `Open ${what} — ${roleWinner(-p.value)}`;
  }
  if (isDecision(p.best) || p.loony?.controller) {
    const d = p.decision?.best ?? p.loony?.controller?.decision;
    return `${capitalized(decisionWords(d))} — ${rest}`;
  }
  // an exact value whose optimal moves the budget did not reach: a move proven optimal, if any
  if (p.best.length === 0) {
    const proven = provenOptimalMoves(p);
    return proven.length ? `${capitalized(provenBestWords(listOr(proven, 4)))} — ${rest}` : capitalized(rest);
  }
  return `Best: ${listOr(p.best, 4)} — ${rest}`;
}

function isDecision(best: string[]): boolean {
  return best.length > 0 && best.every((b) => b === 'keep' || b === 'all');
}

/** An entry whose text has errors: nothing is valued. */
export const NOT_ANALYSED = 'not analysed: see the problems in this entry';
/** An entry left out because the file is too large to analyse whole in the editor. */
export const NOT_ANALYSED_HERE =
  'not analysed in the editor: the file is larger than it analyses (see the warning at this entry or an earlier one); dab analyze reads more';
/** An entry left out because the file holds more than dab analyze and dab check read. */
export const NOT_ANALYSED_BY_CLI =
  'not analysed: the file holds more than dab reads (see the warning at this entry or an earlier one)';

/** Why an entry with no positions has none. */
export function notAnalysedWords(e: EntryReport): string {
  return e.model.leftOut ? NOT_ANALYSED_HERE : NOT_ANALYSED;
}

/** The lens over an entry's header: the advice at its start. */
export function entryLensTitle(e: EntryReport): string {
  const p = e.positions[0];
  if (!p) return capitalized(notAnalysedWords(e));
  return positionAdvice(e, p);
}

/**
 * The endgame's numbers in the papers' terms (controller's margins): "size(G) = 15 · fully controlled
 * value -5 · tb(G) = 6 · c(G) = 1 · v(G) = 1" (for `3 + 4l + 8l`).
 */
export function endgameFacts(eg: NonNullable<PositionReport['endgame']>): string {
  const facts = [`size(G) = ${eg.size}`];
  if (eg.controlledValue !== null) {
    facts.push(
      `fully controlled value ${eg.controlledValue - eg.terminalBonus!}`,
      `tb(G) = ${eg.terminalBonus}`,
      `c(G) = ${eg.controlledValue}`,
    );
  }
  if (eg.value !== undefined) facts.push(`v(G) = ${eg.value}`);
  return facts.join(' · ');
}

/** "Optimal line of play — final score 7-8" or where the line first throws boxes away. */
export function playLineTitle(e: EntryReport): string {
  const last = e.positions[e.positions.length - 1];
  const end =
    last.remaining === 0 ? `final score ${last.score[0]}-${last.score[1]}` : `then: ${positionAdvice(e, last)}`;
  // what each step is proven to throw away (exactly, or at least); optimal only when every step is valued
  const bad = e.moves.filter((m) => provenLoss(m) > 0);
  const unvalued = e.moves.filter((m) => m.loss === null).length;
  if (bad.length === 0) {
    if (unvalued === 0) return `Optimal line of play — ${end}`;
    return `Line of play: ${plural(unvalued, 'move')} not valued${unvalued < e.moves.length ? ', the others optimal' : ''} — ${end}`;
  }
  const first = bad[0];
  const lost = bad.reduce((a, m) => a + provenLoss(m), 0);
  const what =
    first.move === 'keep' ? 'keeping control' : first.move === 'all' ? 'taking all' : `opening ${first.move}`;
  return `This line throws away ${unvalued > 0 ? 'at least ' : ''}${boxes(lost)}, first by ${what} (step ${Math.ceil(first.ply / 2)}) — ${end}`;
}

/** The board's caption: the advice, then the predicted final score. */
export function boardValueText(e: EntryReport, p: PositionReport): string {
  const advice = positionAdvice(e, p);
  if (p.value === null || p.remaining === 0) return advice;
  const final = predictedFinal(p.score, p.remaining, p.value, p.toMove);
  return `${advice}. ${capitalized(finalInWords(final, e.players, p.unowned))}.`;
}

/** An abstract endgame's value for its controller: "Endgame 3+4l: … (controller's margins)" (`facts`: endgameFacts). */
export function endgameLine(components: string, facts: string): string {
  return `Endgame ${components}: ${facts} (controller's margins)`;
}

/** The loony endgame's components: "Components: 3, 4l" (`list`: listed already). */
export function componentsLine(list: string): string {
  return `Components: ${list}`;
}

/** The header row of the hover's table of an endgame's openings (a Markdown table row). */
export const OPENING_TABLE_HEADER = '| open | v(G;C) | controller | |';

/** The mark of an optimal opening in that table. */
export const OPTIMAL_OPENING = 'optimal';

/** After an opening: "Keep control: +1 · take all: -2 → keep control". */
export function decisionLine(d: NonNullable<PositionReport['decision']>): string {
  const best = d.best === 'either' ? 'either is optimal' : decisionWords(d.best);
  return `Keep control: ${d.keep === null ? 'not possible' : signed(d.keep)} · take all: ${signed(d.all)} → ${best}`;
}
