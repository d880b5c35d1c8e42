// Board extraction of loony endgames vs an independent plain minimax over every undrawn line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { geometryOf } from '../../server/src/engine/board/geometry';
import { BoardState, Player } from '../../server/src/engine/board/state';
import { analyzeBoardEndgame, loonyEndgameValue, extractComponents } from '../../server/src/engine/endgame';
import { mulberry32 as rng } from '../support/random';

// ---- deterministic PRNG (mulberry32)

// ---- plain minimax over all undrawn lines (knows nothing about chains or loops)
interface Brute {
  value: number;
  lineValues: Map<number, number>;
}
function bruteForce(state: BoardState): Brute {
  const g = state.geometry;
  const lines = state.undrawnLines();
  const k = lines.length;
  if (k > 22) throw new Error('brute force too big');
  const bit = new Map<number, number>();
  lines.forEach((l, i) => bit.set(l, i));
  // for each line bit: the open boxes it borders, as masks of their undrawn-line bits
  const lineBoxMasks: number[][] = lines.map((l) => {
    const out: number[] = [];
    for (const b of g.boxesOfLine(l)) {
      let m = 0;
      for (const x of g.linesOfBox(b)) if (!state.isDrawn(x)) m |= 1 << bit.get(x)!;
      if (m !== 0) out.push(m);
    }
    return out;
  });
  const full = (1 << k) - 1;
  const SENT = -32768;
  const memo = new Int16Array(1 << k).fill(SENT);
  const solve = (mask: number): number => {
    if (mask === full) return 0;
    const hit = memo[mask];
    if (hit !== SENT) return hit;
    let best = -1000;
    for (let i = 0; i < k; i++) {
      const b = 1 << i;
      if (mask & b) continue;
      const m2 = mask | b;
      let done = 0;
      for (const bm of lineBoxMasks[i]) if ((bm & ~m2) === 0) done++;
      const v = done > 0 ? done + solve(m2) : 0 - solve(m2);
      if (v > best) best = v;
    }
    memo[mask] = best;
    return best;
  };
  const lineValues = new Map<number, number>();
  let value = -1000;
  for (let i = 0; i < k; i++) {
    const m2 = 1 << i;
    let done = 0;
    for (const bm of lineBoxMasks[i]) if ((bm & ~m2) === 0) done++;
    const v = done > 0 ? done + solve(m2) : 0 - solve(m2);
    lineValues.set(lines[i], v);
    if (v > value) value = v;
  }
  return { value: k === 0 ? 0 : value, lineValues };
}

// ---- random boards whose undrawn lines form isolated chains and loops
function genLoony(r: () => number, w: number, h: number, maxUndrawn: number, minChain = 1): BoardState {
  const g = geometryOf(w, h);
  const undrawn = new Uint8Array(g.lineCount);
  const used = new Uint8Array(g.boxCount); // box belongs to a component
  let total = 0;
  const sidesOf = (b: number) => g.linesOfBox(b);
  const other = (l: number, b: number) => {
    const x = g.boxesOfLine(l);
    return x.length === 1 ? -1 : x[0] === b ? x[1] : x[0];
  };
  for (let attempt = 0; attempt < 40 && total < maxUndrawn; attempt++) {
    const cycle = r() < 0.35;
    const free = [];
    for (let b = 0; b < g.boxCount; b++) if (!used[b]) free.push(b);
    if (!free.length) break;
    const start = free[Math.floor(r() * free.length)];
    const walk: number[] = [start];
    const walkLines: number[] = [];
    const inWalk = new Set([start]);
    let ok = false;
    if (!cycle) {
      const grounds = sidesOf(start).filter((l) => other(l, start) === -1);
      if (!grounds.length) continue;
      walkLines.push(grounds[Math.floor(r() * grounds.length)]);
    }
    let cur = start;
    for (let step = 0; step < 30; step++) {
      const opts: { line: number; to: number }[] = [];
      for (const l of sidesOf(cur)) {
        if (walkLines.includes(l)) continue;
        const o = other(l, cur);
        if (o === -1) {
          if (!cycle && walk.length >= minChain) opts.push({ line: l, to: -1 });
          continue;
        }
        if (cycle && o === start && walk.length >= 4) {
          opts.push({ line: l, to: -2 });
          continue;
        }
        if (!used[o] && !inWalk.has(o)) opts.push({ line: l, to: o });
      }
      if (!opts.length) break;
      const closing = opts.filter((x) => x.to < 0);
      let pick: { line: number; to: number };
      if (closing.length && r() < (cycle ? 0.8 : walk.length < 3 ? 0.15 : 0.4))
        pick = closing[Math.floor(r() * closing.length)];
      else pick = opts[Math.floor(r() * opts.length)];
      walkLines.push(pick.line);
      if (pick.to < 0) {
        ok = true;
        break;
      }
      walk.push(pick.to);
      inWalk.add(pick.to);
      cur = pick.to;
    }
    if (!ok || total + walkLines.length > maxUndrawn) continue;
    for (const b of walk) used[b] = 1;
    for (const l of walkLines) undrawn[l] = 1;
    total += walkLines.length;
  }
  const s = new BoardState(g, (r() < 0.5 ? 0 : 1) as Player);
  for (let l = 0; l < g.lineCount; l++) if (!undrawn[l]) s.drawSilently(l);
  return s;
}

