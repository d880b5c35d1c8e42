// Chain ordering with junctions: examples 4-6 of the strategy guide "Dots" (its Rules 2-4: the order in which chains are opened),
// reconstructed from a copy whose diagrams were flattened to one line each. Each diagram below is
// checked to flatten (white space collapsed) to exactly that line, then solved exactly and
// cross-checked by bruteForce.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { geometryOf, parseLine } from '../../server/src/engine/board/geometry';
import { BoardState } from '../../server/src/engine/board/state';
import { Solver, bruteForce } from '../../server/src/engine/solver';

/** Parse a diagram with 3-character cells (`+---+`, `|`); letters inside boxes are labels. */
function fromDiagram(rows: string[]): BoardState {
  const H = (rows.length - 1) / 2,
    W = (rows[0].length - 1) / 4;
  const g = geometryOf(W, H);
  const st = new BoardState(g);
  for (let i = 0; i < rows.length; i++) {
    const y = H - Math.floor(i / 2);
    if (i % 2 === 0) {
      for (let x = 0; x < W; x++) if (rows[i][4 * x + 2] === '-') st.drawSilently(g.hLine(x, y));
    } else {
      for (let x = 0; x <= W; x++) if (rows[i][4 * x] === '|') st.drawSilently(g.vLine(x, y - 1));
    }
  }
  return st;
}

const flatten = (rows: string[]) => rows.join(' ').replace(/\s+/g, ' ').trim();

// Example 4: a 'T' graph. The 1-box (T) joins a 3-chain on its left and two 4-chains.
const T_DIAGRAM = [
  '+---+---+---+   +',
  '|     T     |   |',
  '+   +   +   +   +',
  '|   |   |       |',
  '+   +   +---+---+',
  '|   |           |',
  '+   +---+---+   +',
];
const T_FLAT = '+---+---+---+ + | T | | + + + + + | | | | + + +---+---+ | | | + +---+---+ +';

// Example 5: a 'P' graph. The 1-box (P) sits on a 7-box loop and a 4-chain.
const P_DIAGRAM = [
  '+---+---+---+---+',
  '|               |',
  '+   +---+---+   +',
  '| P             |',
  '+   +---+---+---+',
  '|               |',
  '+---+---+---+   +',
];
const P_FLAT = '+---+---+---+---+ | | + +---+---+ + | P | + +---+---+---+ | | +---+---+---+ +';

// Example 6: a 'P' graph (6-chain and 5-box loop on the 1-box P) plus a disconnected 3-chain.
const P6_DIAGRAM = [
  '+---+---+---+---+   +',
  '|     P         |   |',
  '+   +   +---+   +   +',
  '|   |           |   |',
  '+   +---+---+---+   +',
  '|               |   |',
  '+---+---+---+   +   +',
];
const P6_FLAT = '+---+---+---+---+ + | P | | + + +---+ + + | | | | + +---+---+---+ + | | | +---+---+---+ + +';

function solveAndCheck(st: BoardState) {
  const bf = bruteForce(st);
  const r = new Solver().solve(st, { moveValues: true });
  assert.equal(r.status, 'exact');
  assert.equal(r.value, bf.value);
  assert.deepEqual(r.best, bf.best);
  assert.deepEqual(r.moveValues, bf.moveValues);
  return r;
}

/** Play a labelled line ("B1 b3-b4 ...") checking the player of every move; returns the final score [A, B]. */
function playLine(
  start: BoardState,
  moves: string,
  firstIsA: boolean,
  checkOptimal?: (st: BoardState, line: number, label: string) => void,
): [number, number] {
  const st = start.clone();
  const g = st.geometry;
  st.toMove = firstIsA ? 0 : 1;
  st.score = [0, 0];
  const tokens = moves.trim().split(/\s+/);
  for (let i = 0; i < tokens.length; i += 2) {
    const label = tokens[i],
      name = tokens[i + 1];
    const who = label[0] === 'A' ? 0 : 1;
    assert.equal(st.toMove, who, `${label} ${name}: it should be ${label[0]}'s turn`);
    const p = parseLine(g, name);
    assert.ok(p.ok, name);
    if (checkOptimal) checkOptimal(st, p.line, `${label} ${name}`);
    const res = st.play(p.line);
    assert.ok(res.ok, `${label} ${name} is legal`);
  }
  assert.ok(st.isOver(), 'the line plays the game to its end');
  return [st.score[0], st.score[1]];
}

test('the reconstructed diagrams flatten to the seed text exactly', () => {
  assert.equal(flatten(T_DIAGRAM), T_FLAT);
  assert.equal(flatten(P_DIAGRAM), P_FLAT);
  assert.equal(flatten(P6_DIAGRAM), P6_FLAT);
});

test("example 4 ('T'): exact value -8 for the player to move, every line equal", () => {
  const st = fromDiagram(T_DIAGRAM);
  assert.equal(st.openBoxCount(), 12);
  const r = solveAndCheck(st);
  assert.equal(r.value, -8);
  assert.deepEqual(r.best, st.undrawnLines());
  // the seed: opening the left chain (3 boxes) and completing it leaves a single 9-chain
  const after = st.clone();
  for (const name of ['a2-b2', 'a1-b1', 'a3-b3', 'b3-b4'])
    after.drawSilently((parseLine(after.geometry, name) as { line: number }).line);
  assert.equal(after.openBoxCount(), 9);
  for (let b = 0; b < 12; b++)
    if (after.owner[b] === -1) assert.equal(after.sidesDrawn(b), 2, 'all 2-sided: one 9-chain');
});

