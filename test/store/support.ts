/** Shared checks of the proof store tests: everything a store holds must equal a fresh solve. */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { mulberry32 } from '../support/random';
import { plausibleRecord } from '../support/boards';
import { ProofStore } from '../../server/src/store';
import { fromRow, fromStoredRow, positionOfKey } from '../../server/src/store/proof';
import { Database } from 'node-sqlite3-wasm';
import { createSolver, searchEvaluate } from '../../server/src/engine/analysis/evaluatePosition';
import { bruteForce, BRUTE_FORCE_MAX_UNDRAWN } from '../../server/src/engine/solver';

export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'dab-store-test-'));
}

/**
 * Every record of the store at `path`, read through an export, which checks each one; `failed`:
 * with the records of failed attempts (bounds of ±the boxes left, which an export leaves out),
 * read from the file with the same checks.
 */
export function records(path: string, failed = false) {
  if (failed) {
    const db = new Database(path, { readOnly: true });
    try {
      return db
        .all(
          'SELECT p.*, e.line AS e_line, e.work AS e_work, e.crc AS e_crc FROM proofs p LEFT JOIN estimates e ON e.key = p.key',
        )
        .map((raw) => {
          const r = fromStoredRow(raw as Record<string, unknown>);
          assert.ok(typeof r !== 'string', `record passes its check: ${r}`);
          return r;
        });
    } finally {
      db.close();
    }
  }
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

/**
 * `dab analyze --json --budget-ms budgetMs` (and `flags`) twice on one plausible 5x5 record (60
 * moves, `seed`) with one fresh store: the cold run's and the warm run's output, the warm run's wall
 * time, and the store's path.
 */
export function analyzeColdThenWarm(
  seed: number,
  budgetMs: number,
  flags: string[] = [],
): { path: string; cold: string; warm: string; warmMs: number } {
  const dir = tempDir();
  const path = join(dir, 'p.sqlite');
  const file = join(dir, 'r.dab');
  writeFileSync(file, plausibleRecord(5, 5, 60, mulberry32(seed), `plausible 5x5 #${seed}`));
  const cli = join(resolve(import.meta.dirname, '..', '..'), 'bin', 'dab.js');
  const run = () => {
    const r = spawnSync(
      process.execPath,
      [cli, 'analyze', '--json', '--budget-ms', String(budgetMs), ...flags, '--store', path, file],
      { encoding: 'utf8', maxBuffer: 64 << 20 },
    );
    assert.equal(r.status, 0, r.stderr);
    return r.stdout;
  };
  const cold = run();
  const t0 = Date.now();
  const warm = run();
  return { path, cold, warm, warmMs: Date.now() - t0 };
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
