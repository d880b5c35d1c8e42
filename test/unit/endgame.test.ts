// Abstract endgames: seed facts, API behaviour, plays, and the recursion with short chains and
// odd loops against an independent strings-and-coins minimax.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mulberry32 as rng } from '../support/random';
import {
  analyzeEndgame,
  evaluatePlay,
  parseComponents,
  countsOf,
  cloneCounts,
  removeComponent,
  addComponent,
  emptyCounts,
  formatCounts,
  countsKey,
  statsOf,
  controlledValue,
  terminalBonus,
  coreOf,
  sigmaPow,
  phiPow,
  valueExplicit,
  valueProcedural,
  ComponentCounts,
  componentsOf,
  typesOf,
  recursionValue,
  parsePlay,
} from '../../server/src/engine/endgame';

// ------------------------------------------------------------------ seed facts (Allcock, B&C)

test('v(3^n) = 0, 3, 2, 1, 2, 1, 2, ... (both methods)', () => {
  const expected = [0, 3, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2];
  for (let n = 0; n < expected.length; n++) {
    const g = emptyCounts();
    if (n) addComponent(g, { kind: 'chain', size: 3 }, n);
    assert.equal(analyzeEndgame(g).value, expected[n], `closed form 3^${n}`);
    assert.equal(analyzeEndgame(g, { method: 'recursion' }).value, expected[n], `recursion 3^${n}`);
  }
  // controller: must keep control when n = 2, must give up when n = 1 or n even > 2
  assert.equal(analyzeEndgame('3 3').openings[0].decision, 'keep');
  assert.equal(analyzeEndgame('3').openings[0].decision, 'all');
  assert.equal(analyzeEndgame('3 3 3 3').openings[0].decision, 'all');
  assert.equal(analyzeEndgame('3 3 3').openings[0].decision, 'either');
  // large n by the closed form
  assert.equal(analyzeEndgame('3^100000').value, 2);
  assert.equal(analyzeEndgame('3^100001').value, 1);
});

test('v(3 + 4l + 8l) = 1, opening the 4-loop is the only optimal move', () => {
  const a = analyzeEndgame('3 + 4l + 8l');
  assert.equal(a.value, 1);
  assert.equal(a.valueForOpener, -1);
  assert.deepEqual(a.best, ['4l']);
  assert.equal(a.controlledValue, 15 - 4 - 16 + 6);
  assert.deepEqual(analyzeEndgame('3 + 4l + 8l', { method: 'recursion' }).best, ['4l']);
  // "open the 4-loop first and the 8-loop second"
  const p = evaluatePlay('3 4l 8l', '4l:keep 8l:all 3');
  assert.ok(p.ok);
  assert.deepEqual(
    p.steps.map((s) => s.openerLoss),
    [0, 0, 0],
  );
});

test('Allcock example 1.2: five 3-chains + 4l + 8l, c = -3, the optimal opening orders', () => {
  const a = analyzeEndgame('3 3 3 3 3 4l 8l');
  assert.equal(a.controlledValue, -3);
  assert.equal(a.terminalBonus, 6); // loops and 3-chains only
  assert.equal(a.value, 1);
  // the spec's line: every step optimal for both sides, controller wins by 1
  const p = evaluatePlay('3 3 3 3 3 4l 8l', '3:keep 3:all 4l:all 3:keep 3:keep 8l:all 3');
  assert.ok(p.ok, JSON.stringify(p.steps.find((s) => s.error)));
  for (const s of p.steps) {
    assert.equal(s.openerLoss, 0, `opener at step ${s.index}`);
    assert.equal(s.controllerLoss, 0, `controller at step ${s.index}`);
  }
  assert.deepEqual(
    p.steps.map((s) => s.opener),
    [0, 0, 1, 0, 0, 0, 1],
  );
  assert.deepEqual(p.score, [13, 14]);
  assert.ok(p.complete);
  // Allcock: the only optimal lines open 3,3,4l,3,3,8l,3 or 3,4l,3,3,3,8l,3
  const orders = new Set<string>();
  const walk = (g: ComponentCounts, prefix: string[]) => {
    const r = analyzeEndgame(g);
    if (r.componentCount === 0) {
      orders.add(prefix.join(','));
      return;
    }
    for (const b of r.best) {
      const o = r.openings.find((x) => x.component === b)!;
      const h = cloneCounts(g);
      removeComponent(h, o);
      walk(h, [...prefix, b]);
    }
  };
  walk(countsOf('3 3 3 3 3 4l 8l'), []);
  assert.deepEqual([...orders].sort(), ['3,3,4l,3,3,8l,3', '3,4l,3,3,3,8l,3']);
});

