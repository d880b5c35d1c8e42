/**
 * Symmetries of a W x H board as permutations of line indices: the 4 of a rectangle (identity,
 * left-right mirror, top-bottom mirror, half turn) and, on a square, the 4 more that swap axes.
 */
import { BoardGeometry, Dot } from '../board/geometry';

export function lineSymmetries(g: BoardGeometry): Int16Array[] {
  const W = g.width,
    H = g.height;
  const maps: ((d: Dot) => Dot)[] = [
    (d) => d,
    (d) => ({ x: W - d.x, y: d.y }),
    (d) => ({ x: d.x, y: H - d.y }),
    (d) => ({ x: W - d.x, y: H - d.y }),
  ];
  if (W === H) {
    maps.push(
      (d) => ({ x: d.y, y: d.x }),
      (d) => ({ x: W - d.y, y: H - d.x }),
      (d) => ({ x: d.y, y: H - d.x }),
      (d) => ({ x: W - d.y, y: d.x }),
    );
  }
  return maps.map((m) => {
    const perm = new Int16Array(g.lineCount);
    for (let l = 0; l < g.lineCount; l++) {
      const [a, b] = g.lineDots(l);
      const img = g.lineBetween(m(a), m(b));
      if (img === undefined) throw new Error('symmetry maps a line off the board');
      perm[l] = img;
    }
    return perm;
  });
}
