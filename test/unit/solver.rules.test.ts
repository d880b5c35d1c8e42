// Cross-checks of the solver's move-restriction rules (1-6) and of their proofs' claims against the
// brute force: in every generated position, the moves the search keeps must include an optimal one,
// and a move skipped as equivalent must have the value of a kept one. Positions are chain-rich on purpose: cautious
// play up to the end of the safe moves (chains, loops, junction boxes), then random sacrifices and
// partial captures (opened chains, dominoes, several 3-boxes at once).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BoardState } from '../../server/src/engine/board/state';
import { geometryOf } from '../../server/src/engine/board/geometry';
import { Solver, bruteForce, candidateMoves, type SolverConfig } from '../../server/src/engine/solver';
import { mulberry32 as rng } from '../support/random';
import { playedPosition } from '../support/boards';

/** Cautious play until `target` lines are left, then `extra` random lines (sacrifices, captures). */
function chainy(w: number, h: number, target: number, extra: number, r: () => number): BoardState {
  const st = playedPosition(w, h, target, r);
  const g = st.geometry;
  for (let i = 0; i < extra && !st.isOver(); i++) {
    const all = st.undrawnLines();
    // prefer captures half of the time: partial captures of opened chains
    const caps = all.filter((l) => g.boxesOfLine(l).some((b) => st.sidesDrawn(b) === 3));
    const pool = caps.length > 0 && r() < 0.5 ? caps : all;
    st.play(pool[Math.floor(r() * pool.length)]);
  }
  return st;
}

const sizes: [number, number, number][] = [
  [3, 3, 16],
  [4, 4, 17],
  [3, 4, 17],
  [4, 3, 17],
  [2, 5, 16],
  [5, 2, 16],
  [4, 5, 18],
  [5, 5, 18],
  [2, 2, 10],
  [1, 4, 9],
];

test('rules 1-4 keep an optimal move, and skipped moves equal kept ones (thousands of chain-rich positions)', () => {
  const r = rng(2718);
  const configs: SolverConfig[] = [
    {},
    { chainRule: false },
    { captureRule: false },
    { equivalentMoves: false },
    { handoutRule: false },
    { openingEquivalence: false },
  ];
  let positions = 0,
    restricted = 0,
    skippedSeen = 0;
  for (let i = 0; i < 3000; i++) {
    const [w, h, maxU] = sizes[i % sizes.length];
    const target = 4 + Math.floor(r() * (maxU - 3));
    const st = chainy(w, h, target, Math.floor(r() * 4), r);
    if (st.isOver()) continue;
    const bf = bruteForce(st);
    const undrawn = st.undrawnLines();
    for (const cfg of configs) {
      const cand = candidateMoves(st, cfg);
      // rule 4's equality claim is checked without rule 5, whose skipped lines are only no better
      const candEq = cfg.equivalentMoves !== false ? candidateMoves(st, { ...cfg, handoutRule: false }) : cand;
      const label = `${w}x${h} #${i} ${JSON.stringify(cfg)} ${st.key()}`;
      assert.ok(cand.length > 0, `${label}: no candidate`);
      assert.equal(new Set(cand).size, cand.length, `${label}: duplicate candidates ${cand}`);
      for (const m of cand) assert.ok(!st.drawn[m], `${label}: drawn line ${m} offered`);
      const best = Math.max(...cand.map((m) => bf.moveValues[m]!));
      assert.equal(best, bf.value, `${label}: candidates ${cand} miss every optimal move ${bf.best}`);
      if (cand.length < undrawn.length) restricted++;
      if (cfg.equivalentMoves !== false) {
        // every skipped line has the value of some kept line (rule 4 claims equality, not just <=)
        const threes =
          st.geometry.allLines().length &&
          Array.from({ length: st.geometry.boxCount }, (_, b) => st.sidesDrawn(b)).some((s) => s === 3);
        if (!threes) {
          const kept = new Set(candEq.map((m) => bf.moveValues[m]));
          for (const l of undrawn) {
            if (candEq.includes(l)) continue;
            skippedSeen++;
            assert.ok(
              kept.has(bf.moveValues[l]),
              `${label}: skipped ${l} (value ${bf.moveValues[l]}) matches no kept line`,
            );
          }
        }
      }
    }
    positions++;
  }
  assert.ok(positions > 2500, `${positions} positions`);
  assert.ok(restricted > 1000, `rules restricted only ${restricted} move sets`);
  assert.ok(skippedSeen > 1000, `rule 4 skipped only ${skippedSeen} lines`);
});