test('terminal bonus and controlled value (1.1, 1.2)', () => {
  const tb = (s: string) => terminalBonus(statsOf(countsOf(s)));
  const c = (s: string) => controlledValue(statsOf(countsOf(s)));
  assert.equal(tb(''), 0);
  assert.equal(tb('4l 6l'), 8);
  assert.equal(tb('3 3 4l'), 6);
  assert.equal(tb('3 4 4l'), 4);
  assert.equal(tb('3 3'), 4);
  assert.equal(c('3 3 3 3 3 4l 8l'), 27 - 20 - 16 + 6);
  assert.equal(c('12 10l'), 14);
});

test('Allcock example 4.3: (8l^2 + 18) + 6l^9 + 3 + 4l^101 has value 1', () => {
  const g = countsOf('8l^2 + 18 + 6l^9 + 3 + 4l^101');
  const st = statsOf(g);
  const core = coreOf(st);
  assert.equal(core.c0, 18); // v(G0) = c(G0) = 18
  assert.equal(core.thetaPrime, 1);
  assert.equal(sigmaPow(18, 7), 4); // the first seven 6-loops
  assert.equal(sigmaPow(18, 9), 4); // bounce 2 and back to 4
  assert.equal(sigmaPow(18, 8), 2);
  assert.equal(phiPow(3, 101), 1); // 3 and 1 an odd number of times
  assert.equal(valueProcedural(st), 1);
  assert.equal(valueExplicit(st), 1);
  const a = analyzeEndgame(g);
  assert.equal(a.value, 1);
  assert.equal(a.method, 'closed-form');
  assert.deepEqual(a.best, ['4l']);
  // recursion agrees (2*3*10*2*102 = 24,480 states)
  assert.equal(analyzeEndgame(g, { method: 'recursion' }).value, 1);
});

test('v(3 + 3) = 2: the opener opens, the controller keeps control', () => {
  const a = analyzeEndgame('3 3');
  assert.equal(a.value, 2);
  assert.equal(a.openings[0].decision, 'keep');
  const p = evaluatePlay('3 3', '3:keep 3');
  assert.deepEqual(p.score, [2, 4]);
});

test('Buzzard & Ciere figure 5: 3 3 4 6l, value 2, the line 3:all 3:keep 6l:all 4 is optimal', () => {
  const a = analyzeEndgame('3 3 4 6l');
  assert.equal(a.value, 2);
  assert.equal(a.controlledValue, 0);
  assert.deepEqual(a.best, ['3', '4']);
  const p = evaluatePlay('3 3 4 6l', '3:all 3:keep 6l:all 4');
  assert.ok(p.ok);
  for (const s of p.steps) {
    assert.equal(s.openerLoss, 0);
    assert.equal(s.controllerLoss, 0);
  }
  // side 0 opens first; the controller (side 1) ends 2 boxes ahead
  assert.deepEqual(p.score, [7, 9]);
  assert.deepEqual(
    p.steps.map((s) => s.opener),
    [0, 1, 1, 0],
  );
  // the Nimstring line (controller always keeps) loses 10-6 for the opener... and is worse for nobody?
  const keepAll = evaluatePlay('3 3 4 6l', '3:keep 3:keep 4:keep 6l');
  assert.deepEqual(keepAll.score, [6, 10]);
  assert.ok(keepAll.steps.some((s) => (s.controllerLoss ?? 0) > 0 || (s.openerLoss ?? 0) > 0));
});

