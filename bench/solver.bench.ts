// Solver bench: the solver as it is against the solver as it was (commit 3e4b635, the start of issue
// 10), side by side in one run on the same positions, with node counts, wall and CPU times, medians
// and ratios; and the plain memoized brute force where it can run.
//
// `npm run bench` (or `node --import tsx bench/run.ts solver`) runs it. The old solver is loaded from
// a git worktree of commit 3e4b635 at .bench-baseline/ (created with `git worktree add` when missing;
// DAB_BENCH_BASELINE=<dir> points elsewhere, e.g. /work/baseline); without git it says it skipped it.
// Environment: DAB_BENCH_POSITIONS (positions per 5x5 set, default 20), DAB_BENCH_SKIP (generate and
// skip this many positions of each set first, default 0: a long set measured in parts), DAB_BENCH_BUDGET_S (CPU
// budget per position and solver, default 60 s: a run over it counts as its budget, shown with ">="),
// DAB_BENCH_OLD_BUDGET_X (the old solver's CPU budget per position: X times the new solver's CPU time on
// it, at most DAB_BENCH_BUDGET_S; a run it cuts shows a ratio of at least X at the cost of X times the
// new solver's time: the 42-line set, where the old solver takes many minutes a position, is measured
// in about an hour with X = 8 and DAB_BENCH_BUDGET_S=300), DAB_BENCH_UNDRAWN (the 5x5 sets by undrawn lines, default 40,42), DAB_BENCH_MODES (best: value and
// best moves, values: every move valued; default both),
// DAB_BENCH_TABLE_MB (the new solver's table, default the CLI's), DAB_BENCH_4X4=1 (adds the empty 4x4
// board), DAB_BENCH_SOLVER_THREADS=N (the new solver also on N threads, compared by wall time; default
// as the CLI: every core, at most 2; 1 leaves the column out). `npm run bench:4x4` proves the empty 4x4 board alone (both cores) and prints the time.
// Seconds are the CPU seconds of each (single-threaded) solve: equal to wall time on an idle machine,
// and still fair when other processes share the cores; wall times are printed beside them.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { spawnSync } from 'node:child_process';
import { geometryOf } from '../server/src/engine/board/geometry';
import { BoardState } from '../server/src/engine/board/state';
import { BATCH_TABLE_MB, Solver, ThreadedSolver, bruteForce, type SolveResult } from '../server/src/engine/solver';
import { mulberry32 as rng } from '../test/support/random';
import { playedPosition } from '../test/support/boards';
import { sourceThreads } from '../test/support/threads';
import { relaunchWithHugePages } from '../server/src/relaunch';
import { defaultSolverThreadCount } from '../server/src/solverThreads';
import { hugePagesLine } from '../shared/hugePages';

/** The commit issue 10 started from: the old solver. */
const BASELINE_COMMIT = '3e4b635';

