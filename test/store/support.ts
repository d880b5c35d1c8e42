/** Shared checks of the proof store tests: everything a store holds must equal a fresh solve. */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ProofStore } from '../../server/src/store';
import { fromRow, positionOfKey } from '../../server/src/store/proof';
import { createSolver, searchEvaluate } from '../../server/src/engine/analysis/evaluatePosition';
import { bruteForce, BRUTE_FORCE_MAX_UNDRAWN } from '../../server/src/engine/solver';

export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'dab-store-test-'));
}

/** Every record of the store at `path` (read through an export, which checks each one). */
export function records(path: string) {
  const warnings: string[] = [];
  const store = ProofStore.open(path, { onWarning: (w) => warnings.push(w) });
  assert.ok(store.usable, `store ${path} opens: ${warnings.join(' | ')}`);
  const file = join(tempDir(), 'export.jsonl');
  store.exportTo(file);
  store.close();
  const lines = readFileSync(file, 'utf8').trim().split('\n').slice(1);
  return lines.map((l) => {
    const r = fromRow(JSON.parse(l));
    assert.ok(typeof r !== 'string', `record passes its check: ${r}`);
    return r;
  });
}

const solver = createSolver();

/** Assert that a stored proof agrees with a fresh solve (and brute force where it reaches). */
export function assertTrue(
  key: string,
  p: { lower: number; upper: number; best: number[]; moves: [number, number][] },
) {
  const s = positionOfKey(key);
  assert.ok(typeof s !== 'string', `key ${key} is valid`);
  const fresh = searchEvaluate(solver, s, {});
  assert.equal(fresh.status, 'exact');
  const v = fresh.value!;
  assert.ok(p.lower <= v && v <= p.upper, `${key}: stored bounds [${p.lower}, ${p.upper}] hold the value ${v}`);
  if (p.lower === p.upper && p.best.length > 0) assert.deepEqual(p.best, fresh.best, `${key}: best moves`);
  for (const [l, mv] of p.moves) assert.equal(mv, fresh.moveValues!.get(l), `${key}: value of move ${l}`);
  if (s.undrawnLines().length <= Math.min(18, BRUTE_FORCE_MAX_UNDRAWN)) {
    assert.equal(bruteForce(s).value, v, `${key}: solver agrees with brute force`);
  }
}
