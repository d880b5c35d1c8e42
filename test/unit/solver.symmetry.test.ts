// The canonical key of a position (symmetry.ts): the same for every symmetric image, different for
// different positions, and moves carried between orientations keep their values (brute force).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { geometryOf } from '../../server/src/engine/board/geometry';
import { BoardState } from '../../server/src/engine/board/state';
import {
  bruteForce,
  canonicalPosition,
  lineFromCanonical,
  lineSymmetries,
  lineToCanonical,
} from '../../server/src/engine/solver';
import { SearchPosition } from '../../server/src/engine/solver/position';
import { mulberry32 as rng } from '../support/random';
import { randomPosition } from '../support/boards';

const sizes: [number, number][] = [
  [1, 1],
  [2, 2],
  [3, 3],
  [2, 3],
  [4, 4],
  [5, 5],
  [3, 5],
  [7, 7],
];

function image(st: BoardState, perm: Int16Array): BoardState {
  const out = new BoardState(st.geometry);
  for (let l = 0; l < st.geometry.lineCount; l++) if (st.drawn[l]) out.drawSilently(perm[l]);
  return out;
}

test('canonical key: equal on every symmetric image, the engine picks the same image', () => {
  const r = rng(31);
  const keys = new Set<string>();
  for (let i = 0; i < 800; i++) {
    const [w, h] = sizes[i % sizes.length];
    const st = randomPosition(w, h, r, 0, false);
    const g = st.geometry;
    const c = canonicalPosition(g, st.drawn);
    assert.match(c.key, new RegExp(`^${w}x${h}:[0-9a-f]+$`));
    // the canonical lines are the drawn lines mapped by the symmetry
    const mapped = g
      .allLines()
      .filter((l) => st.drawn[l])
      .map((l) => lineToCanonical(g, c.symmetry, l))
      .sort((a, b) => a - b);
    assert.deepEqual(mapped, c.lines);
    for (const l of g.allLines()) assert.equal(lineFromCanonical(g, c.symmetry, lineToCanonical(g, c.symmetry, l)), l);
    for (const p of lineSymmetries(g)) assert.equal(canonicalPosition(g, image(st, p).drawn).key, c.key);
    // the solver's incremental position chooses the same image
    const sp = new SearchPosition(g, true);
    sp.load(st);
    sp.canon();
    const words: string[] = [];
    for (let wd = sp.nw - 1; wd >= 0; wd--) words.push(sp.bits[sp.canonSym * sp.nw + wd].toString(16).padStart(8, '0'));
    assert.equal(`${w}x${h}:${words.join('')}`, c.key);
    keys.add(c.key);
  }
  assert.ok(keys.size > 300, `${keys.size} distinct keys`);
});

test('best moves carried through the canonical orientation keep their values', () => {
  const r = rng(32);
  for (let i = 0; i < 60; i++) {
    const [w, h] = i % 2 ? [3, 3] : [2, 3];
    const st = randomPosition(w, h, r, geometryOf(w, h).lineCount - 14, false);
    const g = st.geometry;
    const c = canonicalPosition(g, st.drawn);
    const canon = new BoardState(g);
    for (const l of c.lines) canon.drawSilently(l);
    const a = bruteForce(st),
      b = bruteForce(canon);
    assert.equal(a.value, b.value);
    const back = b.best.map((l) => lineFromCanonical(g, c.symmetry, l)).sort((x, y) => x - y);
    assert.deepEqual(back, a.best);
  }
});
