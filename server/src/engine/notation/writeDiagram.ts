/**
 * The diagram writer, the reader's inverse (diagram.ts, docs/notation.md §6): a position as dot rows
 * (`+---+   +`) and box rows (`| A |   |`), top row first, each complete box marked with its
 * owner's initial. For editors that show text only (the language server's dab.showPosition).
 */
import type { BoardState } from '../board/state';

/**
 * The rows of a diagram of `state`; `players` give the owners' initials (when both players share
 * one, or one's is not a letter or digit of one UTF-16 unit, the boxes are marked 1 and 2: the reader keeps them as labels).
 */
export function writeDiagram(state: BoardState, players: [string, string]): string[] {
  const g = state.geometry;
  // a whole character (not half a surrogate pair), and a letter or digit (a `|` would read as a line)
  // of one UTF-16 unit: the reader counts columns in those units, so `𝔄` (two) would shift the row
  const a = Array.from(players[0])[0] ?? '',
    b = Array.from(players[1])[0] ?? '';
  const usable = (c: string) => c.length === 1 && /^[\p{L}\p{N}]$/u.test(c);
  const marks = usable(a) && usable(b) && a.toLowerCase() !== b.toLowerCase() ? [a, b] : ['1', '2'];
  const rows: string[] = [];
  for (let y = g.height; y >= 0; y--) {
    let dots = '+';
    for (let x = 0; x < g.width; x++) dots += `${state.drawn[g.hLine(x, y)] ? '---' : '   '}+`;
    rows.push(dots);
    if (y === 0) break;
    let boxes = '';
    for (let x = 0; x <= g.width; x++) {
      boxes += state.drawn[g.vLine(x, y - 1)] ? '|' : ' ';
      if (x === g.width) break;
      const owner = state.owner[g.box(x, y - 1)];
      boxes += ` ${owner === 0 || owner === 1 ? marks[owner] : ' '} `;
    }
    rows.push(boxes.trimEnd());
  }
  return rows;
}
