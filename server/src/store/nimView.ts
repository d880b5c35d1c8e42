/**
 * Stored Nimstring views (table `nims`: key = the position's own drawn lines, no symmetry; budget =
 * regions the computation was allowed; view = the NimSummary as JSON; crc). A view is checked for
 * shape and for lines and boxes that exist on the board before it is used.
 */
import type { BoardState } from '../engine/board/state';
import { nimKnowledge, type NimSummary } from '../engine/analysis/nim';

const isNimber = (v: unknown) => v === 'loony' || v === 'unknown' || (Number.isInteger(v) && (v as number) >= 0);
const isCount = (v: unknown) => Number.isInteger(v) && (v as number) >= 0;

export function checkNimView(state: BoardState, text: string): NimSummary | undefined {
  const n = parseNimView(text);
  if (!n) return undefined;
  const g = state.geometry;
  for (const r of n.regions)
    if (!r.boxes.every((b) => Number.isInteger(b) && b >= 0 && b < g.boxCount)) return undefined;
  if (n.winningMoves !== undefined) {
    if (!Array.isArray(n.winningMoves)) return undefined;
    if (!n.winningMoves.every((l) => Number.isInteger(l) && l >= 0 && l < g.lineCount && !state.drawn[l]))
      return undefined;
  }
  return n;
}

/** A view's JSON, checked for shape and for agreement with itself (everything but the board); else undefined. */
function parseNimView(text: string): NimSummary | undefined {
  let n: NimSummary;
  try {
    n = JSON.parse(text) as NimSummary;
  } catch {
    return undefined;
  }
  if (typeof n !== 'object' || n === null || !isNimber(n.nimber)) return undefined;
  if (!isCount(n.longChains) || !isCount(n.loops)) return undefined;
  if (n.wantsLongChains !== 'even' && n.wantsLongChains !== 'odd') return undefined;
  if (typeof n.currentFavoursPlayerToMove !== 'boolean' || !Array.isArray(n.regions)) return undefined;
  // the chain fight, when given, is a boolean that agrees with a known nim-value
  if (n.moverWinsChainFight !== undefined) {
    if (typeof n.moverWinsChainFight !== 'boolean') return undefined;
    if (n.nimber !== 'unknown' && n.moverWinsChainFight !== (n.nimber !== 0)) return undefined;
  }
  for (const r of n.regions)
    if (typeof r !== 'object' || r === null || !isNimber(r.nimber) || !Array.isArray(r.boxes)) return undefined;
  // regions whose values are all known add up (nim-sum) to the position's value and decide the fight
  if (n.regions.every((r) => typeof r.nimber === 'number')) {
    const sum = n.regions.reduce((x, r) => x ^ (r.nimber as number), 0);
    if (typeof n.nimber === 'number' && n.nimber !== sum) return undefined;
    if (n.moverWinsChainFight !== undefined && n.moverWinsChainFight !== (sum !== 0)) return undefined;
  }
  return n;
}

/**
 * What a stored view knows (nimKnowledge), read from its JSON without the position (a flush compares
 * it with the view it would write); -1 when the text is not a view, or one that contradicts itself.
 */
export function storedNimKnowledge(text: string): number {
  // a view the reader would refuse blocks nothing
  const n = parseNimView(text);
  return n ? nimKnowledge(n) : -1;
}