test('Allcock figure 1: 12 + 10l, the controller wins 18-4 (18-7 with the 3 earlier boxes)', () => {
  const a = analyzeEndgame('12 + 10l');
  assert.equal(a.value, 14);
  assert.deepEqual(a.best, ['10l']);
  assert.equal(a.openings.find((o) => o.component === '12')!.valueAfter, 18); // 20-2 after opening the chain
  const p = evaluatePlay('12 + 10l', '10l:keep 12');
  assert.ok(p.ok);
  assert.deepEqual(p.score, [4, 18]);
  const q = evaluatePlay('12 + 10l', '12:keep 10l');
  assert.deepEqual(q.score, [2, 20]);
  assert.equal(q.steps[0].openerLoss, 4);
});

// ------------------------------------------------------------------ parsing and API

test('component parsing: separators, repeats, loops, errors, notes', () => {
  const r = parseComponents('3 + 4l, 8L 6l^3 5*2 4ℓ');
  assert.ok(r.ok);
  assert.equal(countsKey(r.counts), '3+5^2+4l^2+6l^3+8l');
  assert.equal(formatCounts(r.counts), '3 + 5 + 5 + 4l + 4l + 6l + 6l + 6l + 8l');
  assert.equal(formatCounts(countsOf('3^40')), '3^40');
  const bad = parseComponents('3 2l x 0 4l^0');
  assert.equal(bad.ok, false);
  if (!bad.ok) {
    assert.equal(bad.errors.length, 4);
    assert.deepEqual(
      bad.errors.map((e) => [e.start, e.end]),
      [
        [2, 4],
        [5, 6],
        [7, 8],
        [9, 13],
      ],
    );
  }
  const odd = parseComponents('5l 3');
  assert.ok(odd.ok);
  assert.equal(odd.notes.length, 1);
  assert.match(odd.notes[0].message, /strings-and-coins/);
  assert.deepEqual(componentsOf(countsOf('3 4l 3')), [
    { kind: 'chain', size: 3 },
    { kind: 'chain', size: 3 },
    { kind: 'loop', size: 4 },
  ]);
  assert.deepEqual(
    typesOf(countsOf('4l 3 3')).map((t) => [t.name, t.count]),
    [
      ['3', 2],
      ['4l', 1],
    ],
  );
  assert.throws(() => countsOf([{ kind: 'loop', size: 2 }]));
});

test('empty endgame', () => {
  const a = analyzeEndgame('');
  assert.equal(a.value, 0);
  assert.equal(a.valueForOpener, 0);
  assert.deepEqual(a.best, []);
  assert.deepEqual(a.openings, []);
});

test('huge counts: 100,000 components by the closed form in milliseconds', () => {
  const g = countsOf('3^40000 4l^30000 6l^20000 8l^5000 5^4000 10l^1000');
  analyzeEndgame(countsOf('3 4l 6l 8l 5 10l')); // warm up
  const t0 = performance.now();
  const a = analyzeEndgame(g);
  const ms = performance.now() - t0;
  assert.equal(a.componentCount, 100_000);
  assert.ok(ms < 100, `took ${ms} ms`); // typically ~0.01 ms (see bench/endgame.bench.ts)
  assert.equal(a.value, valueProcedural(statsOf(g)));
  assert.ok(a.best.length >= 1);
  // from an array of 100,000 components too
  const arr = componentsOf(g);
  const t1 = performance.now();
  const b = analyzeEndgame(arr);
  assert.ok(performance.now() - t1 < 200);
  assert.deepEqual(b.openings, a.openings);
});

test('hostile input to the recursion: 1 2 3 ... 200 is refused at once, not computed', () => {
  const s = Array.from({ length: 200 }, (_, i) => String(i + 1)).join(' ');
  const t0 = performance.now();
  const a = analyzeEndgame(s);
  // Refused, not computed: computing would take hours; 2 s leaves room for a loaded CI machine.
  assert.ok(performance.now() - t0 < 2000);
  assert.equal(a.method, 'recursion');
  assert.equal(a.exact, false);
  assert.equal(a.value, undefined);
  assert.match(a.reason!, /budget/);
  assert.equal(recursionValue(countsOf('1 1 1 2 2 2 5 7l'), { maxStates: 10 }), undefined);
  assert.equal(
    recursionValue(countsOf('1 1 1 2 2 2 5 7l'), { maxStates: 1000 }),
    recursionValue(countsOf('1 1 1 2 2 2 5 7l')),
  );
  // a huge simple part plus one 1-chain still fits the budget (2 x 100,001 states)
  const b = analyzeEndgame('3^100000 1');
  assert.equal(b.exact, true);
  assert.equal(typeof b.value, 'number');
});

