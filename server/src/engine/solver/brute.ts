/**
 * The oracle: a plain memoized exhaustive minimax over every undrawn line, no pruning tricks.
 * Memo is indexed by the subset of the root position's undrawn lines that have been drawn since.
 * Obviously correct and deliberately simple; used by the tests and as the bench baseline.
 */
import { BoardState } from '../board/state';

export interface BruteForceResult {
  /** Net boxes of the remaining boxes for the player to move under best play. */
  value: number;
  /** Every optimal move (line indices, ascending). */
  best: number[];
  /** moveValues[line] = value of drawing `line` now (for the player to move), null for drawn lines. */
  moveValues: (number | null)[];
  /** Distinct positions evaluated (memo entries filled). */
  nodes: number;
}

/** The largest number of undrawn lines bruteForce accepts (memo of 2^n bytes). */
export const BRUTE_FORCE_MAX_UNDRAWN = 26;

export function bruteForce(state: BoardState): BruteForceResult {
  const g = state.geometry;
  const drawn = Uint8Array.from(state.drawn);
  const undrawn: number[] = [];
  for (let l = 0; l < g.lineCount; l++) if (!drawn[l]) undrawn.push(l);
  const u = undrawn.length;
  if (u > BRUTE_FORCE_MAX_UNDRAWN)
    throw new RangeError(`bruteForce: ${u} undrawn lines is too many (max ${BRUTE_FORCE_MAX_UNDRAWN})`);
  const memo = new Int8Array(1 << u).fill(-128);
  const bl = g.boxLines,
    lb = g.lineBoxes;
  let nodes = 0;

  const complete = (b: number): boolean =>
    drawn[bl[4 * b]] === 1 && drawn[bl[4 * b + 1]] === 1 && drawn[bl[4 * b + 2]] === 1 && drawn[bl[4 * b + 3]] === 1;

  /** Boxes completed by drawing `line` (which must be undrawn); draws it. */
  const draw = (line: number): number => {
    drawn[line] = 1;
    let c = 0;
    for (let k = 0; k < 2; k++) {
      const b = lb[2 * line + k];
      if (b >= 0 && complete(b)) c++;
    }
    return c;
  };

  const valueOfMove = (mask: number, i: number): number => {
    const line = undrawn[i];
    const c = draw(line);
    const child = mask | (1 << i);
    const v = c > 0 ? c + f(child) : 0 - f(child);
    drawn[line] = 0;
    return v;
  };

  function f(mask: number): number {
    const m = memo[mask];
    if (m !== -128) return m;
    nodes++;
    let best = -1000;
    let any = false;
    for (let i = 0; i < u; i++) {
      if (mask & (1 << i)) continue;
      any = true;
      const v = valueOfMove(mask, i);
      if (v > best) best = v;
    }
    if (!any) best = 0;
    memo[mask] = best;
    return best;
  }

  const moveValues: (number | null)[] = new Array(g.lineCount).fill(null);
  let value = u === 0 ? 0 : -1000;
  for (let i = 0; i < u; i++) {
    const v = valueOfMove(0, i);
    moveValues[undrawn[i]] = v;
    if (v > value) value = v;
  }
  const best = undrawn.filter((l) => moveValues[l] === value);
  return { value, best, moveValues, nodes };
}