test('solver with every rule combination equals brute force on chain-rich positions', () => {
  const r = rng(1618);
  const solvers = [
    new Solver(),
    new Solver({ etc: true }),
    new Solver({ captureRule: false }),
    new Solver({ equivalentMoves: false }),
    new Solver({ chainRule: false, captureRule: false, equivalentMoves: false }),
    new Solver({ tableBits: 6, etc: true }),
    new Solver({ handoutRule: false }),
    new Solver({ pairFloor: false }),
    new Solver({ openingBound: false }),
    new Solver({ openingEquivalence: false }),
    new Solver({ killers: true }),
    new Solver({ lazyMoves: false }),
    new Solver({ symmetrySlack: Infinity }),
    new Solver({ symmetrySlack: 0 }),
  ];
  for (let i = 0; i < 600; i++) {
    const [w, h, maxU] = sizes[i % sizes.length];
    const target = 4 + Math.floor(r() * (maxU - 3));
    const st = chainy(w, h, target, Math.floor(r() * 3), r);
    const bf = bruteForce(st);
    const s = solvers[i % solvers.length];
    const res = s.solve(st, { moveValues: true });
    const label = `${w}x${h} #${i} ${st.key()}`;
    assert.equal(res.value, bf.value, `${label}: value`);
    assert.deepEqual(res.best, bf.best, `${label}: best`);
    assert.deepEqual(res.moveValues, bf.moveValues, `${label}: move values`);
    const res2 = s.solve(st);
    assert.equal(res2.value, bf.value, `${label}: value (no move values)`);
    assert.deepEqual(res2.best, bf.best, `${label}: best (no move values)`);
  }
});

test('root equivalence (rule 4 at the root): every move value and the best set equal brute force on quiet chain-rich and loop-rich positions', () => {
  const r = rng(1618);
  const solver = new Solver({ tableBits: 12 });
  let followers = 0;
  for (let i = 0; i < 700; i++) {
    const [w, h, maxU] = sizes[i % sizes.length];
    // every fourth position has isolated loops of one length (rule 4e)
    const st = i % 4 === 3 ? loopy(r) : chainy(w, h, 4 + Math.floor(r() * (maxU - 3)), 0, r);
    if (st.isOver()) continue;
    const bf = bruteForce(st);
    const res = solver.solve(st, { moveValues: true });
    assert.deepEqual(res.moveValues, bf.moveValues, `${w}x${h} #${i}: move values`);
    assert.deepEqual(res.best, bf.best, `${w}x${h} #${i}: best moves`);
    const best = solver.solve(st);
    assert.deepEqual(best.best, bf.best, `${w}x${h} #${i}: best moves without move values`);
    followers += candidateMoves(st).length < st.undrawnLines().length ? 1 : 0;
  }
  assert.ok(followers > 100, `${followers} positions with equivalent root lines`);
});

/** Test i's chain-rich position of cautious play (board sizes[i]), or null when it is over or has a 3-box. */
function quietChainy(i: number, r: () => number): BoardState | null {
  const [w, h, maxU] = sizes[i % sizes.length];
  const st = chainy(w, h, 4 + Math.floor(r() * (maxU - 3)), 0, r);
  if (st.isOver()) return null;
  return Array.from({ length: st.geometry.boxCount }, (_, b) => st.sidesDrawn(b)).some((s) => s === 3) ? null : st;
}

