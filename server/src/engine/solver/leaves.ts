/**
 * Exact values at search leaves: positions where no unclaimed box has fewer than 2 sides drawn.
 *  - simple(): every unclaimed box has exactly 2 sides (isolated chains and loops, nothing
 *    capturable): the endgame module's closed form / recursion (simple.ts);
 *  - external(): a pluggable evaluator (default: the endgame module's loonyEndgameValue), which
 *    also takes positions with 3-boxes; it may decline (undefined).
 */
import { BoardState, CLAIMED_UNKNOWN, UNCLAIMED } from '../board/state';
import type { SearchPosition } from './position';
import { simpleEndgameValue } from './simple';
import type { LeafEvaluator } from './types';

export class LeafValues {
  private readonly p: SearchPosition;
  private readonly visited: Uint8Array;
  private readonly chains: number[] = [];
  private readonly loops: number[] = [];
  private readonly scratch: BoardState;

  constructor(p: SearchPosition) {
    this.p = p;
    this.visited = new Uint8Array(p.B);
    this.scratch = new BoardState(p.g);
  }

  /** The evaluator's value of the position (converted to a BoardState with the player to move 0). */
  external(leaf: LeafEvaluator): number | undefined {
    const p = this.p,
      st = this.scratch;
    let drawn = 0;
    for (let l = 0; l < p.L; l++) {
      const d = p.isDrawn(l) ? 1 : 0;
      st.drawn[l] = d;
      drawn += d;
    }
    st.drawnCount = drawn;
    for (let b = 0; b < p.B; b++) st.owner[b] = p.sides[b] === 4 ? CLAIMED_UNKNOWN : UNCLAIMED;
    st.score[0] = 0;
    st.score[1] = 0;
    st.toMove = 0;
    return leaf(st);
  }

  /** Every unclaimed box has exactly 2 sides: split into chains and loops and evaluate. */
  simple(): number | undefined {
    const p = this.p,
      chains = this.chains,
      loops = this.loops,
      visited = this.visited;
    chains.length = 0;
    loops.length = 0;
    visited.fill(0);
    for (let b = 0; b < p.B; b++) {
      if (p.sides[b] !== 2 || visited[b]) continue;
      visited[b] = 1;
      const s1 = p.missingSide(b, -1),
        s2 = p.missingSide(b, s1);
      const a = this.walk(b, s1);
      if (a < 0) {
        loops.push(this.countLoop(b, s1));
        continue;
      }
      const c = this.walk(b, s2);
      chains.push(1 + a + c);
    }
    return simpleEndgameValue(chains, loops);
  }

  /** Walk from box b through its undrawn side `via`; boxes met before the edge, or -1 when back at b (a loop). */
  private walk(b: number, via: number): number {
    const p = this.p;
    let n = 0,
      cur = b,
      line = via;
    for (;;) {
      const next = p.across(line, cur);
      if (next < 0) return n;
      if (next === b) return -1;
      this.visited[next] = 1;
      n++;
      line = p.missingSide(next, line);
      cur = next;
    }
  }

  private countLoop(b: number, s1: number): number {
    const p = this.p;
    let n = 1,
      cur = b,
      line = s1;
    for (;;) {
      const next = p.across(line, cur);
      if (next === b) return n;
      n++;
      line = p.missingSide(next, line);
      cur = next;
    }
  }
}
