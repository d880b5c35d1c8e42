// Solver bench: the exact solver against the plain memoized brute force on the same positions.
// `node --import tsx bench/run.ts solver` (set DAB_BENCH_4X4=1 to include the empty 4x4 board).
import { geometryOf } from '../server/src/engine/board/geometry';
import { BoardState } from '../server/src/engine/board/state';
import { Solver, bruteForce } from '../server/src/engine/solver';

function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A position reached by cautious random play (no box given away while avoidable), `undrawn` lines left. */
function playedPosition(w: number, h: number, undrawn: number, r: () => number): BoardState {
  const g = geometryOf(w, h);
  const st = new BoardState(g);
  while (g.lineCount - st.drawnCount > undrawn) {
    const all = st.undrawnLines();
    const safe = all.filter((l) => !g.boxesOfLine(l).some((b) => st.sidesDrawn(b) === 2));
    const pool = safe.length > 0 ? safe : all;
    st.play(pool[Math.floor(r() * pool.length)]);
  }
  return st;
}

const median = (xs: number[]) => { const s = xs.slice().sort((a, b) => a - b); return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2; };
const fmt = (ms: number) => `${ms.toFixed(ms < 10 ? 2 : 0)} ms`;

function timeIt<T>(f: () => T): [T, number] {
  const t = performance.now();
  const v = f();
  return [v, performance.now() - t];
}

export default async function run(): Promise<void> {
  // 1. empty 3x3 board
  {
    const st = new BoardState(geometryOf(3, 3));
    const runs: number[] = [];
    let nodes = 0, value: number | null = null;
    for (let i = 0; i < 3; i++) {
      const [r, ms] = timeIt(() => new Solver().solve(st));
      runs.push(ms); nodes = r.nodes; value = r.value;
    }
    const [bf, bms] = timeIt(() => bruteForce(st));
    console.log(`3x3 empty board: value ${value} (brute force ${bf.value})`);
    console.log(`  solver      median ${fmt(median(runs))} over 3 runs, ${nodes} nodes`);
    console.log(`  bruteForce  ${fmt(bms)}, ${bf.nodes} positions`);
    console.log(`  ratio       ${(bms / median(runs)).toFixed(1)}x faster, ${(bf.nodes / nodes).toFixed(1)}x fewer nodes`);
  }
  // 2. the same late positions for both: 5x5 and 4x4, 20-22 undrawn lines
  {
    const r = rng(2024);
    const sT: number[] = [], bT: number[] = [], sN: number[] = [], bN: number[] = [];
    for (let i = 0; i < 12; i++) {
      const st = playedPosition(i % 2 ? 5 : 4, i % 2 ? 5 : 4, 20 + (i % 3), r);
      const [res, ms] = timeIt(() => new Solver().solve(st, { moveValues: true }));
      const [bf, bms] = timeIt(() => bruteForce(st));
      if (res.value !== bf.value) throw new Error(`solver ${res.value} != brute force ${bf.value} on ${st.key()}`);
      sT.push(ms); bT.push(bms); sN.push(res.nodes); bN.push(bf.nodes);
    }
    console.log('12 late 4x4/5x5 positions (20-22 undrawn lines), every move valued:');
    console.log(`  solver      median ${fmt(median(sT))}, median ${median(sN)} nodes`);
    console.log(`  bruteForce  median ${fmt(median(bT))}, median ${median(bN)} positions`);
    console.log(`  ratio       ${(median(bT) / median(sT)).toFixed(1)}x faster`);
  }
  // 3. 5x5 positions with <= 30 undrawn lines (too many for the brute force: 2^30 memo)
  {
    const r = rng(55);
    const times: number[] = [], nodes: number[] = [];
    let worst = 0;
    for (let i = 0; i < 20; i++) {
      const st = playedPosition(5, 5, 26 + (i % 5), r);
      const [res, ms] = timeIt(() => new Solver().solve(st));
      if (res.status !== 'exact') throw new Error('not solved');
      times.push(ms); nodes.push(res.nodes); worst = Math.max(worst, ms);
    }
    console.log('20 5x5 positions with 26-30 undrawn lines (cautious random play):');
    console.log(`  solver      median ${fmt(median(times))}, max ${fmt(worst)}, median ${median(nodes)} nodes (brute force: out of reach, 2^30 states)`);
    const r2 = rng(56);
    const t2: number[] = [], n2: number[] = [];
    for (let i = 0; i < 6; i++) {
      const st = playedPosition(5, 5, 36, r2);
      const [res, ms] = timeIt(() => new Solver().solve(st, { timeBudgetMs: 30000 }));
      t2.push(ms); n2.push(res.status === 'exact' ? res.nodes : -1);
    }
    console.log(`6 5x5 positions with 36 undrawn lines: solver median ${fmt(median(t2))}, max ${fmt(Math.max(...t2))}, nodes ${n2.join(' ')} (-1 = over 30 s budget)`);
  }
  // 4. empty 4x4 board (a tie)
  if (process.env.DAB_BENCH_4X4 === '1') {
    const s = new Solver({ tableBits: 22 });
    const [res, ms] = timeIt(() => s.solve(new BoardState(geometryOf(4, 4))));
    console.log(`4x4 empty board: ${res.status} value ${res.value}, ${res.nodes} nodes, ${fmt(ms)}`);
  } else {
    console.log('4x4 empty board: skipped (measured: not even the first root move finished within ~2 CPU-minutes / ~10 wall-minutes on this 2-core machine; set DAB_BENCH_4X4=1 to run it)');
  }
}