/** The maximal 2-chains of a position with no 3-box, found here from the board alone: [end, middle, end]. */
function twoChains(st: BoardState): [number, number, number][] {
  const g = st.geometry;
  const sides = (b: number) => st.sidesDrawn(b);
  const undrawnOf = (b: number) => g.linesOfBox(b).filter((l) => !st.drawn[l]);
  const across = (l: number, b: number) => g.boxesOfLine(l).find((x) => x !== b) ?? -1;
  const out: [number, number, number][] = [];
  for (let x = 0; x < g.boxCount; x++) {
    if (sides(x) !== 2) continue;
    for (const m of undrawnOf(x)) {
      const y = across(m, x);
      if (y < 0 || y < x || sides(y) !== 2) continue;
      const e1 = undrawnOf(x).find((l) => l !== m)!,
        e2 = undrawnOf(y).find((l) => l !== m)!;
      const z = across(e1, x),
        w = across(e2, y);
      if ((z < 0 || sides(z) < 2) && (w < 0 || sides(w) < 2)) out.push([e1, m, e2]);
    }
  }
  return out;
}

test('rule 5: a 2-chain offered by an end line is never better than by its middle line (brute force, thousands of 2-chains)', () => {
  const r = rng(5005);
  let chains = 0,
    strict = 0,
    positions = 0;
  for (let i = 0; i < 6000; i++) {
    const [w, h] = sizes[i % sizes.length];
    const st = quietChainy(i, r);
    if (!st) continue;
    const found = twoChains(st);
    if (found.length === 0) continue;
    positions++;
    const bf = bruteForce(st);
    for (const [e1, m, e2] of found) {
      chains++;
      for (const e of [e1, e2]) {
        assert.ok(
          bf.moveValues[e]! <= bf.moveValues[m]!,
          `${w}x${h} #${i} ${st.key()}: end line ${e} (${bf.moveValues[e]}) beats middle ${m} (${bf.moveValues[m]})`,
        );
        if (bf.moveValues[e]! < bf.moveValues[m]!) strict++;
      }
      // the search never offers the end lines when rule 5 is on
      const cand = candidateMoves(st);
      assert.ok(!cand.includes(e1) && !cand.includes(e2), `${st.key()}: rule 5 kept an end line of ${e1} ${m} ${e2}`);
    }
  }
  assert.ok(chains > 1000, `only ${chains} 2-chains in ${positions} positions`);
  assert.ok(strict > 0, 'no 2-chain where the end line is strictly worse: the check cannot tell');
});

/**
 * Rule 2's chains, found here from the board alone: for each 3-box X whose missing side l faces a
 * 2-box Y1 (other missing side n), the chain of 2-boxes from it up to E (the edge or the first box
 * that is not a 2-box) when it is a case of rule 2b: 'b1' (E the edge or a 0/1-box, at least 3
 * boxes with X) or 'b2' (E a 3-box, at least 5 boxes with X and E); e is the line to E.
 */
function openedChains(st: BoardState): { kind: 'b1' | 'b2'; l: number; n: number; e: number }[] {
  const g = st.geometry;
  const undrawnOf = (b: number) => g.linesOfBox(b).filter((l) => !st.drawn[l]);
  const across = (l: number, b: number) => g.boxesOfLine(l).find((x) => x !== b) ?? -1;
  const out: { kind: 'b1' | 'b2'; l: number; n: number; e: number }[] = [];
  for (let x = 0; x < g.boxCount; x++) {
    if (st.sidesDrawn(x) !== 3) continue;
    const l = undrawnOf(x)[0];
    const y1 = across(l, x);
    if (y1 < 0 || st.sidesDrawn(y1) !== 2) continue;
    const n = undrawnOf(y1).find((m) => m !== l)!;
    let boxes = 2,
      at = y1,
      e = n;
    for (let next = across(e, at); next >= 0 && st.sidesDrawn(next) === 2; next = across(e, at)) {
      boxes++;
      const prev = e;
      e = undrawnOf(next).find((m) => m !== prev)!;
      at = next;
    }
    const end = across(e, at);
    if (end < 0 || st.sidesDrawn(end) < 2) {
      if (boxes >= 3) out.push({ kind: 'b1', l, n, e });
    } else if (boxes + 1 >= 5) out.push({ kind: 'b2', l, n, e });
  }
  return out;
}

