// Closed form (Allcock Theorems 4.1 and 4.2 + (2.1)) against the exact recursion on >= 10,000
// generated simple loony endgames, and on every sub-multiset of each of them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mulberry32 as rng } from '../support/random';
import {
  ComponentCounts,
  addComponent,
  analyzeEndgame,
  emptyCounts,
  emptyStats,
  addToStats,
  formatCounts,
  solveRecursion,
  controlledValue,
  valueExplicit,
  valueProcedural,
  valueAfterOpening,
  totalBoxes,
} from '../../server/src/engine/endgame';

// weighted alphabet, rich in 3-chains, 4-loops and 6-loops
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
  [1, 'chain', 8],
  [1, 'chain', 9],
  [1, 'chain', 12],
  [1, 'loop', 12],
  [1, 'loop', 14],
  [1, 'chain', 18],
  [1, 'loop', 20],
];
const TOTAL_W = ALPHABET.reduce((s, a) => s + a[0], 0);

function generate(r: () => number): ComponentCounts {
  const g = emptyCounts();
  // mostly small, regularly up to the limits (40 components, 100 boxes)
  const target = r() < 0.3 ? 1 + Math.floor(r() * 8) : 1 + Math.floor(r() * 40);
  // sometimes restrict to a few types so that counts get large
  const restrict = r() < 0.35 ? 1 + Math.floor(r() * 3) : 0;
  const allowed = restrict
    ? Array.from({ length: restrict }, () => ALPHABET[Math.floor(r() * ALPHABET.length)])
    : ALPHABET;
  const w = allowed.reduce((s, a) => s + a[0], 0);
  let boxes = 0,
    n = 0;
  while (n < target) {
    let x = r() * w,
      pick = allowed[0];
    for (const a of allowed) {
      x -= a[0];
      if (x < 0) {
        pick = a;
        break;
      }
    }
    if (boxes + pick[2] > 100) break;
    addComponent(g, { kind: pick[1], size: pick[2] });
    boxes += pick[2];
    n++;
  }
  void TOTAL_W;
  return g;
}

/** Allcock Theorem 1.1: an optimal opener move. */
function theorem11(g: ComponentCounts): string {
  const st = emptyStats();
  for (const [s, k] of g.chains) addToStats(st, 'chain', s, k);
  for (const [s, k] of g.loops) addToStats(st, 'loop', s, k);
  const c = controlledValue(st);
  const loops = [...g.loops.keys()].sort((a, b) => a - b);
  const chains = [...g.chains.keys()].sort((a, b) => a - b);
  const shortestLoop = loops.length ? `${loops[0]}l` : '';
  // (1) c >= 2 and G = 3 + (one or more loops)
  if (c >= 2 && st.chains === 1 && st.theta === 1 && st.loops > 0) return shortestLoop;
  // (2) c in {0, +-1} and G = 4l + (anything except 3 + 3 + 3)
  if (Math.abs(c) <= 1 && st.f > 0 && !(st.chains === 3 && st.theta === 3 && st.loops === 1)) return '4l';
  // (3) c <= -2 and G = 4l + 3 + H, 4 | size(H), H without 3-chains
  if (c <= -2 && st.f > 0 && st.theta === 1 && (st.size - 7) % 4 === 0) return '4l';
  // standard move
  if (st.theta > 0) return '3';
  if (loops.length) return shortestLoop;
  return `${chains[0]}`;
}