test("example 5 ('P'): the line under P (4-chain + 8-loop) is right, above/right of P (12-chain) is worse", () => {
  const st = fromDiagram(P_DIAGRAM);
  const g = st.geometry;
  const r = solveAndCheck(st);
  const v = (name: string) => r.moveValues![(parseLine(g, name) as { line: number }).line];
  assert.equal(r.value, -8);
  assert.equal(v('a2-b2'), -8); // underneath the 1-box
  assert.equal(v('a3-b3'), -12); // above it
  assert.equal(v('b2-b3'), -12); // to its right
});

test("example 6 ('P' + disconnected 3-chain): B to move, value -5, the guide's lines and scores", () => {
  const st = fromDiagram(P6_DIAGRAM);
  const g = st.geometry;
  assert.equal(st.drawnCount, 21, '21 moves have been made');
  assert.equal(st.openBoxCount(), 15);
  const r = solveAndCheck(st);
  const v = (name: string) => r.moveValues![(parseLine(g, name) as { line: number }).line];
  // case 2 (open the connected 6-chain first) is optimal: A:B = 10:5, i.e. -5 for B to move
  assert.equal(r.value, -5);
  assert.equal(v('b3-b4'), -5);
  // case 1 (open the disconnected 3-chain first, B1 = e4-f4): A:B = 11:4
  assert.equal(v('e4-f4'), 4 - 11);
  // every line of the 6-chain is optimal; every line of the 3-chain gives 11:4; the loop lines are worse
  assert.deepEqual(
    r.best.map((l) => g.lineName(l)).sort(),
    ['a2-b2', 'a3-b3', 'b1-b2', 'b3-b4', 'c1-c2', 'd1-d2', 'd1-e1'].sort(),
  );
  for (const name of ['e1-f1', 'e2-f2', 'e3-f3', 'e4-f4']) assert.equal(v(name), -7, name);

  const solver = new Solver();
  const optimal = (s: BoardState, line: number, label: string) => {
    const res = solver.solve(s);
    assert.ok(res.best.includes(line), `${label} is an optimal move`);
  };
  // Case 2, every move optimal, final score 10:5
  const case2 =
    'B1 b3-b4 A2 a3-b3 A3 a2-b2 A4 b1-b2 A5 c1-c2 A6 d1-e1 B7 d1-d2 B8 d3-d4 A9 d3-e3 A10 d2-d3 A11 c2-c3 A12 b3-c3 A13 c3-c4 A14 e4-f4 B15 e3-f3 B16 e2-f2 B17 e1-f1';
  assert.deepEqual(playLine(st, case2, false, optimal), [10, 5]);
  // Case 2 without the double-deal (A6 takes all): 9:6, and that move costs A exactly 2 net
  const noDD =
    'B1 b3-b4 A2 a3-b3 A3 a2-b2 A4 b1-b2 A5 c1-c2 A6 d1-d2 A7 d1-e1 A8 d3-d4 B9 d3-e3 B10 d2-d3 B11 c2-c3 B12 b3-c3 B13 c3-c4 B14 e4-f4 A15 e3-f3 A16 e2-f2 A17 e1-f1';
  assert.deepEqual(playLine(st, noDD, false), [9, 6]);
  const at = st.clone();
  at.toMove = 1;
  for (const name of ['b3-b4', 'a3-b3', 'a2-b2', 'b1-b2', 'c1-c2'])
    at.play((parseLine(g, name) as { line: number }).line);
  assert.equal(at.toMove, 0, 'A to move after taking 4');
  const atA = solveAndCheck(at);
  const w = (name: string) => atA.moveValues![(parseLine(g, name) as { line: number }).line];
  assert.equal(w('d1-e1'), atA.value, 'the double-deal A6 is optimal');
  assert.equal(
    (w('d1-e1') ?? 0) - (w('d1-d2') ?? 0),
    2,
    'DD (6 more for A, 3 for B after) beats taking all by 2 boxes of margin',
  );
  // Case 1 (B opens the 3-chain; A takes control): as far as the seed labels it, then A takes the loop.
  // The guide's diagram leaves B12 and the loop lines unlabelled: B12 is one of c3-c4/d3-d4 (both open the loop).
  for (const b12 of ['c3-c4', 'd3-d4']) {
    const loopRest =
      b12 === 'c3-c4'
        ? 'A13 b3-c3 A14 c2-c3 A15 d2-d3 A16 d3-e3 A17 d3-d4'
        : 'A13 d3-e3 A14 d2-d3 A15 c2-c3 A16 b3-c3 A17 c3-c4';
    const case1 = `B1 e4-f4 A2 e3-f3 A3 e1-f1 B4 e2-f2 B5 b3-b4 A6 a3-b3 A7 a2-b2 A8 b1-b2 A9 c1-c2 A10 d1-e1 B11 d1-d2 B12 ${b12} ${loopRest}`;
    // B1 itself is B's mistake (-7 instead of -5); every later move is optimal
    const afterB1 = (s: BoardState, line: number, label: string) => {
      if (label !== 'B1 e4-f4') optimal(s, line, label);
    };
    assert.deepEqual(playLine(st, case1, false, afterB1), [11, 4], `case 1 with B12 = ${b12}`);
  }
});