test("rule 2b's proof: taking the head of an opened chain is optimal, with free captures elsewhere too; n and e compare as proved (brute force)", () => {
  const r = rng(2002);
  const boards: [number, number][] = [
    [3, 3],
    [4, 3],
    [3, 4],
    [4, 4],
    [5, 3],
    [2, 5],
  ];
  const seen = { b1: 0, b2: 0, withFreeCapture: 0 };
  for (let i = 0; i < 2500; i++) {
    // random lines (many 3-boxes, opened chains, free captures), 10 to 17 left
    const [w, h] = boards[i % boards.length];
    const st = new BoardState(geometryOf(w, h));
    const g = st.geometry;
    const order = g.allLines().sort(() => r() - 0.5);
    const left = 10 + Math.floor(r() * 8);
    for (const l of order.slice(0, g.lineCount - left)) st.drawSilently(l);
    const found = openedChains(st);
    if (found.length === 0) continue;
    const free = Array.from({ length: g.boxCount }, (_, b) => b).some((b) => {
      if (st.sidesDrawn(b) !== 3) return false;
      const y = g.boxesOfLine(g.linesOfBox(b).find((l) => !st.drawn[l])!).find((x) => x !== b);
      return y === undefined || st.sidesDrawn(y) !== 2;
    });
    const bf = bruteForce(st);
    const mv = bf.moveValues;
    for (const { kind, l, n, e } of found) {
      seen[kind]++;
      if (free) seen.withFreeCapture++;
      const at = `${w}x${h} #${i} ${st.key()} (${kind}, l ${l})`;
      assert.equal(mv[l], bf.value, `${at}: taking the head is not optimal`);
      if (kind === 'b1') assert.ok(mv[n]! < mv[l]!, `${at}: val(n) ${mv[n]} >= val(l) ${mv[l]}`);
      else assert.equal(mv[e], mv[l], `${at}: the two ends differ`);
    }
  }
  assert.ok(seen.b1 >= 400 && seen.b2 >= 50 && seen.withFreeCapture >= 300, `too few cases: ${JSON.stringify(seen)}`);
});

/**
 * The maximal chains of 3 or more 2-boxes of a position with no 3-box (isolated loops left out),
 * found here from the board alone: each chain's undrawn lines (k + 1 of them for k boxes).
 */
function longChains(st: BoardState): number[][] {
  const g = st.geometry;
  const two = (b: number) => b >= 0 && st.sidesDrawn(b) === 2;
  const undrawnOf = (b: number) => g.linesOfBox(b).filter((l) => !st.drawn[l]);
  const across = (l: number, b: number) => g.boxesOfLine(l).find((x) => x !== b) ?? -1;
  const seen = new Set<number>();
  const out: number[][] = [];
  for (let x = 0; x < g.boxCount; x++) {
    if (!two(x) || seen.has(x)) continue;
    // the 2-boxes joined to x through undrawn lines: a path (a chain) or a cycle (a loop)
    const boxes = new Set([x]);
    const todo = [x];
    while (todo.length > 0) {
      const b = todo.pop()!;
      for (const l of undrawnOf(b)) {
        const y = across(l, b);
        if (two(y) && !boxes.has(y)) {
          boxes.add(y);
          todo.push(y);
        }
      }
    }
    for (const b of boxes) seen.add(b);
    const lines = new Set([...boxes].flatMap(undrawnOf));
    if (boxes.size >= 3 && lines.size === boxes.size + 1) out.push([...lines]);
  }
  return out;
}