test('closed form (4.1, 4.2, openings, decisions) == recursion on 10,000 endgames and all their sub-multisets', () => {
  const r = rng(20240601);
  let cases = 0,
    subs = 0,
    maxComps = 0,
    maxStates = 0;
  const seenValues = new Map<number, number>();
  for (let i = 0; i < 10_000; i++) {
    const g = generate(r);
    const label = formatCounts(g);
    const cf = analyzeEndgame(g);
    const rec = analyzeEndgame(g, { method: 'recursion' });
    assert.equal(cf.method, 'closed-form');
    assert.equal(rec.method, 'recursion');
    assert.ok(rec.exact, label);
    assert.equal(cf.value, rec.value, `${label}: value`);
    const st = emptyStats();
    for (const [s, k] of g.chains) addToStats(st, 'chain', s, k);
    for (const [s, k] of g.loops) addToStats(st, 'loop', s, k);
    assert.equal(valueProcedural(st), rec.value, `${label}: Theorem 4.2`);
    assert.deepEqual(cf.best, rec.best, `${label}: optimal openings`);
    assert.deepEqual(cf.openings, rec.openings, `${label}: openings, values after, decisions`);
    for (const b of cf.best)
      assert.equal(
        cf.openings.find((o) => o.component === b)!.valueAfter,
        cf.value,
        `${label}: best ${b} achieves the value`,
      );
    // Theorem 1.1 (opener strategy) names an optimal move
    const t11 = theorem11(g);
    assert.ok(cf.best.includes(t11), `${label}: Theorem 1.1 move ${t11} not among ${cf.best}`);
    // Theorem 1.3 (controller): keep iff loop and c(G-C) > 4, or chain and v(G-C) > 2 -- must be optimal
    for (const o of cf.openings) {
      const rest = emptyStats();
      for (const [s2, k] of g.chains) addToStats(rest, 'chain', s2, k);
      for (const [s2, k] of g.loops) addToStats(rest, 'loop', s2, k);
      addToStats(rest, o.kind, o.size, -1);
      const keep = o.kind === 'loop' ? controlledValue(rest) > 4 : o.valueRest! > 2;
      if (keep) assert.ok(o.decision === 'keep', `${label}: 1.3 keep after ${o.component}`);
      else assert.ok(o.decision === 'all' || o.decision === 'either', `${label}: 1.3 all after ${o.component}`);
    }
    seenValues.set(cf.value!, (seenValues.get(cf.value!) ?? 0) + 1);
    maxComps = Math.max(maxComps, cf.componentCount);
    assert.ok(totalBoxes(g) <= 100);
    cases++;
    // every third case, every sub-multiset: 4.1 and 4.2 against the recursion table, and (2.1)
    if (i % 3 !== 0) continue;
    const table = solveRecursion(g)!;
    maxStates = Math.max(maxStates, table.table.length);
    const T = table.types.length;
    const d = new Int32Array(T + 1);
    const sub = emptyStats();
    for (let idx = 0; idx < table.table.length; idx++) {
      if (idx > 0) {
        let j = 0;
        while (d[j] === table.types[j].count) {
          addToStats(sub, table.types[j].kind, table.types[j].size, -d[j]);
          d[j] = 0;
          j++;
        }
        d[j]++;
        addToStats(sub, table.types[j].kind, table.types[j].size, 1);
      }
      const v = table.table[idx];
      const e = valueExplicit(sub);
      if (e !== v || valueProcedural(sub) !== v) {
        assert.fail(
          `sub-multiset ${Array.from(d.slice(0, T))
            .map((k, q) => `${table.types[q].name}x${k}`)
            .join(' ')} of ${label}: recursion ${v}, 4.1 ${e}, 4.2 ${valueProcedural(sub)}`,
        );
      }
      // optimal openings by closed form of G - C must reproduce the minimum
      let min = Infinity;
      for (let q = 0; q < T; q++) {
        if (d[q] === 0) continue;
        const t = table.types[q];
        addToStats(sub, t.kind, t.size, -1);
        const vr = valueExplicit(sub);
        addToStats(sub, t.kind, t.size, 1);
        if (vr !== table.table[idx - table.radix[q]]) assert.fail(`${label}: value of a sub-multiset minus ${t.name}`);
        const after = valueAfterOpening(t.kind, t.size, vr);
        if (after < min) min = after;
      }
      if (idx > 0 && min !== v) assert.fail(`${label}: sub-multiset #${idx}: min over openings ${min} != ${v}`);
      subs++;
    }
  }
  console.log(
    `  ${cases} endgames (max ${maxComps} components, max ${maxStates} sub-multisets each), ${subs} sub-multisets of a third of them checked`,
  );
  console.log(
    `  value distribution: ${[...seenValues]
      .sort((a, b) => a[0] - b[0])
      .map(([k, v]) => `${k}:${v}`)
      .join(' ')}`,
  );
  assert.ok(cases >= 10_000);
  assert.ok(maxComps >= 30);
});

test('closed form == recursion on 3^a + 4l^b + 6l^c (+ one extra) with up to 40 components', () => {
  const r = rng(99);
  let n = 0;
  for (let a = 0; a <= 40; a += 1 + Math.floor(r() * 3)) {
    for (let b = 0; a + b <= 40; b += 1 + Math.floor(r() * 4)) {
      for (let c = 0; a + b + c <= 40; c += 1 + Math.floor(r() * 5)) {
        const g = emptyCounts();
        if (a) addComponent(g, { kind: 'chain', size: 3 }, a);
        if (b) addComponent(g, { kind: 'loop', size: 4 }, b);
        if (c) addComponent(g, { kind: 'loop', size: 6 }, c);
        const extra = ALPHABET[Math.floor(r() * ALPHABET.length)];
        if (r() < 0.5) addComponent(g, { kind: extra[1], size: extra[2] });
        const cf = analyzeEndgame(g),
          rec = analyzeEndgame(g, { method: 'recursion' });
        assert.equal(cf.value, rec.value, formatCounts(g));
        assert.deepEqual(cf.openings, rec.openings, formatCounts(g));
        n++;
      }
    }
  }
  console.log(`  ${n} endgames of 3-chains, 4-loops and 6-loops`);
  assert.ok(n > 200);
});
