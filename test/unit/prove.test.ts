import { test } from 'node:test';
import assert from 'node:assert/strict';
import { geometryOf } from '../../server/src/engine/board/geometry';
import { BoardState } from '../../server/src/engine/board/state';
import { Solver, bruteForce } from '../../server/src/engine/solver';
import { prove, resultOf, scoreLead, type GameResult } from '../../server/src/engine/analysis/prove';
import { loonyEndgameValue } from '../../server/src/engine/endgame';
import { mulberry32 } from '../support/random';
import { plausibleGame } from '../support/boards';

function truthResult(v: number, lead: number): GameResult {
  return lead + v > 0 ? 'win' : lead + v < 0 ? 'loss' : 'tie';
}

/** A position `ply` moves into a plausible game, with the score split at random (any split is a legal study position). */
function positionOf(w: number, h: number, seed: number, ply: number, r: () => number): BoardState {
  const lines = plausibleGame(w, h, mulberry32(seed));
  const s = new BoardState(geometryOf(w, h));
  for (const l of lines.slice(0, Math.min(ply, lines.length))) s.play(l);
  if (r() < 0.5) {
    const claimed = s.geometry.boxCount - s.openBoxCount();
    const a = Math.floor(r() * (claimed + 1));
    s.score = [a, claimed - a];
  }
  return s;
}

test('prove: every bound contains the brute-force value and every proven result is right (tight budgets)', () => {
  const r = mulberry32(8001);
  const solvers = [new Solver({ tableBits: 10 }), new Solver({ tableBits: 16, leafEvaluator: loonyEndgameValue })];
  const stats = { cases: 0, exact: 0, resultOnly: 0, bounded: 0, trivial: 0, optimalMove: 0, winningMove: 0 };
  const boards: [number, number, number][] = [
    // w, h, earliest ply the brute force takes in reasonable time
    [2, 2, 0],
    [3, 2, 0],
    [3, 3, 9],
    [4, 4, 25],
  ];
  for (let i = 0; i < 2400; i++) {
    // a whole 3x3 record (from ply 0) now and then: the brute force takes a second there
    const [w, h, minPly] = i % 400 === 2 ? [3, 3, 0] : boards[i % boards.length];
    const total = 2 * w * h + w + h;
    const ply = minPly + Math.floor(r() * (total - minPly));
    const st = positionOf(w, h, 100 + i, ply, r);
    const bf = bruteForce(st);
    const truth = bf.value;
    const solver = solvers[i % 2];
    if (r() < 0.2) solver.clear();
    const nodeBudget = [1, 5, 20, 100, 500, 5000][Math.floor(r() * 6)];
    const guess = Math.round((r() - 0.5) * 6);
    const p = prove(solver, st, { nodeBudget, guess, resultOnly: r() < 0.3 });
    const label = `case ${i} (${w}x${h} ply ${ply}, budget ${nodeBudget}): truth ${truth}, proof ${JSON.stringify(p)}`;
    assert.ok(p.lower <= truth && truth <= p.upper, `bound excludes the value: ${label}`);
    if (p.exact) assert.equal(p.lower, truth, label);
    const lead = scoreLead(st);
    if (p.result !== null) assert.equal(p.result, truthResult(truth, lead), `wrong result: ${label}`);
    assert.equal(p.result, resultOf(p.lower, p.upper, lead), label);
    if (p.bestSoFar !== undefined) assert.ok(!st.drawn[p.bestSoFar], label);
    if (p.provenMove) {
      // the proven move: legal, worth at least its bound, within the position's bounds
      const { line, lower } = p.provenMove;
      assert.ok(!st.drawn[line], label);
      assert.ok(bf.moveValues[line]! >= lower, `proven move worth ${bf.moveValues[line]}: ${label}`);
      assert.ok(lower <= p.upper, label);
      if (p.exact && lower === p.lower) {
        assert.ok(bf.best.includes(line), `a proven optimal move that is not: ${label}`);
        stats.optimalMove++;
      } else if (lead + lower > 0) stats.winningMove++;
    }
    stats.cases++;
    if (p.exact) stats.exact++;
    else if (p.result !== null) stats.resultOnly++;
    else if (p.upper - p.lower < 2 * st.openBoxCount()) stats.bounded++;
    else stats.trivial++;
  }
  // the budgets must really exercise bounds, not only exact values
  assert.ok(stats.resultOnly > 100, JSON.stringify(stats));
  assert.ok(stats.bounded > 50, JSON.stringify(stats));
  assert.ok(stats.exact > 300, JSON.stringify(stats));
  assert.ok(stats.optimalMove > 200 && stats.winningMove > 50, JSON.stringify(stats));
  console.log('prove cross-check:', JSON.stringify(stats));
});

test('prove: with no budget limit the value is exact and the result follows from it', () => {
  const r = mulberry32(8002);
  const solver = new Solver({ tableBits: 14 });
  for (let i = 0; i < 300; i++) {
    const st = positionOf(3, 3, 500 + i, 6 + Math.floor(r() * 18), r);
    const truth = bruteForce(st).value;
    const p = prove(solver, st, {});
    assert.ok(p.exact && p.lower === truth, `case ${i}: ${truth} vs ${JSON.stringify(p)}`);
    assert.equal(p.result, truthResult(truth, scoreLead(st)));
    assert.equal(p.stopped, undefined);
  }
});

test('prove: the result needs at most two window searches from scratch', () => {
  const r = mulberry32(8003);
  for (let i = 0; i < 200; i++) {
    const st = positionOf(3, 3, 900 + i, 8 + Math.floor(r() * 14), r);
    const p = prove(new Solver({ tableBits: 12 }), st, { resultOnly: true });
    assert.notEqual(p.result, null);
    assert.ok(p.searches <= 2, `case ${i}: ${p.searches} searches`);
  }
});

test('prove: bounds proven elsewhere are the starting window: same value, fewer window searches', () => {
  const r = mulberry32(8004);
  let saved = 0;
  for (let i = 0; i < 300; i++) {
    const st = positionOf(3, 3, 1300 + i, 6 + Math.floor(r() * 16), r);
    const truth = bruteForce(st).value;
    const R = st.openBoxCount();
    const fresh = prove(new Solver({ tableBits: 12 }), st, {});
    // true bounds from elsewhere, of the value's parity, around the value
    const lower = Math.max(-R, truth - 2 * Math.floor(r() * 3)),
      upper = Math.min(R, truth + 2 * Math.floor(r() * 3));
    const p = prove(new Solver({ tableBits: 12 }), st, { known: { lower, upper } });
    assert.ok(p.exact && p.lower === truth, `case ${i}: ${truth} vs ${JSON.stringify(p)}`);
    assert.ok(p.searches <= fresh.searches, `case ${i}: ${p.searches} > ${fresh.searches} searches`);
    if (p.searches < fresh.searches) saved++;
    // under a budget, the proof never reports less than it was given
    const q = prove(new Solver({ tableBits: 12 }), st, { known: { lower, upper }, nodeBudget: 20 });
    assert.ok(
      lower <= q.lower && q.upper <= upper && q.lower <= truth && truth <= q.upper,
      `case ${i}: ${JSON.stringify(q)}`,
    );
  }
  assert.ok(saved > 50, `known bounds saved searches in ${saved} of 300 cases`);
});