/**
 * The lines the opponent draws taking every box it can after a line of the long chain `lines` is
 * drawn (rule 4f's S): the chain's lines, and when both its ends are one 1-box Z, Z's third side and
 * the chain of 2-boxes beyond it. Returns those lines and the number of boxes they complete.
 */
function takenAfterOpening(st: BoardState, lines: number[]): { lines: number[]; boxes: number } {
  const g = st.geometry;
  const boxes = new Set(lines.flatMap((l) => g.boxesOfLine(l)).filter((b) => st.sidesDrawn(b) === 2));
  const ends = lines.flatMap((l) => g.boxesOfLine(l)).filter((b) => !boxes.has(b));
  const taken = [...lines];
  let k = boxes.size;
  if (ends.length === 2 && ends[0] === ends[1] && st.sidesDrawn(ends[0]) === 1) {
    let prev = ends[0],
      line = g.linesOfBox(prev).find((l) => !st.drawn[l] && !lines.includes(l))!;
    k++;
    taken.push(line);
    for (;;) {
      const next = g.boxesOfLine(line).find((b) => b !== prev);
      if (next === undefined || st.sidesDrawn(next) !== 2) break;
      k++;
      line = g.linesOfBox(next).find((l) => !st.drawn[l] && l !== line)!;
      taken.push(line);
      prev = next;
    }
  }
  return { lines: taken, boxes: k };
}

test("rule 4f: every line of a chain of 3 or more 2-boxes has one value, the proof's (brute force, thousands of chains)", () => {
  const r = rng(4004);
  let chains = 0,
    positions = 0,
    extended = 0;
  for (let i = 0; i < 40000 && chains < 2000; i++) {
    const [w, h] = sizes[i % sizes.length];
    const st = quietChainy(i, r);
    if (!st) continue;
    const found = longChains(st);
    if (found.length === 0) continue;
    positions++;
    const bf = bruteForce(st);
    const cand = candidateMoves(st, { openingBound: false });
    for (const lines of found) {
      chains++;
      const values = new Set(lines.map((l) => bf.moveValues[l]));
      assert.equal(
        values.size,
        1,
        `${w}x${h} #${i} ${st.key()}: the lines ${lines} of one chain have the values ${[...values]}`,
      );
      // the value the header's proof gives: -max(K + v(Q), K - 4 - v(Q)), Q the position after the take
      const taken = takenAfterOpening(st, lines);
      if (taken.lines.length > lines.length) extended++;
      const q: BoardState = new BoardState(st.geometry);
      for (const l of st.geometry.allLines()) if (st.drawn[l] || taken.lines.includes(l)) q.drawSilently(l);
      const vq: number = q.isOver() ? 0 : bruteForce(q).value;
      const K = taken.boxes;
      assert.equal(bf.moveValues[lines[0]], -Math.max(K + vq, K - 4 - vq), `${st.key()}: chain ${lines}, K ${K}`);
      // the search offers at most one of them (rule 4f; none when rule 4e gives the chain's value to a parallel one)
      assert.ok(lines.filter((l) => cand.includes(l)).length <= 1, `${st.key()}: chain ${lines}, candidates ${cand}`);
    }
  }
  assert.ok(chains >= 2000, `only ${chains} long chains in ${positions} positions`);
  assert.ok(extended >= 10, `only ${extended} chains with both ends at one 1-box`);
  console.log(`# rule 4f: ${chains} chains in ${positions} positions, ${extended} with both ends at one 1-box`);
});

