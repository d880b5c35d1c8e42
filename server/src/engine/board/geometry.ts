/**
 * Board geometry: how lines, dots and boxes of a W x H board (counted in boxes) are numbered
 * and named. Pure and allocation-free after construction; every other engine module asks here.
 *
 * Numbering (stable, relied on by the solver's bit sets):
 *   horizontal line (x, y), x in [0, W), y in [0, H]   -> index y * W + x
 *   vertical   line (x, y), x in [0, W], y in [0, H)   -> index W * (H + 1) + y * (W + 1) + x
 *   box (x, y), x in [0, W), y in [0, H)               -> index y * W + x
 * (x counts columns from the left, y rows from the bottom; a line is named by its lower-left dot.)
 */

import { MAX_SIDE, MIN_SIDE } from '../limits';

export interface Dot {
  x: number;
  y: number;
}

export class BoardGeometry {
  readonly width: number;
  readonly height: number;
  readonly lineCount: number;
  readonly boxCount: number;
  readonly horizontalCount: number;
  /** boxLines[4*b .. 4*b+3] = bottom, top, left, right line of box b. */
  readonly boxLines: Int16Array;
  /** lineBoxes[2*l], lineBoxes[2*l+1] = the boxes on either side of line l, or -1 at the edge. */
  readonly lineBoxes: Int16Array;

  constructor(width: number, height: number) {
    if (
      !Number.isInteger(width) ||
      !Number.isInteger(height) ||
      width < MIN_SIDE ||
      height < MIN_SIDE ||
      width > MAX_SIDE ||
      height > MAX_SIDE
    ) {
      throw new RangeError(`board size ${width}x${height} is outside 1x1 .. ${MAX_SIDE}x${MAX_SIDE}`);
    }
    this.width = width;
    this.height = height;
    this.horizontalCount = width * (height + 1);
    this.lineCount = this.horizontalCount + (width + 1) * height;
    this.boxCount = width * height;
    this.boxLines = new Int16Array(4 * this.boxCount);
    this.lineBoxes = new Int16Array(2 * this.lineCount).fill(-1);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const b = this.box(x, y);
        const sides = [this.hLine(x, y), this.hLine(x, y + 1), this.vLine(x, y), this.vLine(x + 1, y)];
        for (let k = 0; k < 4; k++) {
          const l = sides[k];
          this.boxLines[4 * b + k] = l;
          const slot = this.lineBoxes[2 * l] === -1 ? 0 : 1;
          this.lineBoxes[2 * l + slot] = b;
        }
      }
    }
  }

  hLine(x: number, y: number): number {
    return y * this.width + x;
  }
  vLine(x: number, y: number): number {
    return this.horizontalCount + y * (this.width + 1) + x;
  }
  box(x: number, y: number): number {
    return y * this.width + x;
  }
  boxX(b: number): number {
    return b % this.width;
  }
  boxY(b: number): number {
    return Math.floor(b / this.width);
  }

  isHorizontal(line: number): boolean {
    return line < this.horizontalCount;
  }

  /** The lower-left dot of a line and the other dot. */
  lineDots(line: number): [Dot, Dot] {
    if (line < this.horizontalCount) {
      const x = line % this.width,
        y = Math.floor(line / this.width);
      return [
        { x, y },
        { x: x + 1, y },
      ];
    }
    const r = line - this.horizontalCount;
    const x = r % (this.width + 1),
      y = Math.floor(r / (this.width + 1));
    return [
      { x, y },
      { x, y: y + 1 },
    ];
  }

  /** The boxes a line borders (one at the edge of the board, otherwise two). */
  boxesOfLine(line: number): number[] {
    const out: number[] = [];
    if (this.lineBoxes[2 * line] >= 0) out.push(this.lineBoxes[2 * line]);
    if (this.lineBoxes[2 * line + 1] >= 0) out.push(this.lineBoxes[2 * line + 1]);
    return out;
  }

  linesOfBox(box: number): number[] {
    return Array.from(this.boxLines.subarray(4 * box, 4 * box + 4));
  }

  /** The line joining two dots, or undefined when they are not adjacent or off the board. */
  lineBetween(a: Dot, b: Dot): number | undefined {
    if (!this.hasDot(a) || !this.hasDot(b)) return undefined;
    if (a.y === b.y && Math.abs(a.x - b.x) === 1) return this.hLine(Math.min(a.x, b.x), a.y);
    if (a.x === b.x && Math.abs(a.y - b.y) === 1) return this.vLine(a.x, Math.min(a.y, b.y));
    return undefined;
  }

  hasDot(d: Dot): boolean {
    return d.x >= 0 && d.y >= 0 && d.x <= this.width && d.y <= this.height;
  }

  /** Canonical name of a line: `a1-b1`, `a1-a2` (lower-left dot first). */
  lineName(line: number): string {
    const [a, b] = this.lineDots(line);
    return `${dotName(a)}-${dotName(b)}`;
  }

  /** A box is named by its lower-left dot. */
  boxName(box: number): string {
    return dotName({ x: this.boxX(box), y: this.boxY(box) });
  }

  /** Littlegolem code of a line: h|v, dot row letter (a = bottom), dot column letter. */
  littlegolemCode(line: number): string {
    const [a] = this.lineDots(line);
    return (this.isHorizontal(line) ? 'h' : 'v') + String.fromCharCode(97 + a.y) + String.fromCharCode(97 + a.x);
  }

  /** Every line, in index order; handy for tests and search move generation. */
  allLines(): number[] {
    return Array.from({ length: this.lineCount }, (_, i) => i);
  }
}

