/**
 * `.dbl` import (Dabble/KSquares): hand-written files give exactly the positions hand-written `.dab`
 * entries give; bad files give positioned errors; `dab import` prints an entry that reads back.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dblToDab, readDab, readDbl, type EntryModel } from '../../server/src/engine/notation';
import { geometryOf } from '../../server/src/engine/board/geometry';
import { lcg } from '../support/random';

/** The final position of an entry: drawn lines, who is to move, score. */
function finalPosition(m: EntryModel) {
  const s = m.states[m.states.length - 1];
  return { drawn: Array.from(s.drawn), toMove: s.toMove, score: [s.score[0], s.score[1]] };
}

function importOf(dbl: string, asPosition = false): EntryModel {
  const imp = readDbl(dbl);
  assert.deepEqual(
    imp.diagnostics.filter((d) => d.severity === 'error'),
    [],
  );
  const out = dblToDab(imp, 'imported', asPosition);
  assert.ok(out);
  const doc = readDab(out.text);
  assert.deepEqual(doc.diagnostics, [], out.text);
  return doc.models[0];
}

test('hand-written .dbl files give the positions of the equivalent hand-written .dab entries', () => {
  // A 2x2 game: the top edge, then the top-left box closed by its bottom side (an extra move).
  const dbl =
    '2,2\n(0, 0) - (1, 0)\n(1, 0) - (2, 0)\n(0, 0) - (0, 1)\n(1, 0) - (1, 1)\n(0, 1) - (1, 1)\n(2, 1) - (2, 2)\n';
  const dab = 'game\n  size 2x2\n  moves a3-b3 b3-c3 a3-a2 b3-b2 a2-b2 c2-c1\n';
  const expected = readDab(dab);
  assert.deepEqual(expected.diagnostics, []);
  const game = importOf(dbl);
  assert.equal(game.kind, 'game');
  assert.deepEqual(finalPosition(game), finalPosition(expected.models[0]));
  assert.deepEqual(finalPosition(game).score, [1, 0]);
  assert.equal(finalPosition(game).toMove, 1, 'the box gave Alice another move; c2-c1 passed the turn');
  // The same as a position: lines, with tomove and score from the replay.
  const pos = importOf(dbl, true);
  assert.equal(pos.kind, 'position');
  assert.deepEqual(finalPosition(pos), finalPosition(expected.models[0]));

  // A 3x1 board (3 boxes wide, 1 high): dots (0..3, 0..1); Windows line ends, spaces anywhere.
  const wide = '3,1\r\n( 3 ,1 )-( 3 , 0 )\r\n\r\n(0,1) - (1,1)\r\n# a note\r\n(1,0)-(1,1)\r\n';
  const wideDab = 'game\n  size 3x1\n  moves d1-d2 a1-b1 b1-b2\n';
  assert.deepEqual(finalPosition(importOf(wide)), finalPosition(readDab(wideDab).models[0]));

  // A repeated line: not a game; the position holds each line once, and who moves is not inferred.
  const rep = '2,1\n(0,0)-(1,0)\n(1,0)-(2,0)\n(0,0)-(1,0)\n';
  const imp = readDbl(rep);
  assert.equal(imp.isGame, false);
  assert.deepEqual(
    imp.diagnostics.map((d) => [d.severity, d.code, d.range.line, d.range.character]),
    [['warning', 'drawn-twice', 3, 0]],
  );
  const p = importOf(rep);
  assert.equal(p.kind, 'position');
  assert.deepEqual(finalPosition(p), finalPosition(readDab('position\n  size 2x1\n  lines a2-b2 b2-c2\n').models[0]));

  // An empty list of lines: the empty board.
  const empty = importOf('4,3\n');
  assert.deepEqual(finalPosition(empty), finalPosition(readDab('position\n  size 4x3\n').models[0]));
});