test("the chooser's floor: who may take or decline two boxes is never behind (brute force, thousands of positions)", () => {
  const r = rng(5006);
  let found = 0,
    zero = 0;
  for (let i = 0; i < 8000 && found < 2500; i++) {
    const [w, h, maxU] = sizes[i % sizes.length];
    const st = chainy(w, h, 4 + Math.floor(r() * (maxU - 3)), 1 + Math.floor(r() * 3), r);
    if (st.isOver()) continue;
    const g = st.geometry;
    const other = (l: number, b: number) => g.boxesOfLine(l).find((x) => x !== b);
    const missing = (b: number) => g.linesOfBox(b).filter((l) => !st.drawn[l]);
    // a 3-box X, a 2-box Y across its missing side l, Y's other missing side n no side of a 3-box
    const holds = Array.from({ length: g.boxCount }, (_, x) => x).some((x) => {
      if (st.sidesDrawn(x) !== 3) return false;
      const l = missing(x)[0];
      const y = other(l, x);
      if (y === undefined || st.sidesDrawn(y) !== 2) return false;
      const n = missing(y).find((k) => k !== l)!;
      const z = other(n, y);
      return z === undefined || st.sidesDrawn(z) !== 3;
    });
    if (!holds) continue;
    found++;
    const v = bruteForce(st).value;
    assert.ok(v >= 0, `${w}x${h} #${i} ${st.key()}: value ${v} < 0`);
    if (v <= 1) zero++;
  }
  assert.ok(found >= 1000, `only ${found} positions with the pattern`);
  assert.ok(zero > 0, 'no position at the floor: the check cannot tell a wrong floor from a loose one');
});

/** Maximal chains and loops of 2-boxes (no 3-box on the board): their boxes, undrawn lines, and whether a loop. */
function chainsAndLoops(st: BoardState): { boxes: number[]; lines: number[]; loop: boolean }[] {
  const g = st.geometry;
  const seen = new Set<number>();
  const out: { boxes: number[]; lines: number[]; loop: boolean }[] = [];
  for (let b0 = 0; b0 < g.boxCount; b0++) {
    if (st.sidesDrawn(b0) !== 2 || seen.has(b0)) continue;
    // flood the 2-boxes joined to b0 by undrawn lines
    const boxes: number[] = [];
    const lines = new Set<number>();
    const stack = [b0];
    seen.add(b0);
    while (stack.length > 0) {
      const b = stack.pop()!;
      boxes.push(b);
      for (const l of g.linesOfBox(b)) {
        if (st.drawn[l]) continue;
        lines.add(l);
        const y = g.boxesOfLine(l).find((x) => x !== b);
        if (y !== undefined && st.sidesDrawn(y) === 2 && !seen.has(y)) {
          seen.add(y);
          stack.push(y);
        }
      }
    }
    // a loop has as many lines as boxes, all between two of its boxes
    out.push({ boxes, lines: [...lines], loop: lines.size === boxes.length });
  }
  return out;
}

test('rule 6: opening a chain of k >= 3 is worth at most 2 - k, a loop of k >= 4 at most 4 - k (brute force, thousands of lines)', () => {
  const r = rng(5007);
  let chainLines = 0,
    loopLines = 0,
    atBound = 0,
    positions = 0;
  for (let i = 0; i < 8000 && positions < 2500; i++) {
    const [w, h, maxU] = sizes[i % sizes.length];
    const st = chainy(w, h, 4 + Math.floor(r() * (maxU - 3)), 0, r);
    if (st.isOver()) continue;
    const g = st.geometry;
    if (Array.from({ length: g.boxCount }, (_, b) => st.sidesDrawn(b)).some((s) => s === 3)) continue;
    const long = chainsAndLoops(st).filter((c) => c.boxes.length >= (c.loop ? 4 : 3));
    if (long.length === 0) continue;
    positions++;
    const bf = bruteForce(st);
    for (const c of long) {
      const bound = (c.loop ? 4 : 2) - c.boxes.length;
      for (const l of c.lines) {
        if (c.loop) loopLines++;
        else chainLines++;
        const v = bf.moveValues[l]!;
        assert.ok(
          v <= bound,
          `${w}x${h} #${i} ${st.key()}: line ${l} of a ${c.loop ? 'loop' : 'chain'} of ${c.boxes.length} is worth ${v} > ${bound}`,
        );
        if (v === bound) atBound++;
      }
    }
  }
  assert.ok(chainLines >= 2000 && loopLines >= 100, `only ${chainLines} chain lines and ${loopLines} loop lines`);
  assert.ok(atBound > 0, 'no line at its bound: the check cannot tell a wrong bound from a loose one');
});

