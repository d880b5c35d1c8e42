/**
 * Exact value of a "simple loony endgame" met at a search leaf (isolated chains and loops, nothing
 * capturable), for the player to move. The theory lives in the endgame module, in one place:
 * Allcock's closed form for long chains and even loops, the memoized recursion otherwise.
 */
import { addComponent, emptyCounts, isSimpleLoony, recursionValue, statsOf, valueExplicit } from '../endgame';

/** chains and loops: component lengths (any order). Undefined when the recursion is over budget. */
export function simpleEndgameValue(chains: number[], loops: number[]): number | undefined {
  const g = emptyCounts();
  for (const n of chains) addComponent(g, { kind: 'chain', size: n });
  for (const n of loops) addComponent(g, { kind: 'loop', size: n });
  const v = isSimpleLoony(g) ? valueExplicit(statsOf(g)) : recursionValue(g, { maxStates: 200_000 });
  return v === undefined ? undefined : -v + 0;
}
