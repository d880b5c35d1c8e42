/**
 * The proof store: plausible 5x5 records analysed by the CLI twice against one store — cold (an
 * empty store: what dab did before the store) and warm (the same records again) — with wall times,
 * their ratio and whether every answer (the whole --json output) is identical. The per-position
 * budget is DAB_BENCH_STORE_MS (default 500 ms; a warm rerun with the same budget reuses the bounds
 * an attempt could not narrow). Records: DAB_BENCH_STORE_RECORDS (default 2).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lcg } from '../test/support/random';
import { plausibleRecord } from '../test/support/boards';

const ROOT = join(__dirname, '..');

function run(file: string, store: string, budgetMs: number): { ms: number; out: string } {
  const t = performance.now();
  const r = spawnSync(
    process.execPath,
    [join(ROOT, 'bin', 'dab.js'), 'analyze', '--json', '--budget-ms', String(budgetMs), '--store', store, file],
    { encoding: 'utf8', maxBuffer: 1 << 28 },
  );
  if (r.status !== 0 && r.status !== 1) throw new Error(`dab failed: ${r.stderr}`);
  return { ms: performance.now() - t, out: r.stdout };
}

const median = (xs: number[]) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export default async function storeBench(): Promise<void> {
  const budgetMs = Number(process.env.DAB_BENCH_STORE_MS ?? 500);
  const n = Number(process.env.DAB_BENCH_STORE_RECORDS ?? 2);
  const dir = mkdtempSync(join(tmpdir(), 'dab-store-bench-'));
  const store = join(dir, 'proofs.sqlite');
  const cold: number[] = [],
    warm: number[] = [];
  console.log(`plausible 5x5 records (60 moves), --budget-ms ${budgetMs}, store ${store}`);
  console.log('record   cold (empty store)   warm (same store)   ratio   answers');
  for (let i = 1; i <= n; i++) {
    const file = join(dir, `r${i}.dab`);
    writeFileSync(file, plausibleRecord(5, 5, 60, lcg(i), `bench ${i}`));
    const c = run(file, store, budgetMs);
    const w = run(file, store, budgetMs);
    cold.push(c.ms);
    warm.push(w.ms);
    const same = c.out === w.out ? 'identical' : 'DIFFERENT';
    console.log(
      `r${i}       ${(c.ms / 1000).toFixed(1).padStart(8)} s           ${(w.ms / 1000).toFixed(2).padStart(6)} s      ${(c.ms / w.ms).toFixed(1).padStart(5)}x   ${same}`,
    );
  }
  console.log(
    `median   ${(median(cold) / 1000).toFixed(1).padStart(8)} s           ${(median(warm) / 1000).toFixed(2).padStart(6)} s      ${(median(cold) / median(warm)).toFixed(1).padStart(5)}x`,
  );
}