/** A chain's lines in order from one end, and the boxes (or -1, the edge) across its two end lines. */
function orderedChain(
  st: BoardState,
  c: { boxes: number[]; lines: number[] },
): { lines: number[]; ends: [number, number] } {
  const g = st.geometry;
  const inChain = new Set(c.boxes);
  const outside = (l: number, b: number) => g.boxesOfLine(l).find((x) => x !== b);
  // an end line: a line of the chain with at most one box in the chain
  const endLines = c.lines.filter((l) => g.boxesOfLine(l).filter((b) => inChain.has(b)).length === 1);
  const start = endLines[0];
  const lines = [start];
  let box = g.boxesOfLine(start).find((b) => inChain.has(b))!;
  const first = outside(start, box) ?? -1;
  let via = start;
  for (;;) {
    const next = g.linesOfBox(box).find((l) => !st.drawn[l] && l !== via)!;
    lines.push(next);
    const y = outside(next, box);
    if (y === undefined || !inChain.has(y)) return { lines, ends: [first, y ?? -1] };
    box = y;
    via = next;
  }
}

/** Two or three isolated 2x2 loops (their boundaries drawn), then cautious random lines elsewhere down to `target` undrawn. */
function loopy(r: () => number): BoardState {
  const [w, h] = r() < 0.5 ? [4, 3] : [5, 3];
  const g = geometryOf(w, h);
  const st = new BoardState(g);
  const corners = w === 4 ? [0, 2] : r() < 0.5 ? [0, 3] : [0, 2];
  const inner = new Set<number>();
  for (const x of corners) {
    const block = [g.box(x, 0), g.box(x + 1, 0), g.box(x, 1), g.box(x + 1, 1)];
    for (const b of block)
      for (const l of g.linesOfBox(b)) {
        const bs = g.boxesOfLine(l);
        if (bs.length === 2 && bs.every((y) => block.includes(y))) inner.add(l);
        else if (!st.drawn[l]) st.drawSilently(l);
      }
  }
  const target = 6 + Math.floor(r() * 8);
  while (st.undrawnLines().length > target) {
    const free = st.undrawnLines().filter((l) => !inner.has(l));
    if (free.length === 0) break;
    const safe = free.filter((l) => g.boxesOfLine(l).every((b) => st.sidesDrawn(b) < 2));
    const pool = safe.length > 0 ? safe : free;
    st.drawSilently(pool[Math.floor(r() * pool.length)]);
  }
  return st;
}

