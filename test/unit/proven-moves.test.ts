// Moves proven optimal where not every move was searched (analysis/evaluation.ts provenBestMove):
// what the best continuation, the quick fix and "Play it out" follow. Checked against brute force.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { provenBestMove, type Evaluation } from '../../server/src/engine/analysis/evaluation';
import { bestContinuation } from '../../server/src/engine/analysis/evaluatePosition';
import { bruteForce } from '../../server/src/engine/solver';
import type { BoardState } from '../../server/src/engine/board/state';
import { playedPosition } from '../support/boards';
import { analyzeText } from '../../server/src/engine/analysis/analyzeDocument';
import { boardValueText } from '../../server/src/engine/phrasebook';
import { boardView } from '../../server/src/features/boardViewRequest';
import { mulberry32 } from '../support/random';

const exact = (v: number, o: Partial<Evaluation> = {}): Evaluation => ({
  status: 'exact',
  method: 'search',
  value: v,
  lower: v,
  upper: v,
  best: [],
  ...o,
});

test('provenBestMove: the least optimal move, else the least of those valued at the value and the best move so far proven to reach it', () => {
  assert.equal(provenBestMove(exact(1, { best: [7, 3] })), 3);
  const values = new Map<number, number | null>([
    [9, 1],
    [4, 1],
    [2, -1],
    [1, null],
  ]);
  assert.equal(provenBestMove(exact(1, { moveValues: values, bestSoFar: 6, bestSoFarLower: 1 })), 4);
  // the least of every move proven optimal: the valued ones and the best move so far alike
  assert.equal(provenBestMove(exact(1, { moveValues: values, bestSoFar: 0, bestSoFarLower: 1 })), 0);
  assert.equal(provenBestMove(exact(1, { moveValues: values, bestSoFar: 0, bestSoFarLower: -1 })), 4);
  assert.equal(provenBestMove(exact(1, { bestSoFar: 5, bestSoFarLower: 1 })), 5);
  assert.equal(provenBestMove(exact(1, { bestSoFar: 5, bestSoFarLower: -1 })), undefined, 'below the value');
  assert.equal(provenBestMove(exact(1, { bestSoFar: 5 })), undefined, 'an estimate');
  const unknown: Evaluation = { ...exact(1, { bestSoFar: 5, bestSoFarLower: 1 }), status: 'unknown', value: null };
  assert.equal(provenBestMove(unknown), undefined, 'no value: no optimal move');
});

test('the best continuation through proven best moves only, each optimal in truth', () => {
  const r = mulberry32(515);
  let followed = 0;
  for (let i = 0; i < 60; i++) {
    const st = playedPosition(3, 3, 10 + (i % 8), r);
    // each position exact, its optimal moves not listed: only the proven best move so far (the last optimal one)
    const known = (s: BoardState): Evaluation => {
      const bf = bruteForce(s);
      return exact(bf.value, { bestSoFar: bf.best[bf.best.length - 1], bestSoFarLower: bf.value });
    };
    const line = bestContinuation(st, known);
    const s = st.clone();
    for (const l of line) {
      const bf = bruteForce(s);
      assert.ok(bf.best.includes(l), `move ${l} is optimal`);
      s.play(l);
      followed++;
    }
    assert.ok(line.length > 0 || st.isOver());
  }
  assert.ok(followed > 200, `${followed} moves followed`);
});

test('the caption names a move proven to keep the win; the board dashes the moves proven optimal', () => {
  // a 2x2 record: every position's value unknown but its lower bound, and a best move so far proven
  // to reach the value (the brute force's), so its standing is "keeps the win" where the mover wins
  const text = 'game\n  size 2x2\n  moves a1-b1 b1-c1 a1-a2\n';
  const unknownButBounded = (st: BoardState): Evaluation => {
    const bf = bruteForce(st);
    const m = bf.best[0];
    return {
      ...exact(bf.value),
      status: 'unknown',
      value: null,
      upper: st.openBoxCount(),
      bestSoFar: m,
      bestSoFarLower: bf.value,
    };
  };
  const report = analyzeText(text, { search: unknownButBounded });
  const entry = report.entries[0];
  let keeps = 0;
  for (const p of entry.positions) {
    if (p.value !== null || !p.bestSoFar) continue;
    const lead = p.score[p.toMove] - p.score[1 - p.toMove];
    const caption = boardValueText(entry, p);
    if (lead + p.bestSoFarLower! > 0) {
      assert.match(caption, new RegExp(`${p.bestSoFar[0]} keeps the win \\(proven\\)`), caption);
      keeps++;
    } else assert.doesNotMatch(caption, /keeps the win/, caption);
  }
  assert.ok(keeps > 0);
  // exact values without their optimal moves, one proven: the board dashes it, and only it
  const exactOnly = analyzeText(text, {
    search: (st) => {
      const bf = bruteForce(st);
      return exact(bf.value, { bestSoFar: bf.best[0], bestSoFarLower: bf.value });
    },
  });
  const view = boardView(exactOnly, { uri: 'x', position: { line: 2, character: 8 }, ply: 1 });
  const st = exactOnly.entries[0].positions[1].state!;
  const bf = bruteForce(st);
  assert.deepEqual(
    view!.best.map((l) => l.name),
    [st.geometry.lineName(bf.best[0])],
  );
});