function check(state: BoardState, label: string): { phase: string } {
  const a = analyzeBoardEndgame(state);
  assert.ok(a.ok, `${label}: expected an analysable position: ${!a.ok ? a.reason : ''}`);
  if (!a.ok) throw new Error();
  const bf = bruteForce(state);
  assert.equal(a.value, bf.value, `${label}: value`);
  assert.equal(loonyEndgameValue(state), bf.value, `${label}: fast value`);
  for (const x of a.lines) assert.equal(x.value, bf.lineValues.get(x.line), `${label}: line ${x.name} (${x.role})`);
  const bestBf = [...bf.lineValues]
    .filter(([, v]) => v === bf.value)
    .map(([l]) => l)
    .sort((p, q) => p - q);
  assert.deepEqual(
    [...a.best].sort((p, q) => p - q),
    bestBf,
    `${label}: optimal lines`,
  );
  return { phase: a.phase };
}

function describe(s: BoardState): string {
  const c = extractComponents(s);
  return (
    `${s.geometry.width}x${s.geometry.height} drawn=${s.key()} ` +
    (c.ok ? c.components.map((x) => x.name).join(',') : c.reason)
  );
}

const SIZES: [number, number][] = [
  [2, 2],
  [3, 2],
  [3, 3],
  [4, 3],
  [5, 3],
  [4, 4],
  [5, 2],
  [1, 5],
  [6, 2],
];

test('board extraction agrees with a plain minimax: unopened loony endgames', () => {
  const r = rng(12345);
  let n = 0;
  const shapes = new Map<string, number>();
  for (let i = 0; i < 700; i++) {
    const [w, h] = SIZES[i % SIZES.length];
    const s = genLoony(r, w, h, 17);
    if (s.undrawnLines().length === 0) continue;
    check(s, describe(s));
    const c = extractComponents(s);
    if (c.ok) for (const x of c.components) shapes.set(x.name, (shapes.get(x.name) ?? 0) + 1);
    n++;
  }
  console.log(
    `  ${n} unopened positions; component shapes seen: ${[...shapes]
      .sort()
      .map(([k, v]) => `${k}:${v}`)
      .join(' ')}`,
  );
  assert.ok(n >= 500);
  for (const name of ['1', '2', '3', '4', '4l', '6l'])
    assert.ok((shapes.get(name) ?? 0) > 5, `generator covers ${name}`);
});

test('board extraction agrees with a plain minimax: opened pieces and later positions', () => {
  const r = rng(777);
  const phases = new Map<string, number>();
  let n = 0;
  for (let i = 0; i < 900; i++) {
    const [w, h] = SIZES[i % SIZES.length];
    const s = genLoony(r, w, h, 18);
    const und = s.undrawnLines();
    if (und.length < 2) continue;
    // play 1..4 random lines (every reachable position stays in the domain)
    const plies = 1 + Math.floor(r() * 4);
    for (let p = 0; p < plies && !s.isOver(); p++) {
      const u = s.undrawnLines();
      s.play(u[Math.floor(r() * u.length)]);
    }
    if (s.isOver()) continue;
    const { phase } = check(s, describe(s));
    phases.set(phase, (phases.get(phase) ?? 0) + 1);
    n++;
  }
  console.log(`  ${n} positions after random moves: ${[...phases].map(([k, v]) => `${k}:${v}`).join(' ')}`);
  assert.ok(n >= 600);
  assert.ok((phases.get('opened') ?? 0) >= 300);
});