test('rule 4e: parallel chains (same ends, same length) and loops of one length have equal move values (brute force)', () => {
  const r = rng(5008);
  let pairs = 0,
    loopPairs = 0;
  for (let i = 0; i < 9000 && (pairs < 1500 || loopPairs < 300); i++) {
    const [w, h, maxU] = sizes[i % sizes.length];
    // every third position has isolated loops of one length
    const st = i % 3 === 2 ? loopy(r) : chainy(w, h, 4 + Math.floor(r() * (maxU - 3)), 0, r);
    if (st.isOver()) continue;
    const g = st.geometry;
    if (Array.from({ length: g.boxCount }, (_, b) => st.sidesDrawn(b)).some((s) => s === 3)) continue;
    const comps = chainsAndLoops(st);
    const chains = comps.filter((c) => !c.loop).map((c) => orderedChain(st, c));
    const loops = comps.filter((c) => c.loop);
    const key = (e: [number, number]) => [...e].sort((a, b) => a - b).join(',');
    // [lines of one, matching lines of the other, 'chain' | 'loop', both ends the same]
    const todo: [number[], number[], 'chain' | 'loop', boolean][] = [];
    for (let a = 0; a < chains.length; a++)
      for (let b = a + 1; b < chains.length; b++) {
        const x = chains[a],
          y = chains[b];
        if (x.lines.length !== y.lines.length || key(x.ends) !== key(y.ends)) continue;
        // y in x's direction: from the end x starts at
        const ys = y.ends[0] === x.ends[0] ? y.lines : [...y.lines].reverse();
        todo.push([x.lines, ys, 'chain', x.ends[0] === x.ends[1]]);
      }
    for (let a = 0; a < loops.length; a++)
      for (let b = a + 1; b < loops.length; b++)
        if (loops[a].boxes.length === loops[b].boxes.length) todo.push([loops[a].lines, loops[b].lines, 'loop', false]);
    if (todo.length === 0) continue;
    const v = bruteForce(st).moveValues;
    for (const [xs, ys, kind, ends] of todo) {
      const label = `${w}x${h} #${i} ${st.key()}: ${xs} / ${ys}`;
      if (kind === 'chain') {
        pairs++;
        xs.forEach((l, k) => assert.equal(v[l], v[ys[k]], `${label}: line ${k} differs`));
        // both ends at one box (or both at the edge): the other chain reversed matches too
        if (ends)
          xs.forEach((l, k) => assert.equal(v[l], v[ys[ys.length - 1 - k]], `${label}: reversed line ${k} differs`));
      } else {
        loopPairs++;
        const all = new Set([...xs, ...ys].map((l) => v[l]));
        assert.equal(all.size, 1, `${label}: loop lines differ`);
      }
    }
  }
  assert.ok(pairs >= 300, `only ${pairs} pairs of parallel chains`);
  assert.ok(loopPairs >= 100, `only ${loopPairs} pairs of loops of one length`);
});

test('the 2-boxes kept by make/unmake (twoBits, threeBits) equal the side counts after random moves and takebacks', async () => {
  const { MoveGenerator } = await import('../../server/src/engine/solver/moves');
  const r = rng(5150);
  let checks = 0;
  for (const [w, h] of [
    [1, 1],
    [1, 4],
    [3, 3],
    [5, 5],
    [6, 6],
  ]) {
    const g = geometryOf(w, h);
    const p = new MoveGenerator(g, {});
    const withSides = (k: number) => Array.from({ length: p.B }, (_, b) => b).filter((b) => p.sides[b] === k);
    const inBits = (bits: Uint32Array) =>
      Array.from({ length: p.B }, (_, b) => b).filter((b) => (bits[b >>> 5] >>> (b & 31)) & 1);
    for (let game = 0; game < 30; game++) {
      const st = new BoardState(g);
      for (const l of g.allLines()) if (r() < 0.3) st.drawSilently(l);
      p.load(st);
      const made: [number, number][] = [];
      for (let step = 0; step < 4 * g.lineCount; step++) {
        const undrawn = Array.from({ length: p.L }, (_, l) => l).filter((l) => !p.isDrawn(l));
        if (undrawn.length > 0 && (made.length === 0 || r() < 0.6)) {
          const l = undrawn[Math.floor(r() * undrawn.length)];
          made.push([l, p.make(l)]);
        } else if (made.length > 0) {
          const [l, c] = made.pop()!;
          p.unmake(l, c);
        }
        assert.deepEqual(inBits(p.twoBits), withSides(2), `2-boxes, ${w}x${h}, step ${step}`);
        assert.deepEqual(inBits(p.threeBits), withSides(3), `3-boxes, ${w}x${h}, step ${step}`);
        checks++;
      }
    }
  }
  assert.ok(checks > 5000, `${checks} checks`);
});
