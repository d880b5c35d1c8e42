/** The Nimstring view in words: nim-values, the chain fight, the long chain rule. */
import type { NimSummary } from '../analysis/nim';
import { listAll, plural } from './grammar';
import { NIM_VIEW_LABEL } from './proofs';

/** "0", "*2", "loony", "unknown". */
export function nimText(v: number | 'loony' | 'unknown'): string {
  return v === 'loony' ? 'loony' : v === 'unknown' ? 'unknown' : v === 0 ? '0' : `*${v}`;
}

/**
 * "Nimstring: *2 = *2 ⊕ 0 over 2 regions — Alice wins the chain fight." `valueKnown` false labels it
 * as the Nimstring view (the exact value is unknown; it ignores the score).
 */
export function nimVerdict(n: NimSummary, mover: string, valueKnown: boolean): string {
  // a lost chain fight proves the nim-value 0 (nimSummary sets it; a view from elsewhere may not)
  const nimber = n.nimber === 'unknown' && n.moverWinsChainFight === false ? 0 : n.nimber;
  const fight =
    nimber === 'unknown'
      ? n.moverWinsChainFight === true
        ? `${mover} wins the chain fight (its nim-value is not found within the budget)`
        : 'the chain fight is not solved within the budget'
      : nimber === 0
        ? `${mover} loses the chain fight (nim-value 0)`
        : nimber === 'loony'
          ? `${mover} wins the chain fight (the position is loony: what is offered can be declined)`
          : `${mover} wins the chain fight`;
  const regions =
    n.regions.length > 1
      ? ` = ${n.regions.map((r) => nimText(r.nimber)).join(' ⊕ ')} over ${n.regions.length} regions`
      : '';
  const value = nimber === 'unknown' && n.moverWinsChainFight === true ? 'not 0' : nimText(nimber);
  return `${valueKnown ? 'Nimstring' : NIM_VIEW_LABEL}: ${value}${regions} — ${fight}.`;
}

/** "Long chains now: 2, loops: 1; the long chain rule asks Alice for an even number (met now)." */
export function longChainRule(n: NimSummary, mover: string): string {
  return `Long chains now: ${n.longChains}${n.loops ? `, loops: ${n.loops}` : ''}; the long chain rule asks ${mover} for an ${n.wantsLongChains} number (${n.currentFavoursPlayerToMove ? 'met now' : 'not met now'}).`;
}

/**
 * "Moves that win the chain fight (Nimstring: the score ignored, not the best moves): a1-a2, b2-c2
 * (and 3 more)". Labelled (found by an audit): such a move may give boxes away.
 */
export function nimWinningMoves(names: string[], max: number): string {
  return `Moves that win the chain fight (Nimstring: the score ignored, not the best moves): ${listAll(names, max)}`;
}

/** "2 long chains, 1 loop". */
export function chainCount(longChains: number, loops: number): string {
  return `${plural(longChains, 'long chain')}${loops ? `, ${plural(loops, 'loop')}` : ''}`;
}
