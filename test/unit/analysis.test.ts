/**
 * The review of records against an independent oracle: random game records on small boards are
 * written as .dab text, analysed like the CLI does, and every position's value and optimal-move set
 * and every move's loss are compared with plain exhaustive minimax (solver/brute.ts).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { geometryOf } from '../../server/src/engine/board/geometry';
import { BoardState } from '../../server/src/engine/board/state';
import { bruteForce } from '../../server/src/engine/solver';
import { analyzeText } from '../../server/src/engine/analysis/analyzeDocument';
import { createSearchCache } from '../../server/src/cli/search';
import { lcg, lcg as rng } from '../support/random';

function randomRecord(rand: () => number, w: number, h: number, maxUndrawn: number) {
  const g = geometryOf(w, h);
  const order = g.allLines().sort(() => rand() - 0.5);
  const setupCount = Math.max(0, g.lineCount - maxUndrawn - Math.floor(rand() * 3));
  const setup = order.slice(0, setupCount);
  const rest = order.slice(setupCount);
  const moves = rest.slice(0, Math.floor(rand() * (rest.length + 1)));
  const text = [
    `game "random"`,
    `  size ${w}x${h}`,
    setup.length ? `  lines ${setup.map((l) => g.lineName(l)).join(' ')}` : '',
    `  moves ${moves.map((l) => g.lineName(l)).join(' ')}`,
  ].join('\n');
  return { g, setup, moves, text };
}

test('record reviews agree with exhaustive minimax on random 2x2, 2x3 and 3x3 records', () => {
  const rand = rng(20261121);
  const search = createSearchCache({ timeBudgetMs: 60_000 });
  let positions = 0,
    moves = 0,
    mistakes = 0;
  for (let n = 0; n < 220; n++) {
    const [w, h] = [
      [2, 2],
      [2, 3],
      [3, 2],
      [3, 3],
    ][n % 4];
    const rec = randomRecord(rand, w, h, w * h >= 9 ? 18 : 16);
    const report = analyzeText(rec.text, { search: search.lookup });
    assert.equal(report.diagnostics.filter((d) => d.severity === 'error').length, 0, rec.text);
    const e = report.entries[0];
    const s = new BoardState(rec.g);
    for (const l of rec.setup) s.drawSilently(l);
    for (let ply = 0; ply <= rec.moves.length; ply++) {
      const p = e.positions[ply];
      const oracle = bruteForce(s);
      assert.equal(p.value, oracle.value, `value at ply ${ply} of\n${rec.text}`);
      assert.deepEqual(p.best, oracle.best.map((l) => rec.g.lineName(l)).sort(), `best at ply ${ply} of\n${rec.text}`);
      positions++;
      if (ply < rec.moves.length) {
        const line = rec.moves[ply];
        const expectedLoss = oracle.value - oracle.moveValues[line]!;
        const m = e.moves[ply];
        assert.equal(m.move, rec.g.lineName(line));
        assert.equal(m.loss, expectedLoss, `loss of move ${ply + 1} of\n${rec.text}`);
        if (expectedLoss > 0) mistakes++;
        moves++;
        s.play(line);
      }
    }
    // Every move flagged as a mistake really loses boxes, and no optimal move is flagged.
    const flagged = report.diagnostics.filter((d) => d.code === 'mistake' || d.code === 'result-changing-mistake');
    assert.equal(flagged.length, e.moves.filter((m) => (m.loss ?? 0) > 0).length);
  }
  console.log(`checked ${positions} positions and ${moves} moves (${mistakes} mistakes) against brute force`);
  assert.ok(mistakes > 50, 'the generated records contain mistakes to find');
});

test('endgame entries: values, decisions and losses along a line of play', () => {
  const r = analyzeText(['endgame', '  components 3 3 3 3', '  play 3:keep 3:all 3 3'].join('\n'));
  const e = r.entries[0];
  // v(3^4) = 2: the controller should take all after the first opening.
  assert.equal(e.positions[0].value, -2);
  assert.deepEqual(e.positions[1].best, ['all']);
  assert.equal(e.moves[1].move, 'keep');
  assert.equal(e.moves[1].loss, 2, 'keeping control of the first of four 3-chains throws 2 boxes away (v(3^3)=1 < 2)');
  assert.ok(
    r.diagnostics.some((d) => d.code.includes('mistake') && /Keeping control gives away 2 boxes/.test(d.message)),
    JSON.stringify(r.diagnostics),
  );
});

// Found by an audit: `2:keep` was valued as the 2-chain opened in its middle (no decline possible),
// and then the decline was valued as possible: the line contradicted itself.
test('endgame lines agree with themselves: every move played is valued as played (2-chains with a suffix are opened at an end), and the best moves are those of the best value', () => {
  const rand = lcg(11);
  const kinds = ['1', '2', '2', '3', '4', '5', '4l', '6l'];
  let checked = 0,
    endOpened = 0;
  for (let k = 0; k < 400; k++) {
    const comps = Array.from({ length: 2 + Math.floor(rand() * 4) }, () => kinds[Math.floor(rand() * kinds.length)]);
    const order = comps.slice().sort(() => rand() - 0.5);
    const steps = order.map((c, i) => {
      if (i === order.length - 1 || c === '1') return c;
      const r = rand();
      if (c === '2') return r < 0.4 ? c : r < 0.7 ? `${c}:keep` : `${c}:all`;
      return r < 0.5 ? `${c}:keep` : `${c}:all`;
    });
    const text = ['endgame', `  components ${comps.join(' + ')}`, `  play ${steps.join(' ')}`].join('\n');
    const e = analyzeText(text).entries[0];
    assert.equal(e.moves.length, 2 * steps.length, text);
    for (const m of e.moves) {
      const before = e.positions[m.ply - 1],
        after = e.positions[m.ply];
      const v = before.moveValues?.get(m.move);
      assert.ok(v !== undefined && v !== null && before.value !== null && after.value !== null, `${text}: ${m.move}`);
      // the mover's value of the move, from the position it leads to and the boxes it took
      const same = after.toMove === m.player ? 1 : -1;
      const took = after.score[m.player] - before.score[m.player];
      const gave = after.score[1 - m.player] - before.score[1 - m.player];
      assert.equal(v, took - gave + same * after.value, `${text}: value of ${m.move} at ply ${m.ply}`);
      assert.equal(m.loss, before.value - v, `${text}: loss of ${m.move}`);
      assert.ok(v <= before.value, `${text}: ${m.move} is worth more than the position`);
      // the best moves are the moves valued at the position's value, every one (found by an audit: a
      // 2-chain opened at an end, valued as optimal, was left out of the best moves)
      const optimal = [...before.moveValues!].filter(([, x]) => x === before.value).map(([name]) => name);
      assert.deepEqual([...before.best].sort(), optimal.sort(), `${text}: best moves at ply ${m.ply - 1}`);
      if (m.move.includes('opened at an end')) endOpened++;
      checked++;
    }
  }
  assert.ok(checked > 1000 && endOpened > 20, `${checked} moves, ${endOpened} 2-chains opened at an end`);
});

// Found by an audit: a claim no value can have was only "could not be checked" while the value was unknown.
test('a claimed value outside the boxes left, the proven bounds or the parity is wrong-value even with the value unknown', () => {
  const codes = (text: string) => analyzeText(text).diagnostics.filter((d) => d.code.includes('value'));
  const big = (v: number) => `position\n  size 5x5\n  value ${v}\n`;
  // no search here: the value of the empty 5x5 board is unknown, the 25 boxes left bound it
  for (const [v, code, why] of [
    [27, 'wrong-value', /25 boxes are left, and the value for A to move is between -25 and \+25/],
    [-27, 'wrong-value', /between -25 and \+25/],
    [2, 'wrong-value', /25 boxes are left, so the value for A to move is odd/],
    [3, 'value-unverified', /could not be checked/],
    [25, 'value-unverified', /could not be checked/],
  ] as const) {
    const d = codes(big(v));
    assert.equal(d.length, 1, `value ${v}: ${JSON.stringify(d)}`);
    assert.equal(d[0].code, code, `value ${v}`);
    assert.equal(d[0].severity, code === 'wrong-value' ? 'error' : 'information');
    assert.match(d[0].message, why);
  }
});

test('dab CLI: exit codes and the JSON shape of the spec', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dab-cli-'));
  const good = join(dir, 'good.dab');
  writeFileSync(good, 'endgame "x"\n  components 3 + 4l + 8l\n  value -1\n');
  const bad = join(dir, 'bad.dab');
  writeFileSync(bad, 'endgame\n  components 3 3\n  value 5\n');
  const run = (...args: string[]) => spawnSync(process.execPath, ['bin/dab.js', ...args], { encoding: 'utf8' });
  const a = run('analyze', '--json', good);
  assert.equal(a.status, 0, a.stderr);
  const json = JSON.parse(a.stdout);
  assert.deepEqual(
    Object.keys(json)
      .filter((k) => k === 'diagnostics' || k === 'entries')
      .sort(),
    ['diagnostics', 'entries'],
  );
  const p0 = json.entries[0].positions[0];
  assert.equal(p0.value, -1);
  assert.equal(p0.exact, true);
  assert.deepEqual(p0.best, ['4l']);
  assert.equal(json.entries[0].kind, 'endgame');
  assert.equal(run('check', bad).status, 1);
  assert.equal(run('check', good).status, 0);
  assert.equal(run('frobnicate').status, 2);
  assert.equal(run('analyze').status, 2);
  const t = run('analyze', good);
  assert.match(t.stdout, /B wins the rest by 1/);
});

test('a component list with errors is not analysed, so no value or claim check is made up', () => {
  const r = analyzeText('endgame\n  components 3 + 2l + 4l\n  value 0\n');
  assert.equal(r.entries[0].positions.length, 0);
  assert.ok(r.diagnostics.some((d) => d.code === 'bad-component'));
  assert.ok(!r.diagnostics.some((d) => d.code === 'wrong-value'));
});

/** Loony board positions (every unclaimed box has two drawn sides) built by drawing random lines
 * that never give a box a third side, then completing the remaining 0/1-sided boxes. */