test('board extraction agrees with a plain minimax: long chains and loops only (closed form)', () => {
  const r = rng(31337);
  let n = 0,
    multi = 0;
  const shapes = new Map<string, number>();
  for (let i = 0; i < 1500 && n < 250; i++) {
    const [w, h] = (
      [
        [3, 3],
        [4, 3],
        [5, 3],
        [4, 4],
        [6, 2],
        [5, 4],
      ] as [number, number][]
    )[i % 6];
    const s = genLoony(r, w, h, 18, 3);
    const c = extractComponents(s);
    if (!c.ok || c.components.length === 0) continue;
    check(s, describe(s));
    // and the position right after each distinct opening move
    const und = s.undrawnLines();
    s.play(und[Math.floor(r() * und.length)]);
    if (!s.isOver()) check(s, describe(s));
    if (c.components.length >= 2) multi++;
    for (const x of c.components) shapes.set(x.name, (shapes.get(x.name) ?? 0) + 1);
    n++;
  }
  console.log(
    `  ${n} simple loony boards (${multi} with 2+ components): ${[...shapes]
      .sort()
      .map(([k, v]) => `${k}:${v}`)
      .join(' ')}`,
  );
  assert.ok(n >= 200 && multi >= 50);
});

test('positions right after an opening: controller options and concrete lines', () => {
  // 3-chain along the bottom of a 3x2 board with the rest claimed ... built by hand:
  // a 1x4 board: boxes a1..d1 in a row; draw all top and bottom lines: one 4-chain with 5 lines.
  const g = geometryOf(4, 1);
  const s = new BoardState(g, 0);
  for (let x = 0; x < 4; x++) {
    s.drawSilently(g.hLine(x, 0));
    s.drawSilently(g.hLine(x, 1));
  }
  const a0 = analyzeBoardEndgame(s);
  assert.ok(a0.ok && a0.phase === 'loony');
  if (!a0.ok) return;
  assert.equal(a0.value, -4); // the opener loses all 4
  assert.equal(a0.best.length, 5); // every line of a long chain is equivalent
  s.play(g.vLine(0, 0)); // open at the left end: player 1 to move
  const a1 = analyzeBoardEndgame(s);
  assert.ok(a1.ok && a1.phase === 'opened');
  if (!a1.ok) return;
  assert.equal(a1.value, 4);
  assert.deepEqual(a1.controller, { boxes: 4, all: 4, keep: 0, handout: 2, decision: 'all' });
  const capture = a1.lines.find((x) => x.line === g.vLine(1, 0))!;
  assert.equal(capture.role, 'capture');
  assert.equal(capture.optimal, true);
  // take two boxes, then the handout line (the far end) is a single move
  s.play(g.vLine(1, 0));
  s.play(g.vLine(2, 0));
  const a2 = analyzeBoardEndgame(s);
  assert.ok(a2.ok);
  if (!a2.ok) return;
  const handout = a2.lines.find((x) => x.line === g.vLine(4, 0))!;
  assert.equal(handout.role, 'handout');
  assert.equal(handout.value, 2 * 0 - 2); // gives 2 away, nothing left to recover
  assert.equal(a2.value, 2);
});

test('2-chain lines: middle line forces the capture, end lines give a choice', () => {
  // 2x2 board: a 2-chain a1-b1 along the bottom (boxes a1,b1), and a 2-chain on top (a2,b2)
  // -> G = 2 + 2. Also check against brute force.
  const g = geometryOf(2, 2);
  const s = new BoardState(g, 0);
  // undrawn: left/right edges of row 0, line between a1 and b1; same for row 1
  const und = new Set([g.vLine(0, 0), g.vLine(1, 0), g.vLine(2, 0), g.vLine(0, 1), g.vLine(1, 1), g.vLine(2, 1)]);
  for (let l = 0; l < g.lineCount; l++) if (!und.has(l)) s.drawSilently(l);
  const a = analyzeBoardEndgame(s);
  assert.ok(a.ok);
  if (!a.ok) return;
  assert.deepEqual(
    a.components.map((c) => c.name),
    ['2', '2'],
  );
  const mid = a.lines.find((x) => x.line === g.vLine(1, 0))!;
  const end = a.lines.find((x) => x.line === g.vLine(0, 0))!;
  assert.equal(mid.role, 'open-middle');
  assert.equal(end.role, 'open-end');
  // v(2) = 2, v(2+2;2 middle) = 2 - 2 = 0; end: |2 - 2| = 0 -> both optimal, value 0
  assert.equal(a.value, 0);
  assert.equal(mid.value, 0);
  assert.equal(end.value, 0);
  check(s, '2+2');
});

test('positions outside the domain are refused with a reason', () => {
  const g = geometryOf(3, 3);
  const s = new BoardState(g, 0);
  const a = analyzeBoardEndgame(s);
  assert.equal(a.ok, false);
  if (!a.ok) assert.match(a.reason, /needs search/);
  assert.equal(loonyEndgameValue(s), undefined);
});
