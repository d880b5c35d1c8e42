// Endgame engine: closed form vs the exact recursion on the same random 40-component endgames,
// the closed form on 100,000 components, and the board leaf evaluator.
import {
  analyzeEndgame,
  addComponent,
  emptyCounts,
  ComponentCounts,
  componentsOf,
  loonyEndgameValue,
} from '../server/src/engine/endgame';
import { geometryOf } from '../server/src/engine/board/geometry';
import { BoardState } from '../server/src/engine/board/state';
import { mulberry32 as rng } from '../test/support/random';

const ALPHABET: [number, 'chain' | 'loop', number][] = [
  [30, 'chain', 3],
  [20, 'loop', 4],
  [16, 'loop', 6],
  [7, 'chain', 4],
  [5, 'chain', 5],
  [3, 'chain', 6],
  [6, 'loop', 8],
  [3, 'loop', 10],
  [2, 'chain', 7],
  [1, 'chain', 9],
  [1, 'loop', 12],
];
function gen(r: () => number, n: number): ComponentCounts {
  const g = emptyCounts();
  const w = ALPHABET.reduce((s, a) => s + a[0], 0);
  for (let i = 0; i < n; i++) {
    let x = r() * w,
      pick = ALPHABET[0];
    for (const a of ALPHABET) {
      x -= a[0];
      if (x < 0) {
        pick = a;
        break;
      }
    }
    addComponent(g, { kind: pick[1], size: pick[2] });
  }
  return g;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function time(f: () => void, reps: number): number {
  const t0 = performance.now();
  for (let i = 0; i < reps; i++) f();
  return (performance.now() - t0) / reps;
}

export default async function run(): Promise<void> {
  const r = rng(7);
  const cases = Array.from({ length: 30 }, () => gen(r, 40));
  const rec: number[] = [],
    cf: number[] = [],
    states: number[] = [];
  for (const g of cases) {
    let sc = 1;
    for (const k of g.chains.values()) sc *= k + 1;
    for (const k of g.loops.values()) sc *= k + 1;
    states.push(sc);
    const a = analyzeEndgame(g),
      b = analyzeEndgame(g, { method: 'recursion' });
    if (a.value !== b.value || a.best.join() !== b.best.join()) throw new Error('closed form and recursion disagree');
    rec.push(time(() => analyzeEndgame(g, { method: 'recursion' }), 3));
    cf.push(time(() => analyzeEndgame(g), 200));
  }
  const mr = median(rec),
    mc = median(cf);
  console.log(
    `random 40-component endgames (${cases.length}, median ${median(states)} sub-multisets each), full analysis incl. all openings:`,
  );
  console.log(`  recursion   median ${(mr * 1000).toFixed(1)} us`);
  console.log(`  closed form median ${(mc * 1000).toFixed(2)} us`);
  console.log(`  ratio recursion / closed form: ${(mr / mc).toFixed(0)}x`);

  const big = emptyCounts();
  addComponent(big, { kind: 'chain', size: 3 }, 40_000);
  addComponent(big, { kind: 'loop', size: 4 }, 30_000);
  addComponent(big, { kind: 'loop', size: 6 }, 20_000);
  addComponent(big, { kind: 'loop', size: 8 }, 5_000);
  addComponent(big, { kind: 'chain', size: 5 }, 4_000);
  addComponent(big, { kind: 'loop', size: 10 }, 1_000);
  const runs: number[] = [];
  for (let i = 0; i < 50; i++) runs.push(time(() => analyzeEndgame(big), 1));
  console.log(
    `closed form on 100,000 components (counts): median ${median(runs).toFixed(3)} ms, value ${analyzeEndgame(big).value}`,
  );
  const arr = componentsOf(big);
  const runsArr: number[] = [];
  for (let i = 0; i < 20; i++) runsArr.push(time(() => analyzeEndgame(arr), 1));
  console.log(`closed form on 100,000 components (array input): median ${median(runsArr).toFixed(3)} ms`);
  const text = '3^40000 4l^30000 6l^20000 8l^5000 5^4000 10l^1000';
  const runsTxt: number[] = [];
  for (let i = 0; i < 50; i++) runsTxt.push(time(() => analyzeEndgame(text), 1));
  console.log(`closed form on 100,000 components (notation text): median ${median(runsTxt).toFixed(3)} ms`);

  // board leaf: 5x5 with rows as chains/loops (every box 2-sided)
  const g5 = geometryOf(5, 5);
  const s = new BoardState(g5, 0);
  // rows 0-1: a 10-loop around a 2x5 block; row 2: a 5-chain; rows 3-4: a 10-loop
  for (let l = 0; l < g5.lineCount; l++) s.drawSilently(l);
  const undraw: number[] = [];
  const ring = (y0: number) => {
    for (let x = 0; x < 4; x++) {
      undraw.push(g5.vLine(x + 1, y0));
      undraw.push(g5.vLine(x + 1, y0 + 1));
    }
    undraw.push(g5.hLine(0, y0 + 1));
    undraw.push(g5.hLine(4, y0 + 1));
  };
  ring(0);
  ring(3);
  for (let x = 0; x <= 5; x++) undraw.push(g5.vLine(x, 2));
  const t = new BoardState(g5, 0);
  const skip = new Set(undraw);
  for (let l = 0; l < g5.lineCount; l++) if (!skip.has(l)) t.drawSilently(l);
  const v = loonyEndgameValue(t);
  const leaf = time(() => loonyEndgameValue(t), 20000);
  console.log(
    `board leaf loonyEndgameValue on 5x5 (10l + 5 + 10l, value ${v}): ${(leaf * 1000).toFixed(2)} us per call`,
  );
}
