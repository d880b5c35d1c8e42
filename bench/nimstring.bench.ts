// Nimstring nim-values: the graph engine (graphEngine.ts, the default since stop 46) with its zero tests
// and with the mex alone (as it was before its zero tests), and with no rules; the board-cell engine
// (cellEngine.ts, the default before) with its zero tests and with the mex alone; and Brinker's naive
// recursion ("Developing an efficient algorithm for nimber calculation in Dots and Boxes"), on the same
// positions in one process: the empty 3x3 board, 3x3 positions, 4x4 early positions, 5x5 midgames, and
// the middle games of plausible 5x5 records (value, and who wins the chain fight on each engine).
import { geometryOf } from '../server/src/engine/board/geometry';
import { BoardState } from '../server/src/engine/board/state';
import {
  nimstring,
  NimCache,
  naiveValue,
  regionValue,
  newContext,
  cellsOfState,
  simplify,
  LOONY,
  NO_RULES,
  newGraphContext,
  regionsValue,
  regionsOfCells,
  chainFight,
} from '../server/src/engine/nimstring/index';
import type { NimstringOptions } from '../server/src/engine/nimstring/index';
import { lcg as rng, mulberry32 } from '../test/support/random';
import { plausibleGame } from '../test/support/boards';

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)] : NaN;
};
const ms = (x: number) => `${x.toFixed(x < 10 ? 2 : 0)} ms`;

/** Random position without 3-sided boxes (so it is not loony), `drawn` lines drawn. */
function quiet(w: number, h: number, drawn: number, r: () => number): BoardState {
  const g = geometryOf(w, h);
  const s = new BoardState(g);
  const order = g
    .allLines()
    .map((l) => [r(), l])
    .sort((a, b) => a[0] - b[0])
    .map((p) => p[1]);
  let k = 0;
  for (const l of order) {
    if (k >= drawn) break;
    if (g.boxesOfLine(l).some((b) => s.sidesDrawn(b) === 2)) continue;
    s.drawSilently(l);
    k++;
  }
  return s;
}

type Config = { name: string; opts: NimstringOptions };
const CONFIGS: Config[] = [
  { name: 'cells, zero tests', opts: { engine: 'cells' } },
  { name: 'cells, mex only', opts: { engine: 'cells', zeroTestMinCoins: Infinity } },
  { name: 'graph, no rules', opts: { rules: NO_RULES } },
  { name: 'graph, zero tests', opts: { engine: 'graph' } },
  { name: 'graph, mex only', opts: { engine: 'graph', zeroTestMinCoins: Infinity } },
];

/** Run every config on the same positions (cold memo per position); print medians and unknown counts. */
function compare(label: string, positions: BoardState[], budget: number, moveValues: boolean, configs = CONFIGS): void {
  const rows: string[] = [];
  const values: string[][] = [];
  for (const c of configs) {
    const ts: number[] = [],
      ns: number[] = [];
    let unknown = 0;
    const vals: string[] = [];
    for (const s of positions) {
      const t0 = performance.now();
      const res = nimstring(s, { ...c.opts, cache: new NimCache(), budget, moveValues });
      ts.push(performance.now() - t0);
      ns.push(res.nodes);
      if (!res.complete) unknown++;
      vals.push(String(res.nimber));
    }
    values.push(vals);
    rows.push(
      `    ${c.name.padEnd(18)} median ${ms(median(ts)).padStart(9)}  max ${ms(Math.max(...ts)).padStart(9)}  total ${ms(ts.reduce((a, b) => a + b, 0)).padStart(9)}  median ${median(ns)} regions evaluated, ${unknown}/${positions.length} unknown`,
    );
  }
  // where both know the value, they agree (the tests check this against the brute force)
  for (let i = 0; i < positions.length; i++) {
    const known = values.map((v) => v[i]).filter((v) => v !== 'unknown');
    if (new Set(known).size > 1)
      throw new Error(`${label}: configurations disagree on position ${i}: ${values.map((v) => v[i])}`);
  }
  console.log(`${label}:`);
  for (const r of rows) console.log(r);
}