const median = (xs: number[]) => {
  if (xs.length === 0) return NaN;
  const s = xs.slice().sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const secs = (ms: number) => (ms < 1000 ? `${ms.toFixed(0)} ms` : `${(ms / 1000).toFixed(2)} s`);
const count = (n: number) => (n >= 1e6 ? `${(n / 1e6).toFixed(2)}M` : n >= 1e3 ? `${(n / 1e3).toFixed(1)}k` : `${n}`);

/** The one thing both solvers are asked: a position given by its drawn lines. */
interface Runner {
  name: string;
  /** Solve with a cleared table; wall and CPU milliseconds. */
  run(width: number, height: number, lines: number[], moveValues: boolean, budgetMs: number): Timed;
}
interface Timed {
  res: SolveResult;
  ms: number;
  cpuMs: number;
}

/** A stop request after `ms` of this process's CPU time (fair on a shared machine, unlike wall time). */
function cpuBudget(ms: number): () => boolean {
  const c0 = process.cpuUsage();
  return () => {
    const c = process.cpuUsage(c0);
    return (c.user + c.system) / 1000 > ms;
  };
}

function timed(f: () => SolveResult): Timed {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const res = f();
  const ms = performance.now() - t0;
  const c = process.cpuUsage(c0);
  return { res, ms, cpuMs: (c.user + c.system) / 1000 };
}

const tableMb = Number(process.env.DAB_BENCH_TABLE_MB ?? BATCH_TABLE_MB);
/** DAB_BENCH_OLD_BUDGET_X: the old solver's budget per position as a multiple of the new solver's CPU time (0: none). */
const oldBudgetX = Number(process.env.DAB_BENCH_OLD_BUDGET_X ?? 0);

function newRunner(threads = 1): Runner {
  const solver = threads > 1 ? new ThreadedSolver({ tableMb }, sourceThreads(threads)) : new Solver({ tableMb });
  return {
    name: threads > 1 ? `new×${threads}` : 'new',
    run(w, h, lines, moveValues, budgetMs) {
      const st = new BoardState(geometryOf(w, h));
      for (const l of lines) st.drawSilently(l);
      solver.solve(new BoardState(geometryOf(w, h)), { nodeBudget: 1 }); // allocates the table outside the timing
      solver.clear();
      return timed(() => solver.solve(st, { moveValues, shouldStop: cpuBudget(budgetMs) }));
    },
  };
}

/** The old solver, from a worktree of BASELINE_COMMIT (its own modules, loaded through tsx). */
async function oldRunner(): Promise<Runner | string> {
  const root = resolve(__dirname, '..');
  const dir = process.env.DAB_BENCH_BASELINE ?? join(root, '.bench-baseline');
  const entry = join(dir, 'server/src/engine/solver/index.ts');
  if (!existsSync(entry)) {
    const r = spawnSync('git', ['worktree', 'add', '--detach', dir, BASELINE_COMMIT], { cwd: root, encoding: 'utf8' });
    if (r.status !== 0 || !existsSync(entry))
      return `could not create a worktree of ${BASELINE_COMMIT} at ${dir} (${(r.stderr || r.error?.message || '').trim()})`;
    console.log(`(created the baseline worktree ${dir} at ${BASELINE_COMMIT})`);
  }
  const load = (p: string) => import(pathToFileURL(join(dir, p)).href);
  const sol = await load('server/src/engine/solver/index.ts');
  const geo = await load('server/src/engine/board/geometry.ts');
  const sta = await load('server/src/engine/board/state.ts');
  const pick = <T>(m: Record<string, unknown>, k: string): T =>
    (m[k] ?? (m.default as Record<string, unknown>)?.[k]) as T;
  type OldSolver = { clear(): void; solve(st: unknown, o: unknown): SolveResult };
  const OldSolverClass = pick<new () => OldSolver>(sol, 'Solver');
  const oldGeometryOf = pick<(w: number, h: number) => unknown>(geo, 'geometryOf');
  const OldState = pick<new (g: unknown) => { drawSilently(l: number): void }>(sta, 'BoardState');
  const solver = new OldSolverClass(); // its defaults: 2^20 entries (16 MiB on 5x5)
  return {
    name: 'old',
    run(w, h, lines, moveValues, budgetMs) {
      const st = new OldState(oldGeometryOf(w, h));
      for (const l of lines) st.drawSilently(l);
      solver.solve(new OldState(oldGeometryOf(w, h)), { nodeBudget: 1 });
      solver.clear();
      return timed(() => solver.solve(st, { moveValues, shouldStop: cpuBudget(budgetMs) }));
    },
  };
}

interface Column {
  ms: number[];
  cpu: number[];
  nodes: number[];
  over: number;
}

/** Both solvers on the same positions; results must agree wherever both are exact. */
function compare(label: string, positions: BoardState[], moveValues: boolean, runners: Runner[], budgetMs: number) {
  const cols = runners.map((): Column => ({ ms: [], cpu: [], nodes: [], over: 0 }));
  let agreed = 0;
  console.log(`  ${label}:`);
  positions.forEach((st, i) => {
    const lines = st.geometry.allLines().filter((l) => st.drawn[l]);
    // the new solver first: with oldBudgetX, the old solver's budget is a multiple of its CPU time
    const budgets: number[] = [];
    const out: Timed[] = [];
    runners.forEach((r, k) => {
      budgets[k] =
        r.name === 'old' && oldBudgetX > 0 && out[0].res.status === 'exact'
          ? Math.min(budgetMs, oldBudgetX * out[0].cpuMs)
          : budgetMs;
      out.push(r.run(st.geometry.width, st.geometry.height, lines, moveValues, budgets[k]));
    });
    out.forEach((t, k) => {
      cols[k].ms.push(t.ms);
      cols[k].cpu.push(t.res.status === 'exact' ? t.cpuMs : Math.max(t.cpuMs, budgets[k]));
      cols[k].nodes.push(t.res.nodes);
      if (t.res.status !== 'exact') cols[k].over++;
    });
    const exact = out.filter((t) => t.res.status === 'exact').map((t) => t.res);
    for (const r of exact.slice(1)) {
      const a = exact[0];
      const same =
        r.value === a.value &&
        JSON.stringify(r.best) === JSON.stringify(a.best) &&
        (!moveValues || JSON.stringify(r.moveValues) === JSON.stringify(a.moveValues));
      if (!same) throw new Error(`${label}, position ${i} (${st.key()}): the solvers disagree`);
    }
    if (exact.length === runners.length) agreed++;
    const desc = out
      .map(
        (t, k) =>
          `${runners[k].name} ${t.res.status === 'exact' ? '' : '>='}${secs(t.cpuMs)} CPU (${secs(t.ms)} wall) ${count(t.res.nodes)}`,
      )
      .join(', ');
    const v = exact[0];
    console.log(
      `    #${String(i + 1).padStart(2)} value ${v ? v.value : '?'} best ${v ? v.best.map((l) => st.geometry.lineName(l)).join(' ') : '?'}: ${desc}`,
    );
  });
  cols.forEach((c, k) => {
    const nps = c.nodes.reduce((a, b) => a + b, 0) / (c.cpu.reduce((a, b) => a + b, 0) / 1000);
    console.log(
      `    ${runners[k].name}  median ${secs(median(c.cpu))} CPU, ${secs(median(c.ms))} wall; max ${secs(Math.max(...c.cpu))} CPU; median ${count(median(c.nodes))} nodes; ${count(nps)} nodes/s (CPU)${c.over ? `; ${c.over} over ${runners[k].name === 'old' && oldBudgetX > 0 ? `their budget (${oldBudgetX}x the new solver's CPU time, at most ${budgetMs / 1000} s)` : `the ${budgetMs / 1000} s CPU budget`} (counted as the budget: ratios are lower bounds)` : ''}`,
    );
  });
  if (cols.length >= 2) {
    const [n, o] = cols;
    const perPos = o.cpu.map((x, i) => x / n.cpu[i]);
    // a threaded new solver (third column): its wall time against the old solver's
    if (cols.length === 3) {
      const t = cols[2];
      const perPosWall = o.ms.map((x, i) => x / t.ms[i]);
      console.log(
        `    ratio ${runners[2].name} against old: ${(median(o.ms) / median(t.ms)).toFixed(2)}x fewer seconds of wall time (medians; median per-position ratio ${median(perPosWall).toFixed(2)}x${o.over ? '; lower bounds, the old solver ran over its budget' : ''}; CPU time counts every thread), ${(median(n.ms) / median(t.ms)).toFixed(2)}x against new on one thread`,
      );
    }
    console.log(
      `    ratio ${(median(o.cpu) / median(n.cpu)).toFixed(2)}x fewer seconds (medians of CPU time; ${(median(o.ms) / median(n.ms)).toFixed(2)}x of wall time; median per-position ratio ${median(perPos).toFixed(2)}x), ${(median(o.nodes) / median(n.nodes)).toFixed(2)}x fewer nodes (a node of the new solver excludes forced captures)`,
    );
  }
  console.log(
    `    ${agreed}/${positions.length} positions exact for every solver, with identical values${moveValues ? ', best moves and move values' : ' and best moves'}`,
  );
}

export default async function run(): Promise<void> {
  const budgetMs = 1000 * Number(process.env.DAB_BENCH_BUDGET_S ?? 60);
  const perSet = Number(process.env.DAB_BENCH_POSITIONS ?? 20);
  const skip = Number(process.env.DAB_BENCH_SKIP ?? 0);
  const runners: Runner[] = [newRunner()];
  const old = await oldRunner();
  if (typeof old === 'string') console.log(`old solver: SKIPPED, ${old}; only the new solver is measured`);
  else runners.push(old);
  // the new solver also as the CLI runs it (a third column, by wall time)
  const threads = Number(process.env.DAB_BENCH_SOLVER_THREADS ?? defaultSolverThreadCount());
  if (threads > 1 && runners.length === 2) runners.push(newRunner(threads));
  console.log(
    `new solver: table ${tableMb} MiB; old solver (${BASELINE_COMMIT}): its default table (16 MiB on 5x5); CPU budget ${budgetMs / 1000} s per position (all threads' CPU); one thread each${runners.length === 3 ? `, and new×${threads}: the new solver on ${threads} threads as the CLI runs it, compared by wall time` : ''}`,
  );

  // every solver's code compiled before any timing (the first search of a process runs its code
  // cold: on a search of a fraction of a second, that decided which solver looked faster)
  {
    const w = rng(3);
    for (let i = 0; i < 8; i++) {
      const st = playedPosition(3, 3, 16, w);
      const lines = st.geometry.allLines().filter((l) => st.drawn[l]);
      for (const r of runners) r.run(3, 3, lines, i % 2 === 1, budgetMs);
    }
  }
  // 1. the empty 3x3 board (value -3), and the brute force
  {
    const st = new BoardState(geometryOf(3, 3));
    const t0 = performance.now();
    const bf = bruteForce(st);
    const bms = performance.now() - t0;
    console.log(`3x3 empty board: bruteForce value ${bf.value} in ${secs(bms)} (${count(bf.nodes)} positions)`);
    compare('3x3 empty board, value and best moves', [st], false, runners, budgetMs);
    compare('3x3 empty board, every move valued', [st], true, runners, budgetMs);
  }
  // 2. late 4x4/5x5 positions, every move valued, against the brute force
  {
    const r = rng(2024);
    const ps: BoardState[] = [];
    for (let i = 0; i < 12; i++) ps.push(playedPosition(i % 2 ? 5 : 4, i % 2 ? 5 : 4, 20 + (i % 3), r));
    const solver = new Solver();
    for (const st of ps) {
      const bf = bruteForce(st);
      const res = solver.solve(st, { moveValues: true });
      if (res.value !== bf.value || JSON.stringify(res.moveValues) !== JSON.stringify(bf.moveValues))
        throw new Error(`solver != brute force on ${st.key()}`);
    }
    console.log('12 late 4x4/5x5 positions (20-22 undrawn lines): every move value equals the brute force');
  }
  // 3. plausible 5x5 records (cautious play, fixed seeds), 40 and 42 undrawn lines
  const sets = (process.env.DAB_BENCH_UNDRAWN ?? '40,42').split(',').map(Number);
  const modes = (process.env.DAB_BENCH_MODES ?? 'best,values').split(',');
  for (const undrawn of perSet > 0 ? sets : []) {
    const r = rng(4000 + undrawn);
    const ps = Array.from({ length: skip + perSet }, () => playedPosition(5, 5, undrawn, r)).slice(skip);
    if (modes.includes('best'))
      compare(
        `${perSet} 5x5 positions with ${undrawn} undrawn lines${skip ? ` (after the first ${skip})` : ''}, value and best moves`,
        ps,
        false,
        runners,
        budgetMs,
      );
    if (modes.includes('values'))
      compare(
        `${perSet} 5x5 positions with ${undrawn} undrawn lines${skip ? ` (after the first ${skip})` : ''}, every move valued`,
        ps,
        true,
        runners,
        budgetMs,
      );
  }
  // 4. the empty 4x4 board (a tie), proven on both cores
  if (process.env.DAB_BENCH_4X4 === '1') await bench4x4();
  else console.log(`4x4 empty board: skipped (${MEASURED_4X4}; \`npm run bench:4x4\` or DAB_BENCH_4X4=1 runs it)`);
}

/** The memory this process holds on 2 MiB pages (Linux: the kernel may give fewer than asked). */
function hugePagesHeld(): string {
  try {
    const kb = Number(/AnonHugePages:\s+(\d+)/.exec(readFileSync('/proc/self/smaps_rollup', 'utf8'))?.[1]);
    return `${Math.round(kb / 1024)} MiB on 2 MiB pages`;
  } catch {
    return 'memory on 2 MiB pages: unknown here';
  }
}

/** The last measured runs of `npm run bench:4x4` on the 2-core development machine (2^27 entries: fewer nodes than 2^26, and not slowed like 2^28). */
const MEASURED_4X4 =
  'measured 2026-11-21 with the old solver: exact, value 0, 472.2 s and 490.4 s wall on 2 threads (tableBits 26 each), 2.12G nodes; 2026-11-23, `npm run bench:4x4` at eff299b (rules 4e and 6, threaded: lazy SMP, one shared table of 2^26 entries): exact, value 0, 355.8 s wall, 403.29M nodes; 2026-11-25 at 74db082 (cheaper nodes, the same search): exact, value 0, 309.9 s wall, 334.15M nodes; 2026-11-25 at 5d9677c (every helper node counted), ' +
  'by table size: 2^26 entries (1 GiB) 306.0 s, 745.45M nodes; 2^27 (2 GiB, the default since) 261.2 s, 639.74M nodes, and again at edf63d8 275.3 s, 616.75M nodes; 2^28 (4 GiB) 280.1 s, 614.17M nodes; 2026-11-26 at 1d13b69, 2^27: 172.0 s (463.42M nodes), 229.6 s (296.70M), 253.9 s (298.98M) on 2 MiB pages, 313.9 s (323.74M) and 260.5 s (302.93M) without; 2^28 on 2 MiB pages 247.7 s (582.34M). Until 2026-11-26 the nodes of a run left out those of the helper when the calling thread finished first (the counts above vary so); they now count every thread: at ff15675 502.92M nodes, 258.2 s (reference line 1.62M nodes/s) and 617.59M, 362.0 s (a slow phase, reference about 1.0M); at 2a4c256 (the shared table probe reads plainly first) 629.41M, 353.1 s (reference 1.27M); 2026-11-28 at e3c2308 471.37M, 273.4 s (reference 1.44M); 2026-11-29 at 2e15561 (rule 4f) 568.79M, 374.2 s in a very slow phase (reference 0.77M), and at 1cbcf64 567.97M, 406.8 s (reference 1.22M)';

/**
 * This machine's speed now, for reading the 4x4 time: one thread on four 4x4 positions with 32
 * undrawn lines (fixed seed). On the 2-core development machine the memory is shared with other
 * guests, and the same search (bundled with esbuild, 128 MiB table) ran at 1.8-2.3M nodes/s on
 * 2026-11-26 and, an hour later, at 1.0M, while a loop without memory traffic kept its speed (this
 * line read 1.07M then, and 1.62M later): a slow 4x4 time next to a slow reference says the
 * machine, not the solver.
 */
function referenceSpeed(): void {
  const r = rng(7);
  const ps = Array.from({ length: 4 }, () => playedPosition(4, 4, 32, r));
  const solver = new Solver({ tableMb: BATCH_TABLE_MB });
  solver.solve(ps[0], { nodeBudget: 1 }); // allocates the table outside the timing
  let nodes = 0;
  const t0 = performance.now();
  for (const st of ps) {
    solver.clear();
    nodes += solver.solve(st).nodes;
  }
  const ms = performance.now() - t0;
  console.log(
    `reference (this machine now): one thread, four 4x4 positions with 32 undrawn lines, ${count(nodes)} nodes in ${secs(ms)}, ${(nodes / ms / 1000).toFixed(2)}M nodes/s (the same search: 1.8-2.3M on a quiet machine, 1.0M in a slow phase)`,
  );
}

/**
 * The empty 4x4 board (value 0, a tie) proven exactly, as the CLI and the editor search: the
 * threaded solver (one shared table, lazy SMP) on every thread asked for, value only, 15-minute
 * budget.
 */
export async function bench4x4(): Promise<void> {
  referenceSpeed();
  const st = new BoardState(geometryOf(4, 4));
  const threads = Number(process.env.DAB_BENCH_THREADS ?? 2);
  const bits = Number(process.env.DAB_BENCH_TABLE_BITS ?? 27);
  console.log(
    `4x4 empty board: proving the value on ${threads} threads (one shared table of 2^${bits} entries, 15-minute budget)...`,
  );
  const solver = new ThreadedSolver({ tableBits: bits }, sourceThreads(threads));
  try {
    const t = timed(() => solver.solve(st, { valueOnly: true, timeBudgetMs: 15 * 60_000 }));
    console.log(
      `4x4 empty board: ${t.res.status} value ${t.res.value} bounds [${t.res.lower}, ${t.res.upper}], ${count(t.res.nodes)} nodes, ${(t.ms / 1000).toFixed(1)} s wall, ${(t.res.nodes / t.ms / 1000).toFixed(2)}M nodes/s; ${hugePagesHeld()}`,
    );
  } finally {
    solver.dispose();
  }
}

if (process.argv.includes('--4x4')) {
  // as dab's CLI and server run: on 2 MiB pages where Linux gives them on request (shared/hugePages.ts)
  const here = () => {
    console.log(hugePagesLine());
    bench4x4().then(
      () => process.exit(0),
      (e) => {
        console.error(e);
        process.exit(1);
      },
    );
  };
  if (!relaunchWithHugePages(process.argv.slice(2), here)) here();
}