function loonyPosition(rand: () => number, w: number, h: number): BoardState | undefined {
  const g = geometryOf(w, h);
  const s = new BoardState(g);
  const order = g.allLines().sort(() => rand() - 0.5);
  for (const l of order) {
    if (g.boxesOfLine(l).every((b) => s.sidesDrawn(b) < 2)) s.drawSilently(l);
  }
  for (let b = 0; b < g.boxCount; b++) if (s.sidesDrawn(b) < 2) return undefined;
  return s;
}

test('loony board positions through the whole pipeline agree with exhaustive minimax', () => {
  const rand = rng(4242);
  let checked = 0;
  for (let n = 0; n < 3000 && checked < 300; n++) {
    const [w, h] = [
      [2, 2],
      [3, 2],
      [2, 3],
      [3, 3],
      [4, 2],
      [4, 3],
    ][n % 6];
    const s = loonyPosition(rand, w, h);
    if (!s || s.undrawnLines().length > 24) continue;
    const text = `position\n  size ${w}x${h}\n  lines ${s.geometry
      .allLines()
      .filter((l) => s.drawn[l])
      .map((l) => s.geometry.lineName(l))
      .join(' ')}\n`;
    const e = analyzeText(text).entries[0];
    const p = e.positions[0];
    assert.equal(p.method, 'loony-endgame', text);
    const oracle = bruteForce(s);
    assert.equal(p.value, oracle.value, text);
    assert.deepEqual(p.best, oracle.best.map((l) => s.geometry.lineName(l)).sort(), text);
    for (const [name, v] of p.moveValues!) {
      const line: number = s.geometry.allLines().find((l) => s.geometry.lineName(l) === name)!;
      assert.equal(v, oracle.moveValues[line], `${name} in\n${text}`);
    }
    checked++;
  }
  console.log(`checked ${checked} loony board positions through analyzeText against brute force`);
  assert.ok(checked >= 200);
});

test('fuzz: move-like garbage (row 0, far columns, long numbers) never throws anywhere in the analysis', () => {
  const rand = lcg(7);
  const tokens = [
    'a0-b0',
    'a0',
    'z99-z98',
    'a1-a0',
    'b0c0',
    'h00',
    'vzz',
    'a1-b1',
    'a100-a101',
    'q9',
    '0-0',
    '-',
    'a1--b1',
    ';b[aa0]',
    '12.',
    '{',
    '}',
    '!?',
    '\n',
    ' ',
  ];
  for (let k = 0; k < 2000; k++) {
    let text = ['game\n  size 3x3\n  moves ', 'position\n  size 2x2\n  lines ', 'endgame\n  play '][k % 3];
    const n = 1 + Math.floor(rand() * 30);
    for (let i = 0; i < n; i++) text += tokens[Math.floor(rand() * tokens.length)] + ' ';
    const r = analyzeText(text);
    for (const d of r.diagnostics) assert.ok(d.range.line >= 0 && d.message.length > 0);
  }
});