// ------------------------------------------------------------------ plays

test('play evaluation: illegal steps, suffix rules, opener after :all', () => {
  const p = evaluatePlay('3 3 4l', '4l:all 3:keep 5');
  assert.equal(p.ok, false);
  assert.match(p.steps[2].error!, /no 5/);
  assert.equal(p.steps[0].opener, 0);
  assert.equal(p.steps[1].opener, 1); // side 1 took all and must open
  const q = evaluatePlay('3 3 4l', '3 3:all 4l');
  assert.equal(q.ok, false);
  assert.match(q.steps[0].error!, /:keep or 3:all/);
  const r = evaluatePlay('1 3', '1:keep 3');
  assert.equal(r.ok, false);
  assert.match(r.steps[0].error!, /cannot be declined/);
  const s = evaluatePlay('1 3', '1:all 3:all');
  assert.ok(s.ok);
  assert.ok(s.steps[0].note && s.steps[1].note);
  assert.deepEqual(
    s.steps.map((x) => x.opener),
    [0, 1],
  );
  assert.deepEqual(s.score, [3, 1]);
  // v(1 + 3) = 1 - 3 = -2: the opener wins by 2
  assert.equal(analyzeEndgame('1 3').value, -2);
  assert.equal(s.steps[0].valueBefore, -2);
  // a 2-chain: no suffix = opened by the middle line; with a suffix = opened at an end
  const t = evaluatePlay('2 3', '2 3');
  assert.ok(t.ok);
  assert.equal(t.steps[0].openerLoss, 0);
  const u = evaluatePlay('2 3 3', '2:keep 3:keep 3');
  assert.ok(u.ok);
  assert.equal(u.steps[0].decision, 'keep');
  // partial line: remaining value and opener
  const w = evaluatePlay('3 3 3', '3:all');
  assert.ok(w.ok && !w.complete);
  assert.equal(w.remainingValue, 2);
  assert.equal(w.nextOpener, 1);
  // malformed token
  const m = evaluatePlay('3 3', '3:keep 3:maybe');
  assert.equal(m.ok, false);
  assert.match(m.steps[m.steps.length - 1].error!, /:keep or :all/);
  assert.equal(parsePlay('3:KEEP 4l:All').ok, true);
});

test('play losses: a bad opening and a bad controller reply are measured', () => {
  // 3 + 4l + 8l: opening the 3-chain costs 2 (v(G;3) = 3 vs v = 1)
  const p = evaluatePlay('3 4l 8l', '3:keep 4l:all 8l');
  assert.equal(p.steps[0].openerLoss, 2);
  assert.equal(p.steps[0].controllerLoss, 0);
  // 3^4: the controller must take all; keeping loses 2 boxes (1 + |v(3^3)-2| = 2, keep = -1 + 1 = 0)
  const q = evaluatePlay('3 3 3 3', '3:keep 3:all 3:keep 3');
  assert.equal(q.steps[0].bestDecision, 'all');
  assert.equal(q.steps[0].controllerLoss, 2);
});

// ------------------------------------------------------------------ short chains and odd loops vs strings-and-coins

/** Independent strings-and-coins minimax: coins, strings between coins or to the ground (-1). */
function scBrute(strings: [number, number][], coins: number): { value: number; after: number[] } {
  const k = strings.length;
  const coinMask = new Array(coins).fill(0);
  strings.forEach(([a, b], i) => {
    coinMask[a] |= 1 << i;
    if (b >= 0) coinMask[b] |= 1 << i;
  });
  const full = (1 << k) - 1;
  const SENT = -32768;
  const memo = new Int16Array(1 << k).fill(SENT);
  const gain = (i: number, m2: number) => {
    let n = 0;
    const [a, b] = strings[i];
    if ((coinMask[a] & ~m2) === 0) n++;
    if (b >= 0 && b !== a && (coinMask[b] & ~m2) === 0) n++;
    return n;
  };
  const solve = (mask: number): number => {
    if (mask === full) return 0;
    const hit = memo[mask];
    if (hit !== SENT) return hit;
    let best = -1e9;
    for (let i = 0; i < k; i++) {
      if (mask & (1 << i)) continue;
      const m2 = mask | (1 << i);
      const n = gain(i, m2);
      const v = n > 0 ? n + solve(m2) : 0 - solve(m2);
      if (v > best) best = v;
    }
    memo[mask] = best;
    return best;
  };
  const after: number[] = [];
  for (let i = 0; i < k; i++) {
    const n = gain(i, 1 << i);
    after.push(n > 0 ? n + solve(1 << i) : 0 - solve(1 << i)); // value for the mover who cut string i
  }
  return { value: k ? Math.max(...after) : 0, after };
}

