/** Random board positions for tests and benches. */
import { geometryOf } from '../../server/src/engine/board/geometry';
import { BoardState } from '../../server/src/engine/board/state';

/**
 * At least `minDrawn` random lines drawn on a w x h board. `quiet`: never give a box a third side,
 * so the position is not loony and Nimstring values are richer.
 */
export function randomPosition(w: number, h: number, r: () => number, minDrawn: number, quiet: boolean): BoardState {
  const g = geometryOf(w, h);
  const s = new BoardState(g);
  const k = minDrawn + Math.floor(r() * (g.lineCount - minDrawn + 1));
  const order = g
    .allLines()
    .map((l) => [r(), l])
    .sort((a, b) => a[0] - b[0])
    .map((p) => p[1]);
  let drawn = 0;
  for (const l of order) {
    if (drawn >= k) break;
    if (quiet && g.boxesOfLine(l).some((b) => s.sidesDrawn(b) === 2)) continue;
    s.drawSilently(l);
    drawn++;
  }
  return s;
}

/** Cautious random play (no box given away while avoidable) until `undrawn` lines are left. */
export function playedPosition(w: number, h: number, undrawn: number, r: () => number): BoardState {
  const g = geometryOf(w, h);
  const st = new BoardState(g);
  while (g.lineCount - st.drawnCount > undrawn) {
    const all = st.undrawnLines();
    const safe = all.filter((l) => !g.boxesOfLine(l).some((b) => st.sidesDrawn(b) === 2));
    const pool = safe.length > 0 ? safe : all;
    st.play(pool[Math.floor(r() * pool.length)]);
  }
  return st;
}

/**
 * A plausible game on a w x h board (boxes), as lines in order: captures when possible, otherwise
 * a move that gives nothing away, otherwise any move (the issue-8 generator), at most `maxMoves`.
 */
export function plausibleGame(w: number, h: number, r: () => number, maxMoves = Infinity): number[] {
  const g = geometryOf(w, h);
  const s = new BoardState(g);
  const lines: number[] = [];
  while (!s.isOver() && lines.length < maxMoves) {
    const undrawn = s.undrawnLines();
    const safe = undrawn.filter((l) => g.boxesOfLine(l).every((b) => s.sidesDrawn(b) < 2));
    const capture = undrawn.filter((l) => g.boxesOfLine(l).some((b) => s.sidesDrawn(b) === 3));
    const pool = capture.length ? capture : safe.length ? safe : undrawn;
    const l = pool[Math.floor(r() * pool.length)];
    lines.push(l);
    s.play(l);
  }
  return lines;
}

/** The same as a `.dab` record. */
export function plausibleRecord(w: number, h: number, maxMoves: number, r: () => number, title = 'plausible'): string {
  const g = geometryOf(w, h);
  const moves = plausibleGame(w, h, r, maxMoves).map((l) => g.lineName(l));
  return `game "${title}"\n  size ${w}x${h}\n  moves ${moves.join(' ')}\n`;
}
