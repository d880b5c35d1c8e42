// The graph engine (server/src/engine/nimstring/graphEngine.ts) and each of its rules, against two
// independent brute forces: the whole-board one (brute.ts) and a strings-and-coins one on small
// random graphs written here (no captures, no regions, no loony detection, no keys).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { geometryOf } from '../../server/src/engine/board/geometry';
import { BoardState } from '../../server/src/engine/board/state';
import {
  nimstring,
  bruteValue,
  bruteWins,
  NimCache,
  ALL_RULES,
  NO_RULES,
  NimRules,
  newGraphContext,
  graphOf,
  simplifyGraph,
  regionsValue,
  graphSumWins,
  graphKey,
  LOONY,
  SGraph,
} from '../../server/src/engine/nimstring/index';
import { clearBruteMemo } from '../../server/src/engine/nimstring/brute';
import { lcg as rng } from '../support/random';
import { randomPosition } from '../support/boards';

/** Rules, and the size from which regions are valued by zero tests (graphWins; default 8). */
const CONFIGS: [string, Partial<NimRules>, number?][] = [
  ['all rules (+ every skipped move checked)', { ...ALL_RULES, verifySkips: true }],
  ['all rules, every region by zero tests (+ checked)', { ...ALL_RULES, verifySkips: true }, 1],
  ['all rules, no zero tests', ALL_RULES, Infinity],
  ['no rules, every region by zero tests', NO_RULES, 1],
  ['no rules', NO_RULES],
  ['graphKey only', { ...NO_RULES, graphKey: true }],
  ['shortenChains only', { ...NO_RULES, shortenChains: true }],
  ['skipLoony only (+ checked)', { ...NO_RULES, skipLoony: true, verifySkips: true }],
  ['all but graphKey', { ...ALL_RULES, graphKey: false }],
  ['all but shortenChains', { ...ALL_RULES, shortenChains: false }],
  ['all but skipLoony', { ...ALL_RULES, skipLoony: false }],
];

/** Every rule configuration on the same random positions: value = brute force; some move values too. */
function crossCheck(w: number, h: number, count: number, minDrawn: number, seed: number, withMoves: number) {
  const r = rng(seed);
  const positions: BoardState[] = [];
  for (let i = 0; i < count; i++) positions.push(randomPosition(w, h, r, minDrawn, i % 2 === 0));
  const brute = positions.map((s) => bruteValue(s));
  for (const [name, rules, zeroTestMinCoins] of CONFIGS) {
    const cache = new NimCache();
    positions.forEach((s, i) => {
      const res = nimstring(s, { cache, rules, zeroTestMinCoins, moveValues: i < withMoves, budget: 1e7 });
      assert.equal(res.nimber, brute[i], `${name}: ${w}x${h} ${s.key()}: ${res.nimber} vs brute ${brute[i]}`);
      for (const m of res.moveValues) {
        const after = s.clone();
        after.drawSilently(m.line);
        assert.equal(m.nimber, bruteValue(after), `${name}: ${s.key()} move ${m.name}`);
        assert.equal(m.winning, m.capture ? bruteWins(after) : !bruteWins(after));
      }
    });
  }
  const seen = new Map<string, number>();
  for (const b of brute) seen.set(String(b), (seen.get(String(b)) ?? 0) + 1);
  return seen;
}

test('graph engine, every rule configuration: random 2x3 positions = brute force', () => {
  const seen = crossCheck(2, 3, 1200, 0, 101, 200);
  assert.ok((seen.get('3') ?? 0) > 5 && (seen.get('loony') ?? 0) > 5, JSON.stringify([...seen]));
});

test('graph engine, every rule configuration: random late 3x3 positions = brute force', () => {
  const seen = crossCheck(3, 3, 700, 9, 202, 80);
  assert.ok((seen.get('2') ?? 0) > 5, JSON.stringify([...seen]));
});

test('graph engine, every rule configuration: 1x10 strips (long chains) = brute force', () => {
  const seen = crossCheck(10, 1, 300, 16, 303, 50);
  clearBruteMemo();
  assert.ok(seen.size >= 3, JSON.stringify([...seen]));
});

test('graph engine, every rule configuration: late 2x5 and 3x4 positions = brute force', () => {
  crossCheck(5, 2, 400, 12, 404, 40);
  crossCheck(4, 3, 250, 18, 505, 25);
  clearBruteMemo();
});