test('random games written as .dbl import to the same positions as the games written as .dab', () => {
  const rand = lcg(11);
  for (let n = 0; n < 200; n++) {
    const w = 1 + Math.floor(rand() * 5),
      h = 1 + Math.floor(rand() * 5);
    const g = geometryOf(w, h);
    const order = g.allLines().sort(() => rand() - 0.5);
    const moves = order.slice(0, Math.floor(rand() * (order.length + 1)));
    // Independent conversion: dab dots are (column letter, row from the bottom, from 1);
    // .dbl dots are (x, y) from 0 at the top left.
    const dblRows = moves.map((l) => {
      const [a, b] = g.lineDots(l);
      const [p, q] = rand() < 0.5 ? [a, b] : [b, a];
      return `(${p.x}, ${h - p.y}) - (${q.x}, ${h - q.y})`;
    });
    const dab = `game\n  size ${w}x${h}\n  moves ${moves.map((l) => g.lineName(l)).join(' ')}\n`;
    const want = finalPosition(readDab(dab).models[0]);
    const got = importOf(`${w},${h}\n${dblRows.join('\n')}\n`);
    assert.deepEqual(finalPosition(got), want, dab);
    assert.deepEqual(
      got.plies.map((m) => m.name),
      moves.map((l) => g.lineName(l)),
    );
  }
});

test('bad .dbl files: positioned errors, nothing written', () => {
  const cases: [string, string, [number, number], RegExp][] = [
    ['', 'bad-size', [0, 0], /empty \.dbl file/],
    ['5x5\n', 'bad-size', [0, 0], /not a board size: the first line of a \.dbl file is W,H/],
    ['13,2\n', 'bad-size', [0, 0], /out of range/],
    ['2,2\n(0, 0) - (1, 0)\n(0, 0) - (0, 2)\n', 'not-adjacent', [2, 0], /not neighbouring dots/],
    ['2,2\n  (0, 0) - (3, 0)\n', 'off-board', [1, 11], /dot \(3, 0\) is off the 2x2 board/],
    ['2,2\n(0, 0) x (1, 0)\n', 'bad-move', [1, 7], /expected '-' between the two dots, found 'x'/],
    ['2,2\n(0, 0) - (1 0)\n', 'bad-move', [1, 12], /expected ',', found '0'/],
    ['2,2\n(0, 0) - (1, 0\n', 'bad-move', [1, 14], /expected '\)', found the end of the line/],
    ['2,2\n(0, 0) - (1, 0) junk\n', 'bad-move', [1, 16], /expected the end of the line, found 'j'/],
    ['2,2\n(a, 0) - (1, 0)\n', 'bad-move', [1, 1], /expected a column number, found 'a'/],
    ['2,2\n(9999999, 0) - (1, 0)\n', 'bad-move', [1, 1], /expected a column number/],
  ];
  for (const [text, code, [line, character], message] of cases) {
    const imp = readDbl(text);
    const errors = imp.diagnostics.filter((d) => d.severity === 'error');
    assert.equal(errors.length, 1, `${JSON.stringify(text)}: ${JSON.stringify(imp.diagnostics)}`);
    assert.equal(errors[0].code, code, text);
    assert.deepEqual([errors[0].range.line, errors[0].range.character], [line, character], text);
    assert.match(errors[0].message, message, text);
    assert.equal(dblToDab(imp, 'x'), undefined);
  }
  // Hostile input stays cheap and never throws.
  const huge = '12,12\n' + '(0,0)-(1,0)\n'.repeat(20000) + '('.repeat(100000);
  const t0 = Date.now();
  const imp = readDbl(huge);
  assert.ok(Date.now() - t0 < 2000);
  assert.ok(imp.diagnostics.length > 0);
});

test('dab import prints the entry (exit 0), or the errors with file:line:column (exit 1)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dab-dbl-'));
  const good = join(dir, 'club game.dbl');
  writeFileSync(good, '2,1\n(0,0)-(1,0)\n(0,1)-(1,1)\n(0,0)-(0,1)\n(1,0)-(1,1)\n');
  const r = spawnSync(process.execPath, ['bin/dab.js', 'import', good], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, 'game "club game"\n  size 2x1\n  moves a2-b2 a1-b1 a1-a2 b1-b2\n');
  const bad = join(dir, 'bad.dbl');
  writeFileSync(bad, '2,1\n(0,0)-(1,0)\n(0,0)-(2,1)\n');
  const b = spawnSync(process.execPath, ['bin/dab.js', 'import', bad], { encoding: 'utf8' });
  assert.equal(b.status, 1);
  assert.equal(b.stdout, '');
  assert.match(b.stderr, /bad\.dbl:3:1: error: \(0, 0\) and \(2, 1\) are not neighbouring dots/);
});