/** Column letter of dot column x (a = leftmost); boards are at most MAX_SIDE wide, so one letter. */
export function columnName(x: number): string {
  return String.fromCharCode(97 + x);
}

/** Row number of dot row y (1 = bottom). */
export function rowName(y: number): string {
  return String(y + 1);
}

export function dotName(d: Dot): string {
  return columnName(d.x) + rowName(d.y);
}

/** Parse a dot name such as `c4`; column letters a..z, rows 1..99. Undefined when malformed. */
export function parseDot(text: string): Dot | undefined {
  const m = /^([a-zA-Z])([0-9]{1,2})$/.exec(text);
  if (!m) return undefined;
  const y = Number(m[2]) - 1;
  if (y < 0) return undefined;
  return { x: m[1].toLowerCase().charCodeAt(0) - 97, y };
}

export type LineParse = { ok: true; line: number } | { ok: false; message: string };

/**
 * Parse a written line: `a1-b1`, `b1-a1`, `a1b1` or a littlegolem code `haa`/`vab`.
 * Errors say why (off the board, not adjacent, malformed), for diagnostics.
 */
export function parseLine(geometry: BoardGeometry, text: string): LineParse {
  const lg = /^([hv])([a-z])([a-z])$/i.exec(text);
  if (lg) {
    const y = lg[2].toLowerCase().charCodeAt(0) - 97,
      x = lg[3].toLowerCase().charCodeAt(0) - 97;
    const from = { x, y };
    const to = lg[1].toLowerCase() === 'h' ? { x: x + 1, y } : { x, y: y + 1 };
    const line = geometry.lineBetween(from, to);
    if (line === undefined)
      return {
        ok: false,
        message: `littlegolem move '${text}' (${dotName(from)}-${dotName(to)}) is off the ${geometry.width}x${geometry.height} board`,
      };
    return { ok: true, line };
  }
  const m = /^([a-zA-Z][0-9]{1,2})-?([a-zA-Z][0-9]{1,2})$/.exec(text);
  if (!m)
    return {
      ok: false,
      message: `'${text}' is not a line: write two adjacent dots like a1-b1, or a littlegolem code like haa`,
    };
  const a = parseDot(m[1]),
    b = parseDot(m[2]);
  if (!a || !b)
    return { ok: false, message: `'${text}' names no dot: rows are numbered from 1 (a1 is the bottom-left dot)` };
  for (const d of [a, b]) {
    if (!geometry.hasDot(d)) {
      return {
        ok: false,
        message: `dot ${dotName(d)} is off the ${geometry.width}x${geometry.height} board (dots a1..${dotName({ x: geometry.width, y: geometry.height })})`,
      };
    }
  }
  const line = geometry.lineBetween(a, b);
  if (line === undefined) return { ok: false, message: `${dotName(a)} and ${dotName(b)} are not adjacent dots` };
  return { ok: true, line };
}

const geometryCache = new Map<string, BoardGeometry>();
/** Shared, immutable geometry per size. */
export function geometryOf(width: number, height: number): BoardGeometry {
  const key = `${width}x${height}`;
  let g = geometryCache.get(key);
  if (!g) {
    g = new BoardGeometry(width, height);
    geometryCache.set(key, g);
  }
  return g;
}