test('graph engine: the empty 3x3 board is *2 under every configuration but the slow raw one', () => {
  for (const [name, rules] of CONFIGS.filter(([, r]) => r.graphKey)) {
    assert.equal(
      nimstring(new BoardState(geometryOf(3, 3)), {
        cache: new NimCache(),
        rules: { ...rules, verifySkips: false },
        moveValues: false,
        budget: 1e7,
      }).nimber,
      2,
      name,
    );
  }
});

// ---- strings and coins on small random graphs (not only grid shapes: triangles, coins with 3 ground strings, ...)

/** Independent brute force on a graph: strings as a bit mask, Nimstring + a Nim heap of size k (as brute.ts). */
function graphBrute(ground: number[], edges: [number, number][]): number | 'loony' {
  const strings: [number, number][] = []; // [coin, coin or -1 for ground]
  ground.forEach((k, i) => {
    for (let t = 0; t < k; t++) strings.push([i, -1]);
  });
  for (const [a, b] of edges) strings.push([a, b]);
  const S = strings.length;
  const memo = new Map<number, boolean>();
  const deg = (mask: number, c: number) => {
    let d = 0;
    for (let s = 0; s < S; s++) if (mask & (1 << s) && (strings[s][0] === c || strings[s][1] === c)) d++;
    return d;
  };
  const wins = (mask: number, k: number): boolean => {
    const key = mask * 64 + k;
    const m = memo.get(key);
    if (m !== undefined) return m;
    let win = false;
    for (let h = 0; h < k && !win; h++) if (!wins(mask, h)) win = true;
    for (let s = 0; s < S && !win; s++) {
      if (!(mask & (1 << s))) continue;
      const m2 = mask & ~(1 << s);
      const [a, b] = strings[s];
      const completes = deg(m2, a) === 0 || (b >= 0 && deg(m2, b) === 0);
      win = completes ? wins(m2, k) : !wins(m2, k);
    }
    memo.set(key, win);
    return win;
  };
  const full = S === 31 ? 0x7fffffff : (1 << S) - 1;
  for (let k = 0; k <= S + 1; k++) if (!wins(full, k)) return k;
  return 'loony';
}

function randomGraph(r: () => number): { ground: number[]; edges: [number, number][] } {
  for (;;) {
    const n = 1 + Math.floor(r() * 7);
    const ground: number[] = Array.from({ length: n }, (): number =>
      r() < 0.45 ? 0 : r() < 0.7 ? 1 : r() < 0.7 ? 2 : 3,
    );
    const edges: [number, number][] = [];
    const deg = new Array(n).fill(0);
    const has = new Set<string>();
    const tries = Math.floor(r() * 2.2 * n);
    for (let t = 0; t < tries; t++) {
      const a = Math.floor(r() * n),
        b = Math.floor(r() * n);
      if (a === b || has.has(`${Math.min(a, b)},${Math.max(a, b)}`) || deg[a] >= 4 || deg[b] >= 4) continue;
      has.add(`${Math.min(a, b)},${Math.max(a, b)}`);
      deg[a]++;
      deg[b]++;
      edges.push([a, b]);
    }
    // sometimes a long chain or a loop hung on coin 0 (exercises shortenChains)
    if (r() < 0.5 && deg[0] <= 2) {
      const len = 3 + Math.floor(r() * 4);
      const loop = r() < 0.4 && deg[0] <= 2;
      let prev = 0;
      for (let t = 0; t < len; t++) {
        ground.push(0);
        const c = ground.length - 1;
        edges.push([prev, c]);
        prev = c;
      }
      if (loop) edges.push([prev, 0]);
      else ground[prev] = 1;
    }
    const S = ground.reduce((a, b) => a + b, 0) + edges.length;
    if (S >= 2 && S <= 17) return { ground, edges };
  }
}