// Found by an independent audit.
test('dbl: a title keeps to one line, repeats are warned about 20 at a time, long numbers are named, stdin is read', () => {
  const imp = readDbl('1,1\n(0,0)-(1,0)\n');
  const out = dblToDab(imp, 'two\nlines\r"quoted"\u0007', false)!;
  assert.equal(out.text.split('\n')[0], 'game "two lines \\"quoted\\" "');
  assert.deepEqual(readDab(out.text).diagnostics, []);
  // a file name's bidi controls are left out (found by an audit: a U+202E reordered the title line)
  assert.equal(dblToDab(imp, 'red\u202e.x\u2066y\u2069 \u05d0', false)!.text.split('\n')[0], 'game "red.xy \u05d0"');
  const rows = ['2,2', ...Array.from({ length: 50 }, () => '(0,0)-(1,0)')].join('\n');
  const rep = readDbl(rows).diagnostics.filter((d) => d.code === 'drawn-twice');
  assert.equal(rep.length, 21, 'twenty warnings, then one for the rest');
  assert.match(rep[20].message, /^29 more rows/);
  assert.equal(rep[20].range.line, 22, 'on the first row not listed');
  // every diagnostic in the order of the text, the summary of repeats among them (found by an audit)
  const mixed = readDbl(['2,2', ...Array.from({ length: 30 }, () => '(0,0)-(1,0)'), '(0,0)-(5,5)'].join('\n'));
  const lines = mixed.diagnostics.map((d) => d.range.line);
  assert.deepEqual(
    lines,
    [...lines].sort((a, b) => a - b),
  );
  assert.ok(mixed.diagnostics.some((d) => /more rows/.test(d.message)) && mixed.diagnostics.at(-1)!.range.line === 31);
  const long = readDbl('5,5\n(0,0)-(99999999999,0)\n').diagnostics;
  assert.match(long[0].message, /a column number of at most 6 digits/);
  // leading zeros are no digits, in the rows as in the size line (found by an audit: 400 of them
  // were "at most 6 digits, found '0'")
  const zeros = readDbl(`${'0'.repeat(400)}2,2\n(${'0'.repeat(400)}1, 0) - (2, 000)\n(0,0)-(0,0000001)\n`);
  assert.deepEqual(zeros.diagnostics, []);
  assert.deepEqual([zeros.width, zeros.height, zeros.lines.length], [2, 2, 2]);
  assert.equal(dblToDab(zeros, 'z')!.text, 'game "z"\n  size 2x2\n  moves b3-c3 a2-a3\n');
  assert.match(readDbl('5,5\n(0,0)-(0001234567,0)\n').diagnostics[0].message, /at most 6 digits, found '0001234567'/);
  assert.match(long[0].message, /found '99999999999'/, 'the number is quoted, not its first digit');
  const r = spawnSync(process.execPath, ['bin/dab.js', 'import', '-'], {
    encoding: 'utf8',
    input: '1,1\n(0,0)-(1,0)\n',
  });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, 'game "stdin"\n  size 1x1\n  moves a2-b2\n');
});

test('a .dbl file in UTF-16, a huge size, and a flood of bad rows get one clear answer each (found by an audit)', () => {
  const utf16 = Buffer.from('\ufeff3,3\n(0, 0) - (1, 0)\n', 'utf16le').toString('utf8');
  const u = readDbl(utf16);
  assert.deepEqual(
    u.diagnostics.map((d) => d.code),
    ['bad-encoding'],
  );
  assert.match(u.diagnostics[0].message, /looks like UTF-16/);
  const huge = readDbl('99999999999999999,7\n');
  assert.match(huge.diagnostics[0].message, /board size 9+…x7 is out of range: each side must be 1 to \d+ boxes/);
  const flood = readDbl('3,3\n' + 'garbage\n'.repeat(5000));
  assert.equal(flood.diagnostics.length, 2001);
  assert.match(flood.diagnostics[2000].message, /more than 2000 problems; the rest are not shown/);
});

// Found by a review: a .dbl file of NULs alone, no longer taken for UTF-16, read as a bad board size.
test('a .dbl file of NUL bytes is said to hold them, as a .dab file is', () => {
  const r = readDbl('\u0000'.repeat(5000));
  assert.deepEqual(
    r.diagnostics.map((d) => [d.code, d.range.line, d.range.character]),
    [['bad-encoding', 0, 0]],
  );
  assert.match(r.diagnostics[0].message, /a NUL character here \(a binary or UTF-16 file\?\)/);
});
