/**
 * `npm run bench records`: `dab analyze --json` with default settings on 10 plausible 5x5 records
 * (fixed seeds), today's code (the baseline worktree at commit 3e4b635) and the new one side by
 * side in one run: wall time per record, the earliest ply with a proven result and the earliest
 * ply with an exact value, medians and ratios. Every exact value of one run must lie within the
 * other's bounds (a cross-check: the two are independent proofs).
 *
 * Baseline: /work/baseline when it holds that commit, else a worktree .bench-baseline/ (gitignored)
 * made here with `git worktree add` and built with this checkout's node_modules; when neither can be
 * had, the baseline column says it was skipped and why.
 * Then each record again on the store its cold run filled (warm): wall time and whether the whole
 * --json output is the cold run's.
 * DAB_BENCH_RECORDS=n runs the first n records only; DAB_BENCH_BASELINE=0 skips the baseline;
 * DAB_BENCH_RECORD_BUDGET_MS=N passes --record-budget-ms N to the new code (e.g. 60000: its second
 * searches, see the README; the baseline keeps its defaults).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { mulberry32 } from '../test/support/random';
import { plausibleRecord } from '../test/support/boards';
import { withoutHugePages } from '../shared/hugePages';

const BASELINE_COMMIT = '3e4b635';
const ROOT = resolve(__dirname, '..');
const SEEDS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];

interface Position {
  ply: number;
  toMove: 0 | 1;
  score: [number, number];
  value: number | null;
  exact: boolean;
  lower?: number | null;
  upper?: number | null;
  best?: string[];
  nimber?: number | 'loony' | null;
  nim?: { moverWinsChainFight?: boolean | null } | null;
}

interface Run {
  ms: number;
  /** The whole --json output. */
  out: string;
  positions: Position[];
  /** Earliest ply whose result (with the score) is proven / whose value is exact; null = none. */
  firstResult: number | null;
  firstExact: number | null;
  /** Earliest ply where the Nimstring view says who wins the chain fight (its nim-value or a zero test). */
  firstFight: number | null;
  error?: string;
}

function git(args: string[], cwd = ROOT) {
  return spawnSync('git', args, { cwd, encoding: 'utf8' });
}

/** The directory of a built baseline checkout, or a reason why there is none. */
function baselineDir(): { dir: string } | { skipped: string } {
  if (process.env.DAB_BENCH_BASELINE === '0') return { skipped: 'DAB_BENCH_BASELINE=0' };
  const isBaseline = (d: string) =>
    existsSync(join(d, 'bin/dab.js')) && git(['rev-parse', 'HEAD'], d).stdout.trim().startsWith(BASELINE_COMMIT);
  const shared = process.env.DAB_BASELINE ?? '/work/baseline';
  if (isBaseline(shared) && existsSync(join(shared, 'dist/cli.js'))) return { dir: shared };
  const local = join(ROOT, '.bench-baseline');
  if (!existsSync(local)) {
    const add = git(['worktree', 'add', '--detach', local, BASELINE_COMMIT]);
    if (add.status !== 0) return { skipped: `could not create ${local}: ${add.stderr.trim()}` };
  }
  if (!isBaseline(local)) return { skipped: `${local} is not a checkout of ${BASELINE_COMMIT}` };
  if (!existsSync(join(local, 'node_modules'))) symlinkSync(join(ROOT, 'node_modules'), join(local, 'node_modules'));
  if (!existsSync(join(local, 'dist/cli.js'))) {
    const b = spawnSync(process.execPath, ['esbuild.mjs'], { cwd: local, encoding: 'utf8' });
    if (b.status !== 0) return { skipped: `baseline build failed: ${b.stderr.trim().slice(0, 200)}` };
  }
  return { dir: local };
}

function resultProven(p: Position): boolean {
  const lo = p.exact ? p.value : p.lower,
    hi = p.exact ? p.value : p.upper;
  if (lo === null || hi === null || lo === undefined || hi === undefined) return false;
  const lead = p.score[p.toMove] - p.score[1 - p.toMove];
  return lead + lo > 0 || lead + hi < 0 || (lead + lo >= 0 && lead + hi <= 0);
}

function analyze(dir: string, file: string, extra: string[] = []): Run {
  const t0 = performance.now();
  // each CLI as a user starts it (the bench itself runs on huge pages): the new one starts itself
  // again with them, the baseline (which did not) runs as it did
  const r = spawnSync(process.execPath, [join(dir, 'bin/dab.js'), 'analyze', '--json', ...extra, file], {
    encoding: 'utf8',
    maxBuffer: 256 << 20,
    env: withoutHugePages(process.env),
  });
  const ms = performance.now() - t0;
  try {
    const positions: Position[] = JSON.parse(r.stdout).entries[0].positions;
    const first = (f: (p: Position) => boolean) => positions.find(f)?.ply ?? null;
    const fight = (p: Position) =>
      (p.nimber !== undefined && p.nimber !== null) || typeof p.nim?.moverWinsChainFight === 'boolean';
    return {
      ms,
      out: r.stdout,
      positions,
      firstResult: first(resultProven),
      firstExact: first((p) => p.exact),
      firstFight: first(fight),
    };
  } catch {
    const error = (r.stderr || 'no output').slice(0, 200);
    return { ms, out: '', positions: [], firstResult: null, firstExact: null, firstFight: null, error };
  }
}

function median(xs: (number | null)[]): number | null {
  const v = xs.filter((x): x is number => x !== null).sort((a, b) => a - b);
  if (v.length === 0) return null;
  return v.length % 2 ? v[v.length >> 1] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
}