test('graph engine on random strings-and-coins graphs = graph brute force, every configuration', () => {
  const r = rng(606);
  const counters = { shortened: 0, dropped: 0, skipped: 0 };
  const seen = new Map<string, number>();
  for (let it = 0; it < 900; it++) {
    const { ground, edges } = randomGraph(r);
    const expect = graphBrute(ground, edges);
    seen.set(String(expect), (seen.get(String(expect)) ?? 0) + 1);
    for (const [name, rules, zeroTestMinCoins] of CONFIGS) {
      const ctx = newGraphContext(1e7, new NimCache(), rules, zeroTestMinCoins);
      const got = regionsValue(simplifyGraph(graphOf(ground, edges), ctx), ctx);
      assert.equal(got, expect, `${name}: ground ${JSON.stringify(ground)} edges ${JSON.stringify(edges)}`);
      if (name.startsWith('all rules')) {
        counters.shortened += ctx.shortened;
        counters.dropped += ctx.dropped;
        counters.skipped += ctx.skipped;
      }
    }
    // the zero test itself, against every heap: G + *h is won exactly when h is not G's value
    if (expect === 'loony') continue;
    const ctx = newGraphContext(1e7, new NimCache(), { ...ALL_RULES, verifySkips: true }, 1);
    const parts = simplifyGraph(graphOf(ground, edges), ctx);
    assert.notEqual(parts, LOONY);
    for (let h = 0; h <= 4; h++)
      assert.equal(graphSumWins(parts as SGraph[], h, ctx), expect !== h, `*${h} + ${JSON.stringify([ground, edges])}`);
  }
  // every rule actually fired
  assert.ok(counters.shortened > 50 && counters.dropped > 20 && counters.skipped > 200, JSON.stringify(counters));
  assert.ok(
    (seen.get('loony') ?? 0) > 20 && (seen.get('0') ?? 0) > 20 && (seen.get('1') ?? 0) > 20 && (seen.get('2') ?? 0) > 5,
    JSON.stringify([...seen]),
  );
});

test('graph keys: isomorphic graphs (relabelled at random) share a key; different graphs do not', () => {
  const r = rng(707);
  const byKey = new Map<string, string>();
  for (let it = 0; it < 400; it++) {
    const { ground, edges } = randomGraph(r);
    const n = ground.length;
    const perm = Array.from({ length: n }, (_, i) => i)
      .map((i) => [r(), i])
      .sort((a, b) => a[0] - b[0])
      .map((p) => p[1]);
    const G1 = graphOf(ground, edges);
    const g2 = new Array<number>(n);
    ground.forEach((k, i) => {
      g2[perm[i]] = k;
    });
    const G2 = graphOf(
      g2,
      edges.map(([a, b]) => [perm[b], perm[a]] as [number, number]),
    );
    assert.equal(graphKey(G1), graphKey(G2), `${JSON.stringify(ground)} ${JSON.stringify(edges)}`);
    // a key never stands for two different graphs: its decoding is the graph (checked by degree sequences here)
    const sig = (G: SGraph) =>
      Array.from({ length: G.n }, (_, i) => `${G.g[i]}/${G.nd[i]}`)
        .sort()
        .join(',') + `|${edges.length}`;
    const k = graphKey(G1);
    const prev = byKey.get(k);
    if (prev !== undefined) assert.equal(prev, sig(G1));
    byKey.set(k, sig(G1));
  }
});

test('chain rules are visible: a long chain shortened, an isolated loop and long chain dropped', () => {
  // junction 0 with 2 ground strings and a 6-chain to the ground
  const ctx = newGraphContext(1e7, new NimCache(), ALL_RULES);
  const parts = simplifyGraph(
    graphOf(
      [2, 0, 0, 0, 0, 0, 1],
      [
        [0, 1],
        [1, 2],
        [2, 3],
        [3, 4],
        [4, 5],
        [5, 6],
      ],
    ),
    ctx,
  );
  assert.notEqual(parts, LOONY);
  if (parts === LOONY) return;
  assert.equal(parts.length, 1);
  assert.equal(parts[0].n, 4);
  assert.equal(ctx.shortened, 1);
  // an isolated 5-loop and an isolated 4-chain: value 0, dropped
  const ctx2 = newGraphContext(1e7, new NimCache(), ALL_RULES);
  const p2 = simplifyGraph(
    graphOf(
      [0, 0, 0, 0, 0, 1, 0, 0, 1],
      [
        [0, 1],
        [1, 2],
        [2, 3],
        [3, 4],
        [4, 0],
        [5, 6],
        [6, 7],
        [7, 8],
      ],
    ),
    ctx2,
  );
  assert.deepEqual(p2, []);
  assert.equal(ctx2.dropped, 2);
});
