// Moves proven optimal where not every move was searched (analysis/evaluation.ts provenBestMove):
// what the best continuation, the quick fix and "Play it out" follow. Checked against brute force.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { provenBestMove, type Evaluation } from '../../server/src/engine/analysis/evaluation';
import { bestContinuation } from '../../server/src/engine/analysis/evaluatePosition';
import { bruteForce } from '../../server/src/engine/solver';
import type { BoardState } from '../../server/src/engine/board/state';
import { playedPosition } from '../support/boards';
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

test('provenBestMove: the optimal moves, else a move valued at the value, else the best move so far proven to reach it', () => {
  assert.equal(provenBestMove(exact(1, { best: [7, 3] })), 3);
  const values = new Map<number, number | null>([
    [9, 1],
    [4, 1],
    [2, -1],
    [1, null],
  ]);
  assert.equal(provenBestMove(exact(1, { moveValues: values, bestSoFar: 0, bestSoFarLower: 1 })), 4);
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
