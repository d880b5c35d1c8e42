import { BoardGeometry } from './geometry';

/** Who owns a box: a player (0 first, 1 second), UNCLAIMED, or CLAIMED_UNKNOWN (drawn by `lines`). */
export const UNCLAIMED = -1;
export const CLAIMED_UNKNOWN = 2;
export type Player = 0 | 1;

export type PlayResult = { ok: true; completed: number[] } | { ok: false; reason: 'drawn' | 'game-over' | 'off-board' };

/**
 * A board position as players see it: drawn lines, box owners, score and the player to move.
 * Mutable on purpose (records replay thousands of moves); copy with clone().
 * The solver keeps its own compact form and converts from this one.
 */
export class BoardState {
  readonly geometry: BoardGeometry;
  readonly drawn: Uint8Array;
  readonly owner: Int8Array;
  score: [number, number];
  toMove: Player;
  drawnCount: number;

  constructor(geometry: BoardGeometry, toMove: Player = 0, score: [number, number] = [0, 0]) {
    this.geometry = geometry;
    this.drawn = new Uint8Array(geometry.lineCount);
    this.owner = new Int8Array(geometry.boxCount).fill(UNCLAIMED);
    this.score = [score[0], score[1]];
    this.toMove = toMove;
    this.drawnCount = 0;
  }

  clone(): BoardState {
    const c = new BoardState(this.geometry, this.toMove, this.score);
    c.drawn.set(this.drawn);
    c.owner.set(this.owner);
    c.drawnCount = this.drawnCount;
    return c;
  }

  isDrawn(line: number): boolean {
    return this.drawn[line] === 1;
  }

  /** Number of drawn sides of a box. */
  sidesDrawn(box: number): number {
    const bl = this.geometry.boxLines;
    return (
      this.drawn[bl[4 * box]] + this.drawn[bl[4 * box + 1]] + this.drawn[bl[4 * box + 2]] + this.drawn[bl[4 * box + 3]]
    );
  }

  isOver(): boolean {
    return this.drawnCount === this.geometry.lineCount;
  }

  /** Boxes not yet completed. */
  openBoxCount(): number {
    let n = 0;
    for (let b = 0; b < this.geometry.boxCount; b++) if (this.owner[b] === UNCLAIMED) n++;
    return n;
  }

  undrawnLines(): number[] {
    const out: number[] = [];
    for (let l = 0; l < this.geometry.lineCount; l++) if (!this.drawn[l]) out.push(l);
    return out;
  }

  /**
   * Draw a line for the player to move: completed boxes go to them and they move again;
   * otherwise the turn passes.
   */
  play(line: number): PlayResult {
    if (line < 0 || line >= this.geometry.lineCount) return { ok: false, reason: 'off-board' };
    if (this.isOver()) return { ok: false, reason: 'game-over' };
    if (this.drawn[line]) return { ok: false, reason: 'drawn' };
    const completed = this.drawSilently(line, this.toMove);
    if (completed.length > 0) this.score[this.toMove] += completed.length;
    else this.toMove = (1 - this.toMove) as Player;
    return { ok: true, completed };
  }

  /**
   * Draw a line as setup (`lines` field, diagram): completed boxes get `owner`
   * (CLAIMED_UNKNOWN unless the diagram names the owner); the turn does not change.
   */
  drawSilently(line: number, owner: number = CLAIMED_UNKNOWN): number[] {
    const completed: number[] = [];
    if (this.drawn[line]) return completed;
    this.drawn[line] = 1;
    this.drawnCount++;
    const lb = this.geometry.lineBoxes;
    for (let k = 0; k < 2; k++) {
      const b = lb[2 * line + k];
      if (b >= 0 && this.owner[b] === UNCLAIMED && this.sidesDrawn(b) === 4) {
        this.owner[b] = owner;
        completed.push(b);
      }
    }
    return completed;
  }

  /** A stable text key of the drawn lines (for caches shared between positions of a record). */
  key(): string {
    let s = `${this.geometry.width}x${this.geometry.height}:`;
    for (let i = 0; i < this.drawn.length; i += 4) {
      s += (
        (this.drawn[i] | (this.drawn[i + 1] << 1) | (this.drawn[i + 2] << 2) | (this.drawn[i + 3] << 3)) &
        15
      ).toString(16);
    }
    return s;
  }
}