/** Exact values of `a` inside the bounds of `b`, position by position. */
function disagreements(a: Run, b: Run): string[] {
  const out: string[] = [];
  for (const p of a.positions) {
    const q = b.positions[p.ply];
    if (!p.exact || !q) continue;
    const lo = q.exact ? q.value : q.lower,
      hi = q.exact ? q.value : q.upper;
    if (lo !== null && lo !== undefined && hi !== null && hi !== undefined && (p.value! < lo || p.value! > hi))
      out.push(`ply ${p.ply}: ${p.value} outside [${lo}, ${hi}]`);
  }
  return out;
}

export default async function main(): Promise<void> {
  const n = Math.max(1, Math.min(SEEDS.length, Number(process.env.DAB_BENCH_RECORDS ?? SEEDS.length)));
  const recordBudget = process.env.DAB_BENCH_RECORD_BUDGET_MS;
  const flags = recordBudget ? ['--record-budget-ms', recordBudget] : [];
  const tmp = mkdtempSync(join(tmpdir(), 'dab-records-'));
  const base = baselineDir();
  console.log(
    `dab analyze --json, ${recordBudget ? `--record-budget-ms ${recordBudget} (baseline: default settings)` : 'default settings'}, ` +
      `plausible 5x5 records (seeds ${SEEDS.slice(0, n).join(', ')}); ` +
      `baseline: ${'dir' in base ? `${base.dir} (${BASELINE_COMMIT})` : `SKIPPED — ${base.skipped}`}`,
  );
  console.log(
    'seed | wall s: base / new | first proven result ply: base / new | first exact ply: base / new | first chain-fight verdict ply: base / new | warm store: wall s, answers',
  );
  const rows: { base?: Run; now: Run; warm: Run }[] = [];
  let bad = 0;
  for (const seed of SEEDS.slice(0, n)) {
    const file = join(tmp, `r${seed}.dab`);
    writeFileSync(file, plausibleRecord(5, 5, 60, mulberry32(seed), `plausible 5x5 #${seed}`));
    const b = 'dir' in base ? analyze(base.dir, file) : undefined;
    // a fresh proof store per record: this is the cold run (the user's store is left alone)
    const store = ['--store', join(tmp, `cold-${seed}.sqlite`)];
    const now = analyze(ROOT, file, [...flags, ...store]);
    // the same record again on the store the cold run filled
    const warm = analyze(ROOT, file, [...flags, ...store]);
    rows.push({ base: b, now, warm });
    const f = (x: number | null | undefined) => (x === null || x === undefined ? '—' : String(x));
    const err = [b?.error && `baseline: ${b.error}`, now.error && `new: ${now.error}`].filter(Boolean).join('; ');
    const dis = b ? [...disagreements(b, now), ...disagreements(now, b)] : [];
    bad += dis.length;
    console.log(
      `${String(seed).padStart(4)} | ${b ? (b.ms / 1000).toFixed(1) : '—'} / ${(now.ms / 1000).toFixed(1)} | ` +
        `${f(b?.firstResult)} / ${f(now.firstResult)} | ${f(b?.firstExact)} / ${f(now.firstExact)} | ` +
        `${f(b?.firstFight)} / ${f(now.firstFight)} | ` +
        `${(warm.ms / 1000).toFixed(2)}, ${warm.out === now.out && !now.error ? 'identical' : 'DIFFERENT'}` +
        (err ? `  ERROR ${err}` : '') +
        (dis.length ? `  DISAGREE ${dis.join(', ')}` : ''),
    );
  }
  const med = (f: (r: Run) => number | null, which: 'base' | 'now') =>
    median(rows.map((r) => (r[which] ? f(r[which]!) : null)));
  const show = (x: number | null, d = 0) => (x === null ? '—' : x.toFixed(d));
  const wb = med((r) => r.ms / 1000, 'base'),
    wn = med((r) => r.ms / 1000, 'now');
  console.log(
    `median | ${show(wb, 1)} / ${show(wn, 1)} s${wb !== null && wn ? ` (${(wb / wn).toFixed(1)}x faster)` : ''} | ` +
      `${show(
        med((r) => r.firstResult, 'base'),
        1,
      )} / ${show(
        med((r) => r.firstResult, 'now'),
        1,
      )} | ` +
      `${show(
        med((r) => r.firstExact, 'base'),
        1,
      )} / ${show(
        med((r) => r.firstExact, 'now'),
        1,
      )} | ${show(
        med((r) => r.firstFight, 'base'),
        1,
      )} / ${show(
        med((r) => r.firstFight, 'now'),
        1,
      )}`,
  );
  // what a larger share of the budget for earlier results would cost: exact positions left without their optimal moves
  const exact = rows.flatMap((r) => r.now.positions.filter((p) => p.exact));
  const withMoves = exact.filter((p) => (p.best?.length ?? 0) > 0).length;
  console.log(`new: ${withMoves} of ${exact.length} exact positions with their optimal moves`);
  const identical = rows.filter((r) => r.warm.out === r.now.out && !r.now.error).length;
  console.log(
    `warm store: median ${show(median(rows.map((r) => r.warm.ms / 1000)), 2)} s per record, ` +
      `max ${show(Math.max(...rows.map((r) => r.warm.ms / 1000)), 2)} s; ${identical} of ${rows.length} identical to the cold run`,
  );
  console.log(
    `aims: wall <= 30 s per record, first proven result <= ply 16, first exact <= ply 20 (median); warm <= 2 s, identical; ` +
      `cross-check of exact values against the other run's bounds: ${bad === 0 ? 'all agree' : `${bad} DISAGREEMENTS`}`,
  );
  if (bad > 0) process.exitCode = 1;
}