export default async function run(): Promise<void> {
  const r = rng(2024);

  // 1. empty 3x3 board, cold memo: every configuration
  {
    const s = new BoardState(geometryOf(3, 3));
    const configs: Config[] = [
      ...CONFIGS,
      { name: 'all but graphKey', opts: { rules: { graphKey: false } } },
      { name: 'all but shorten', opts: { rules: { shortenChains: false } } },
      { name: 'all but skipLoony', opts: { rules: { skipLoony: false } } },
    ];
    compare('3x3 empty board (value *2), value only, cold memo', [s], 1e8, false, configs);
    const cache = new NimCache();
    let t0 = performance.now();
    const res = nimstring(s, { moveValues: true, cache, engine: 'graph' });
    const cold = performance.now() - t0;
    t0 = performance.now();
    nimstring(s, { moveValues: true, cache, engine: 'graph' });
    console.log(
      `3x3 empty board, graph engine, value *${res.nimber} + all 24 move values: cold ${ms(cold)} (${res.nodes} regions), memo warm ${ms(performance.now() - t0)}`,
    );
  }

  // 2. Brinker's naive recursion against the memoized engines on small positions
  {
    const naiveT: number[] = [],
      graphT: number[] = [],
      cellT: number[] = [],
      naiveN: number[] = [];
    for (let i = 0; i < 30; i++) {
      const s = quiet(3, 3, 10, r);
      const parts = simplify(cellsOfState(s).cells);
      if (parts === LOONY) continue;
      let t0 = performance.now();
      const counter = { nodes: 0, budget: 1e8 };
      const y = naiveValue(parts.flat(), counter);
      naiveT.push(performance.now() - t0);
      naiveN.push(counter.nodes);
      t0 = performance.now();
      const ctx = newContext(1e8, new NimCache());
      let x = 0;
      for (const p of parts) x ^= regionValue(p, ctx);
      cellT.push(performance.now() - t0);
      t0 = performance.now();
      const gctx = newGraphContext(1e8, new NimCache());
      const z = regionsValue(regionsOfCells(cellsOfState(s).cells, gctx), gctx);
      graphT.push(performance.now() - t0);
      if (x !== y || z !== y) throw new Error('naive, cell and graph values differ');
    }
    console.log(
      `3x3 with 10 lines drawn (${naiveT.length} positions, cold memo each): naive (Brinker) median ${ms(median(naiveT))} (${median(naiveN)} nodes); ` +
        `cell engine ${ms(median(cellT))}; graph engine ${ms(median(graphT))}; speed-up over naive x${(median(naiveT) / median(graphT)).toFixed(0)}`,
    );
  }

  // 3. 4x4 early positions (value only, budget 300k regions)
  {
    const ps: BoardState[] = [];
    for (let i = 0; i < 6; i++) ps.push(quiet(4, 4, 14 + (i % 3) * 2, r));
    compare('4x4 early (14-18 of 40 lines drawn, 6 positions), value only, budget 300k regions', ps, 300_000, false);
  }

  // 4. 5x5 midgame positions with several regions, value + all move values
  {
    const ps: BoardState[] = [];
    for (let tries = 0; ps.length < 16 && tries < 5000; tries++) {
      const s = quiet(5, 5, 25 + Math.floor(r() * 6), r);
      const parts = simplify(cellsOfState(s).cells);
      if (parts === LOONY || parts.filter((p) => p.length >= 2).length < 2) continue;
      ps.push(s);
    }
    compare(
      '5x5 midgame (25-30 lines drawn, >= 2 regions, 16 positions), value + every move value, budget 3M',
      ps,
      3_000_000,
      true,
    );
  }

  // 5. earlier 5x5 midgame: bigger regions (value only)
  {
    const ps: BoardState[] = [];
    for (let tries = 0; ps.length < 8 && tries < 5000; tries++) {
      const s = quiet(5, 5, 21 + Math.floor(r() * 4), r);
      const parts = simplify(cellsOfState(s).cells);
      if (parts === LOONY || parts.filter((p) => p.length >= 2).length < 2) continue;
      ps.push(s);
    }
    compare(
      '5x5 earlier midgame (21-24 lines drawn, >= 2 regions, 8 positions), value only, budget 300k',
      ps,
      300_000,
      false,
    );
  }

  // 6. the middle games of plausible 5x5 records (the positions the CLI reviews): the value, and who
  // wins the chain fight alone (one zero test, `chainFight`)
  for (const ply of [24, 22, 20, 19]) {
    const ps: BoardState[] = [];
    for (const seed of [1, 2, 3, 4, 5, 6]) {
      const s = new BoardState(geometryOf(5, 5));
      for (const l of plausibleGame(5, 5, mulberry32(seed), 60).slice(0, ply)) s.play(l);
      ps.push(s);
    }
    compare(`plausible 5x5 records (seeds 1-6), ply ${ply}, value only, budget 300k`, ps, 300_000, false, [
      CONFIGS[0],
      CONFIGS[1],
      CONFIGS[3],
    ]);
    for (const engine of ['cells', 'graph'] as const) {
      const ts: number[] = [],
        ns: number[] = [];
      let unknown = 0;
      for (const s of ps) {
        const t0 = performance.now();
        const f = chainFight(s, { cache: new NimCache(), budget: 300_000, engine });
        ts.push(performance.now() - t0);
        ns.push(f.nodes);
        if (f.moverWins === 'unknown') unknown++;
      }
      console.log(
        `    ${`chain fight, ${engine}`.padEnd(18)} median ${ms(median(ts)).padStart(9)}  max ${ms(Math.max(...ts)).padStart(9)}  total ${ms(ts.reduce((a, b) => a + b, 0)).padStart(9)}  median ${median(ns)} regions evaluated, ${unknown}/${ps.length} unknown`,
      );
    }
  }
}
