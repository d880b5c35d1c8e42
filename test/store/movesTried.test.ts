/**
 * The store remembers a search for an exact position's optimal moves that found none (`tried` of
 * an exact proof), so that a run with a warm store does not search for them again with no more time:
 * the CLI's warm run then costs no search where the cold run's ran out of time.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { mulberry32 } from '../support/random';
import { playedPosition } from '../support/boards';
import { createSolver, searchEvaluate } from '../../server/src/engine/analysis/evaluatePosition';
import type { Evaluation } from '../../server/src/engine/analysis/evaluation';
import { openProofCache } from '../../server/src/store';
import { mergeProofs } from '../../server/src/store/proofStore';
import type { Proof } from '../../server/src/store/proof';
import { createSearchCache } from '../../server/src/cli/search';
import { tempDir } from './support';

const proof = (lower: number, upper: number, best: number[], tried: number): Proof => ({
  lower,
  upper,
  best,
  moves: [],
  work: 1,
  tried,
});

test('moves tried: an exact proof keeps the longest search for its optimal moves; a bound search or found moves reset it', () => {
  // two exact proofs without moves: the longer attempt
  assert.equal((mergeProofs(proof(3, 3, [], 5000), proof(3, 3, [], 2000)) as Proof).tried, 5000);
  // a bound's search (tried 20000) that meets an exact value: says nothing of the moves
  assert.equal((mergeProofs(proof(1, 5, [], 20000), proof(3, 3, [], 0)) as Proof).tried, 0);
  assert.equal((mergeProofs(proof(3, 3, [], 700), proof(1, 5, [], 20000)) as Proof).tried, 700);
  // the moves found: nothing left to try
  assert.equal((mergeProofs(proof(3, 3, [], 5000), proof(3, 3, [4, 7], 0)) as Proof).tried, 0);
  // bounds: the longest search, as before
  assert.equal((mergeProofs(proof(-1, 5, [], 300), proof(1, 7, [], 900)) as Proof).tried, 900);
});

test('moves tried: through the store, and the CLI does not search again for the moves with no more time', () => {
  const path = join(tempDir(), 'p.sqlite');
  const solver = createSolver();
  // a 4x4 middle game with 30 undrawn lines: its optimal moves take far more than 40 ms
  const r = mulberry32(5);
  const state = playedPosition(4, 4, 30, r);
  const full = searchEvaluate(solver, state, {});
  assert.equal(full.status, 'exact');
  const valueOnly: Evaluation = { ...full, best: [], moveValues: undefined };
  const proofs = openProofCache(path)!;
  proofs.put(state, valueOnly, 0);
  assert.equal(proofs.lookup(state)?.triedMs, 0, 'an exact value alone: nothing tried for the moves');
  const cache = createSearchCache({ timeBudgetMs: 50, threads: 1 }, proofs);
  // the CLI's first attempt: 40 ms, too short to find the moves, kept with its time
  cache.prove(state, { ms: 50, moveValues: false });
  const first = cache.completeMoves(state, 40);
  assert.ok(first && first.best.length === 0, 'not found in 40 ms');
  assert.equal(proofs.lookup(state)?.triedMs, 40);
  proofs.flush();
  proofs.close();
  // another run (a fresh process's cache over the same file): 40 ms again is not searched (a search
  // would take its 40 ms: it found nothing in them before), 60 s is
  const again = openProofCache(path)!;
  const cache2 = createSearchCache({ timeBudgetMs: 50, threads: 1 }, again);
  cache2.prove(state, { ms: 50, moveValues: false });
  let t = Date.now();
  assert.equal(cache2.completeMoves(state, 40)?.best.length, 0);
  assert.ok(Date.now() - t < 40, `${Date.now() - t} ms: not searched again`);
  t = Date.now();
  const found = cache2.completeMoves(state, 60_000)!;
  assert.ok(found.best.length > 0, 'found with time');
  assert.deepEqual([...found.best].sort(), [...full.best].sort(), 'the optimal moves of a full solve');
  assert.equal(again.lookup(state)?.triedMs, 0, 'found: nothing left to try');
  assert.ok(Date.now() - t < 60_000);
  again.close();
});

test('moves tried: an ask of a fraction of a ms is kept rounded up (a warm run asking it again is answered); without a store, one run does not search twice', () => {
  const solver = createSolver();
  const state = playedPosition(4, 4, 30, mulberry32(5));
  const full = searchEvaluate(solver, state, {});
  const proofs = openProofCache(join(tempDir(), 'q.sqlite'))!;
  proofs.put(state, { ...full, best: [], moveValues: undefined }, 0);
  const cache = createSearchCache({ timeBudgetMs: 50, threads: 1 }, proofs);
  cache.prove(state, { ms: 50, moveValues: false });
  assert.equal(cache.completeMoves(state, 40.2)?.best.length, 0, 'not found in 40.2 ms');
  assert.ok(proofs.lookup(state)!.triedMs >= 40.2, `kept as ${proofs.lookup(state)!.triedMs} ms`);
  proofs.close();
  // no store: the run itself remembers the search that found nothing
  const bare = createSearchCache({ timeBudgetMs: 50, threads: 1 });
  bare.prove(state, { ms: 50, moveValues: false });
  assert.equal(bare.completeMoves(state, 40)?.best.length, 0);
  const t = Date.now();
  assert.equal(bare.completeMoves(state, 40)?.best.length, 0);
  assert.ok(Date.now() - t < 40, `${Date.now() - t} ms: not searched again`);
});