/** Build the strings of an endgame; returns for each component its string indices (path order). */
function buildSC(comps: { kind: 'chain' | 'loop'; size: number }[]) {
  const strings: [number, number][] = [];
  const owner: number[][] = [];
  let coin = 0;
  for (const c of comps) {
    const idx: number[] = [];
    const first = coin;
    if (c.kind === 'chain') {
      idx.push(strings.length);
      strings.push([first, -1]);
      for (let i = 0; i < c.size - 1; i++) {
        idx.push(strings.length);
        strings.push([first + i, first + i + 1]);
      }
      idx.push(strings.length);
      strings.push([first + c.size - 1, -1]);
    } else {
      for (let i = 0; i < c.size; i++) {
        idx.push(strings.length);
        strings.push([first + i, first + ((i + 1) % c.size)]);
      }
    }
    coin += c.size;
    owner.push(idx);
  }
  return { strings, owner, coins: coin };
}

test('recursion with 1-chains, 2-chains and odd loops == strings-and-coins minimax', () => {
  const r = rng(4242);
  const alphabet: { kind: 'chain' | 'loop'; size: number }[] = [
    { kind: 'chain', size: 1 },
    { kind: 'chain', size: 2 },
    { kind: 'chain', size: 3 },
    { kind: 'chain', size: 4 },
    { kind: 'chain', size: 5 },
    { kind: 'loop', size: 3 },
    { kind: 'loop', size: 4 },
    { kind: 'loop', size: 5 },
    { kind: 'loop', size: 6 },
    { kind: 'loop', size: 7 },
  ];
  let n = 0,
    negative = 0;
  for (let i = 0; i < 700; i++) {
    const comps: { kind: 'chain' | 'loop'; size: number }[] = [];
    let strings = 0;
    const target = 1 + Math.floor(r() * 6);
    while (comps.length < target) {
      const c = alphabet[Math.floor(r() * alphabet.length)];
      const s = c.kind === 'chain' ? c.size + 1 : c.size;
      if (strings + s > 17) break;
      comps.push(c);
      strings += s;
    }
    if (!comps.length) continue;
    const g = countsOf(comps);
    const a = analyzeEndgame(g);
    const { strings: st, owner, coins } = buildSC(comps);
    const bf = scBrute(st, coins);
    const label = formatCounts(g);
    assert.equal(a.valueForOpener, bf.value, `${label}: value`);
    if (a.value! < 0) negative++;
    // every opening: v(G;C) = -(mover's value after cutting a string of C); 2-chains by the middle
    for (const o of a.openings) {
      const ci = comps.findIndex((c) => c.kind === o.kind && c.size === o.size);
      const idx = owner[ci];
      if (o.kind === 'chain' && o.size === 2) {
        assert.equal(o.valueAfter, 0 - bf.after[idx[1]], `${label}: 2-chain middle`);
        // end lines: |v(G-2) - 2|
        assert.equal(Math.abs(o.valueRest! - 2), 0 - bf.after[idx[0]], `${label}: 2-chain end`);
      } else {
        for (const s of idx)
          assert.equal(o.valueAfter, 0 - bf.after[s], `${label}: opening ${o.component} at string ${s}`);
      }
    }
    n++;
  }
  console.log(`  ${n} endgames with short chains / odd loops checked (${negative} with the opener winning)`);
  assert.ok(n >= 600);
  assert.ok(negative > 20);
});
