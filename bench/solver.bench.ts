// Solver bench: the exact solver (all rules) against the same solver with rules 3-4 switched off
// (the previous release's search) and the plain memoized brute force, on the same positions.
// `node --import tsx bench/run.ts solver` (set DAB_BENCH_4X4=1 to include the empty 4x4 board);
// `npm run bench:4x4` proves the empty 4x4 board alone (both cores) and prints the time.
import { geometryOf } from '../server/src/engine/board/geometry';
import { BoardState } from '../server/src/engine/board/state';
import { Solver, bruteForce, type SolverConfig } from '../server/src/engine/solver';
import { solveParallel } from '../server/src/engine/solver/parallel';
import { mulberry32 as rng } from '../test/support/random';
import { playedPosition } from '../test/support/boards';

const median = (xs: number[]) => {
  const s = xs.slice().sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const fmt = (ms: number) => `${ms.toFixed(ms < 10 ? 2 : 0)} ms`;

function timeIt<T>(f: () => T): [T, number] {
  const t = performance.now();
  const v = f();
  return [v, performance.now() - t];
}

/** The search before rules 3 (captures and the double-dealing line only) and 4 (equivalent moves). */
const BASELINE: SolverConfig = { captureRule: false, equivalentMoves: false };

interface Row {
  ms: number[];
  nodes: number[];
  unsolved: number;
}
const row = (): Row => ({ ms: [], nodes: [], unsolved: 0 });

function compare(
  label: string,
  positions: BoardState[],
  budgetMs: number,
  moveValues = false,
  tableBits?: number,
): void {
  const rows: [string, SolverConfig, Row][] = [
    ['solver  ', {}, row()],
    ['baseline', BASELINE, row()],
  ];
  for (const st of positions) {
    let value: number | null = null;
    for (const [, cfg, r] of rows) {
      const [res, ms] = timeIt(() =>
        new Solver({ ...cfg, tableBits }).solve(st, { moveValues, timeBudgetMs: budgetMs }),
      );
      r.ms.push(ms);
      r.nodes.push(res.nodes);
      if (res.status !== 'exact') {
        r.unsolved++;
        continue;
      }
      if (value !== null && res.value !== value)
        throw new Error(`solver ${res.value} != baseline ${value} on ${st.key()}`);
      value = res.value;
    }
  }
  console.log(`${label}:`);
  for (const [name, , r] of rows) {
    console.log(
      `  ${name}  median ${fmt(median(r.ms))}, max ${fmt(Math.max(...r.ms))}, median ${median(r.nodes)} nodes${r.unsolved ? `, ${r.unsolved} over the ${budgetMs / 1000} s budget` : ''}`,
    );
  }
  const [a, b] = [rows[0][2], rows[1][2]];
  console.log(
    `  ratio     ${(median(b.ms) / median(a.ms)).toFixed(1)}x faster, ${(median(b.nodes) / median(a.nodes)).toFixed(1)}x fewer nodes (medians${b.unsolved ? '; baseline capped by its budget' : ''})`,
  );
}

export default async function run(): Promise<void> {
  // 1. empty 3x3 board, with the brute force
  {
    const st = new BoardState(geometryOf(3, 3));
    const [bf, bms] = timeIt(() => bruteForce(st));
    compare(
      `3x3 empty board (value -3; bruteForce ${fmt(bms)}, ${bf.nodes} positions, value ${bf.value})`,
      [st, st, st],
      60000,
    );
  }
  // 2. late positions, every move valued, with the brute force
  {
    const r = rng(2024);
    const ps: BoardState[] = [];
    const bT: number[] = [];
    for (let i = 0; i < 12; i++) ps.push(playedPosition(i % 2 ? 5 : 4, i % 2 ? 5 : 4, 20 + (i % 3), r));
    for (const st of ps) {
      const [bf, bms] = timeIt(() => bruteForce(st));
      const res = new Solver().solve(st, { moveValues: true });
      if (res.value !== bf.value || JSON.stringify(res.moveValues) !== JSON.stringify(bf.moveValues))
        throw new Error(`solver != brute force on ${st.key()}`);
      bT.push(bms);
    }
    compare(
      `12 late 4x4/5x5 positions (20-22 undrawn lines), every move valued (bruteForce median ${fmt(median(bT))}, same values)`,
      ps,
      60000,
      true,
    );
  }
  // 3. 5x5 midgame positions
  {
    const r = rng(55);
    compare(
      '20 5x5 positions with 26-30 undrawn lines',
      Array.from({ length: 20 }, (_, i) => playedPosition(5, 5, 26 + (i % 5), r)),
      30000,
    );
    const r2 = rng(57);
    compare(
      '6 5x5 positions with 30 undrawn lines, every move valued',
      Array.from({ length: 6 }, () => playedPosition(5, 5, 30, r2)),
      30000,
      true,
    );
    for (const u of [36, 38]) {
      const r3 = rng(u === 36 ? 56 : 58);
      compare(
        `6 5x5 positions with ${u} undrawn lines`,
        Array.from({ length: 6 }, () => playedPosition(5, 5, u, r3)),
        20000,
      );
    }
  }
  // 4. 4x4 midgame positions
  {
    const r = rng(7);
    compare(
      '4 4x4 positions with 30 undrawn lines',
      Array.from({ length: 4 }, () => playedPosition(4, 4, 30, r)),
      30000,
      false,
      22,
    );
  }
  // 5. empty 4x4 board (a tie), proven on both cores
  if (process.env.DAB_BENCH_4X4 === '1') await bench4x4();
  else console.log(`4x4 empty board: skipped (${MEASURED_4X4}; \`npm run bench:4x4\` or DAB_BENCH_4X4=1 runs it)`);
}

/** The last measured run of `npm run bench:4x4` on the 2-core development machine. */
const MEASURED_4X4 =
  'measured 2026-11-21: exact, value 0, 472.2 s and 490.4 s wall in two runs on 2 threads (tableBits 26 each; shared machine), 2,118,498,865 nodes, 7 null-window tests; ' +
  'first version of the parallel proof 590.7 s / 2.52G nodes; before this work the first root move alone took 260 s on one thread ' +
  'and the proof did not finish in 540 s';

/**
 * The empty 4x4 board (value 0, a tie) proven exactly: value-only root MTD, root moves (one per
 * symmetry class) split between 2 worker threads (solveParallel), 15-minute budget. Also a
 * single-thread run of the same proof when DAB_BENCH_4X4_SINGLE=1 (slower: for the ratio).
 */
export async function bench4x4(): Promise<void> {
  const st = new BoardState(geometryOf(4, 4));
  const threads = Number(process.env.DAB_BENCH_THREADS ?? 2);
  console.log(
    `4x4 empty board: proving the value on ${threads} threads (tableBits 26 per thread, 15-minute budget)...`,
  );
  const res = await solveParallel(st, {
    threads,
    timeBudgetMs: 15 * 60_000,
    config: { tableBits: Number(process.env.DAB_BENCH_TABLE_BITS ?? 26) },
    log: (line) => console.log(`  ${line}`),
  });
  console.log(
    `4x4 empty board: ${res.status} value ${res.value} bounds [${res.lower}, ${res.upper}], ${res.nodes} nodes, ${res.tests} null-window tests, ${(res.ms / 1000).toFixed(1)} s wall`,
  );
}

if (process.argv.includes('--4x4')) {
  bench4x4().then(
    () => process.exit(0),
    (e) => {
      console.error(e);
      process.exit(1);
    },
  );
}
