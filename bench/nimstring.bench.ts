// Nimstring nim-values: memoized region search (server/src/engine/nimstring) against seed 003's
// naive recursion on the same regions; whole 3x3 regions; 5x5 midgame positions with several regions.
import { geometryOf } from '../server/src/engine/board/geometry';
import { BoardState } from '../server/src/engine/board/state';
import { nimstring, NimCache, naiveValue, regionValue, newContext, cellsOfState, simplify, LOONY } from '../server/src/engine/nimstring/index';

function rng(seed: number) { return () => { seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff; return seed / 0x80000000; }; }
const median = (xs: number[]) => { const s = [...xs].sort((a, b) => a - b); return s.length ? s[Math.floor(s.length / 2)] : NaN; };
const ms = (x: number) => `${x.toFixed(x < 10 ? 2 : 0)} ms`;

/** Random position without 3-sided boxes (so it is not loony), `drawn` lines drawn. */
function quiet(w: number, h: number, drawn: number, r: () => number): BoardState {
  const g = geometryOf(w, h);
  const s = new BoardState(g);
  const order = g.allLines().map((l) => [r(), l]).sort((a, b) => a[0] - b[0]).map((p) => p[1]);
  let k = 0;
  for (const l of order) {
    if (k >= drawn) break;
    if (g.boxesOfLine(l).some((b) => s.sidesDrawn(b) === 2)) continue;
    s.drawSilently(l); k++;
  }
  return s;
}

export default async function run(): Promise<void> {
  const r = rng(2024);

  // 1. memoized vs naive (seed 003) on the same positions
  const memoT: number[] = [], naiveT: number[] = [], memoN: number[] = [], naiveN: number[] = [];
  for (let i = 0; i < 30; i++) {
    const s = quiet(3, 3, 10, r);
    const parts = simplify(cellsOfState(s).cells);
    if (parts === LOONY) continue;
    let t0 = performance.now();
    const ctx = newContext(1e8, new NimCache());
    let x = 0;
    for (const p of parts) x ^= regionValue(p, ctx);
    memoT.push(performance.now() - t0); memoN.push(ctx.nodes);
    t0 = performance.now();
    const counter = { nodes: 0, budget: 1e8 };
    const y = naiveValue(parts.flat(), counter);
    naiveT.push(performance.now() - t0); naiveN.push(counter.nodes);
    if (x !== y) throw new Error('memoized and naive values differ');
  }
  console.log(`3x3 positions with 10 lines drawn (${memoT.length}, cold memo each): memoized median ${ms(median(memoT))}, ${median(memoN)} regions; ` +
    `naive median ${ms(median(naiveT))}, ${median(naiveN)} nodes; speed-up x${(median(naiveT) / median(memoT)).toFixed(0)}`);

  // 2. whole 3x3 regions
  for (const drawn of [0, 4, 8]) {
    const ts: number[] = [], ns: number[] = [];
    for (let i = 0; i < (drawn === 0 ? 1 : 9); i++) {
      const s = quiet(3, 3, drawn, r);
      const t0 = performance.now();
      const res = nimstring(s, { cache: new NimCache(), moveValues: false, budget: 1e7 });
      ts.push(performance.now() - t0); ns.push(res.nodes);
      if (res.nimber === 'unknown') throw new Error('unknown on 3x3');
    }
    console.log(`3x3, ${drawn} lines drawn, one region, cold memo: median ${ms(median(ts))} (${median(ns)} regions evaluated)`);
  }
  {
    const s = new BoardState(geometryOf(3, 3));
    const cache = new NimCache();
    let t0 = performance.now();
    const res = nimstring(s, { moveValues: true, cache });
    const cold = performance.now() - t0;
    t0 = performance.now();
    nimstring(s, { moveValues: true, cache });
    console.log(`3x3 empty board, value *${res.nimber} and all 24 move values: cold ${ms(cold)} (${res.nodes} regions), again with the memo warm ${ms(performance.now() - t0)}`);
  }

  // 3. 5x5 midgame positions with several regions
  const ts: number[] = [], tsWarm: number[] = [], ns: number[] = [];
  let positions = 0, unknown = 0, regionsTotal = 0;
  const shared = new NimCache();
  for (let tries = 0; positions < 16 && tries < 5000; tries++) {
    const s = quiet(5, 5, 25 + Math.floor(r() * 6), r);
    const parts = simplify(cellsOfState(s).cells);
    if (parts === LOONY || parts.filter((p) => p.length >= 2).length < 2) continue;
    positions++;
    regionsTotal += parts.length;
    let t0 = performance.now();
    const res = nimstring(s, { cache: new NimCache(), budget: 3_000_000 });
    ts.push(performance.now() - t0); ns.push(res.nodes);
    if (!res.complete) unknown++;
    t0 = performance.now();
    nimstring(s, { cache: shared, budget: 3_000_000 });
    tsWarm.push(performance.now() - t0);
  }
  console.log(`5x5 midgame (25-30 lines drawn, >= 2 regions of 2+ boxes, ${positions} positions, ${(regionsTotal / positions).toFixed(1)} regions avg), value + all move values: ` +
    `cold memo median ${ms(median(ts))} (max ${ms(Math.max(...ts))}, median ${median(ns)} regions evaluated), ${unknown} over budget; shared memo median ${ms(median(tsWarm))}`);

  // 4. earlier 5x5 midgame: bigger regions (value only)
  const te: number[] = [], ne: number[] = [];
  let pe = 0, ue = 0;
  for (let tries = 0; pe < 8 && tries < 5000; tries++) {
    const s = quiet(5, 5, 21 + Math.floor(r() * 4), r);
    const parts = simplify(cellsOfState(s).cells);
    if (parts === LOONY || parts.filter((p) => p.length >= 2).length < 2) continue;
    pe++;
    const t0 = performance.now();
    const res = nimstring(s, { cache: new NimCache(), budget: 300_000, moveValues: false });
    te.push(performance.now() - t0); ne.push(res.nodes);
    if (res.nimber === 'unknown') ue++;
  }
  console.log(`5x5 earlier midgame (21-24 lines drawn, >= 2 regions, ${pe} positions), value only, budget 300k regions: ` +
    `median ${ms(median(te))} (max ${ms(Math.max(...te))}, median ${median(ne)} regions), ${ue} unknown (over budget)`);
}
