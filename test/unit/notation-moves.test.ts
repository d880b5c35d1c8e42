import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readDab, parseDab, plyAt, moveAt, type Range } from '../../server/src/engine/notation';

const R = (line: number, character: number, endLine: number, endCharacter: number): Range => ({
  line,
  character,
  endLine,
  endCharacter,
});
const codes = (d: { diagnostics: { code: string }[] }): string[] => d.diagnostics.map((x) => x.code);

test('move forms, exact token ranges and forms', () => {
  const p = parseDab('game\nsize 3x3\nmoves a1-b1 b2-b1 a3a4 hcb C4-D4\n');
  assert.deepEqual(p.diagnostics, []);
  const mv = p.entries[0].moves!.moves;
  assert.deepEqual(
    mv.map((x) => [x.text, x.form, x.range]),
    [
      ['a1-b1', 'dots', R(2, 6, 2, 11)],
      ['b2-b1', 'dots', R(2, 12, 2, 17)],
      ['a3a4', 'compact', R(2, 18, 2, 22)],
      ['hcb', 'littlegolem', R(2, 23, 2, 26)],
      ['C4-D4', 'dots', R(2, 27, 2, 32)],
    ],
  );
  const m = readDab('game\nsize 3x3\nmoves a1-b1 b2-b1 a3a4 hcb C4-D4\n').models[0];
  assert.deepEqual(
    m.moves.map((x) => x.name),
    ['a1-b1', 'b1-b2', 'a3-a4', 'b3-c3', 'c4-d4'],
  );
  assert.ok(m.moves.every((x) => x.legal));
});

test('move numbers, glyphs and brace comments attach to the right move', () => {
  const text = [
    'game', // 0
    'size 2x2', // 1
    'moves 1. a1-b1! b1-c1 ?? {a long', // 2
    '   comment, over # two lines} 2...a3-b3!? 3.b3-c3', // 3
    '   a1-a2,c1-c2 ?! {x}{y}', // 4
  ].join('\n');
  const p = parseDab(text);
  assert.deepEqual(p.diagnostics, []);
  const mv = p.entries[0].moves!.moves;
  assert.deepEqual(
    mv.map((x) => [x.text, x.number, x.glyph, x.comment]),
    [
      ['a1-b1', 1, '!', null],
      ['b1-c1', null, '??', 'a long comment, over # two lines'],
      ['a3-b3', 2, '!?', null],
      ['b3-c3', 3, null, null],
      ['a1-a2', null, null, null],
      ['c1-c2', null, '?!', 'x y'],
    ],
  );
  assert.deepEqual(mv[0].numberRange, R(2, 6, 2, 8));
  assert.deepEqual(mv[0].glyphRange, R(2, 14, 2, 15));
  assert.deepEqual(mv[1].glyphRange, R(2, 22, 2, 24));
  assert.deepEqual(mv[1].commentRange, R(2, 25, 3, 29));
  assert.deepEqual(mv[2].range, R(3, 34, 3, 39));
  assert.deepEqual(mv[2].numberRange, R(3, 30, 3, 34));
  assert.deepEqual(mv[5].commentRange, R(4, 18, 4, 24));
  assert.equal(p.entries[0].moves!.comments.length, 3);
});

test('bad glyphs, stray glyphs, malformed moves: errors with ranges, the list goes on', () => {
  const p = parseDab('game\nsize 2x2\nmoves ! a1-b1!!! 12 a1-b1-c1 "x" b1-c1 xyz a2-b2\n');
  assert.deepEqual(
    p.diagnostics.map((d) => [d.code, d.range]),
    [
      ['bad-glyph', R(2, 6, 2, 7)],
      ['bad-glyph', R(2, 13, 2, 16)],
      ['bad-move', R(2, 17, 2, 19)],
      ['bad-move', R(2, 20, 2, 28)],
      ['syntax', R(2, 29, 2, 32)],
      ['bad-move', R(2, 39, 2, 42)],
    ],
  );
  assert.deepEqual(
    p.entries[0].moves!.moves.map((m) => m.text),
    ['a1-b1', 'b1-c1', 'a2-b2'],
  );
});

test('inferred turns: a completing move gives another move; double-box completion', () => {
  // 2x1 board: seven lines.
  const doc = readDab('game\nsize 2x1\nmoves a1-b1 b1-c1 a2-b2 b2-c2 a1-a2 c1-c2 b1-b2 a1-b1\n');
  const m = doc.models[0];
  assert.deepEqual(
    m.plies.map((x) => x.player),
    [0, 1, 0, 1, 0, 1, 0],
  );
  assert.deepEqual(
    m.plies.map((x) => x.completed.length),
    [0, 0, 0, 0, 0, 0, 2],
  );
  assert.deepEqual(
    m.states.map((s) => s.toMove),
    [0, 1, 0, 1, 0, 1, 0, 0],
  );
  assert.deepEqual(m.states[7].score, [2, 0]);
  assert.deepEqual(
    doc.diagnostics.map((d) => [d.code, d.range]),
    [['game-over', R(2, 48, 2, 53)]],
  );
  assert.equal(m.moves[7].legal, false);
  assert.equal(m.moves[7].problem, 'game-over');
  // single completions chain: 1x2 board, second player completes then moves again
  const d2 = readDab('game\nsize 1x2\nmoves a1-b1 a1-a2 b1-b2 a2-b2 a3-b3 a2-a3 b2-b3\n').models[0];
  assert.deepEqual(
    d2.plies.map((x) => [x.player, x.completed.length]),
    [
      [0, 0],
      [1, 0],
      [0, 0],
      [1, 1],
      [1, 0],
      [0, 0],
      [1, 1],
    ],
  );
  assert.deepEqual(d2.states[d2.states.length - 1].score, [0, 2]);
});

test('tomove decides who draws the first line', () => {
  for (const [w, p] of [
    ['second', 1],
    ['Bob', 1],
    ['bob', 1],
    ['B', 1],
    ['2', 1],
    ['first', 0],
    ['Alice', 0],
    ['a', 0],
  ] as const) {
    const m = readDab(`game\nplayers "Alice" "Bob"\ntomove ${w}\nsize 2x2\nmoves a1-b1\n`).models[0];
    assert.equal(m.toMove, p, w);
    assert.equal(m.plies[0].player, p, w);
  }
  assert.deepEqual(codes(readDab('game\nsize 2x2\ntomove Carol\n')), ['bad-tomove']);
  // Default names A and B
  assert.equal(readDab('game\nsize 2x2\ntomove B\n').models[0].toMove, 1);
});

test('illegal moves: off-board, not adjacent, drawn twice (with the earlier move), malformed; all skipped', () => {
  const text = 'game\nsize 2x2\nlines a1-a2\nmoves a1-b1 a1-b1 a4-b4 a1-c1 hzz a1-a2 b1-c1\n';
  const doc = readDab(text);
  assert.deepEqual(
    doc.diagnostics.map((d) => [d.code, d.range]),
    [
      ['drawn-twice', R(3, 12, 3, 17)],
      ['off-board', R(3, 18, 3, 23)],
      ['not-adjacent', R(3, 24, 3, 29)],
      ['off-board', R(3, 30, 3, 33)],
      ['drawn-twice', R(3, 34, 3, 39)],
    ],
  );
  assert.match(doc.diagnostics[0].message, /by move 1/);
  assert.match(doc.diagnostics[4].message, /at the start/);
  const m = doc.models[0];
  assert.deepEqual(
    m.plies.map((x) => x.name),
    ['a1-b1', 'b1-c1'],
  );
  assert.deepEqual(
    m.plies.map((x) => x.ply),
    [1, 2],
  );
  assert.equal(m.states.length, 3);
  assert.equal(m.plies[1].player, 1);
});

test('littlegolem turn string pasted as the move list', () => {
  // 2x1 board; r's last bracket holds two moves (a1-a2 completes a box, so r moves again).
  const doc = readDab('game\nsize 2x1\nmoves ;b[haa];r[hab];b[hba];r[hbb];b[vab];r[vaavac]\n');
  assert.deepEqual(doc.diagnostics, []);
  const e = doc.entries[0];
  assert.equal(e.moves!.turns.length, 6);
  assert.deepEqual(
    e.moves!.turns.map((t) => [t.player, t.moves]),
    [
      [0, [0]],
      [1, [1]],
      [0, [2]],
      [1, [3]],
      [0, [4]],
      [1, [5, 6]],
    ],
  );
  assert.deepEqual(e.moves!.turns[5].range, R(2, 42, 2, 51));
  assert.deepEqual(e.moves!.moves[6].range, R(2, 47, 2, 50));
  const m = doc.models[0];
  assert.deepEqual(
    m.plies.map((x) => [x.name, x.player]),
    [
      ['a1-b1', 0],
      ['b1-c1', 1],
      ['a2-b2', 0],
      ['b2-c2', 1],
      ['b1-b2', 0],
      ['a1-a2', 1],
      ['c1-c2', 1],
    ],
  );
  assert.deepEqual(m.states[7].score, [0, 2]);
  // Without semicolons, split over lines, with SGF wrapping.
  const sgf = readDab('game\nsize 2x1\nmoves (;FF[4]PB[x]\n b[haa]r[hab]\n;b[hba];r[hbb];b[vab];r[vaavac])\n');
  assert.deepEqual(
    sgf.diagnostics.map((d) => [d.severity, d.code]),
    [
      ['information', 'bad-turn'],
      ['information', 'bad-turn'],
    ],
  );
  assert.equal(sgf.models[0].plies.length, 7);
  assert.deepEqual(sgf.models[0].players, ['A', 'B'], 'PB[x] alone names nobody');
});

test('littlegolem brackets that disagree with the inferred turns are warnings', () => {
  // Second bracket claims b, but b1-c1 is r's move.
  const d1 = readDab('game\nsize 2x1\nmoves ;b[haa];b[hab]\n');
  assert.deepEqual(
    d1.diagnostics.map((d) => [d.severity, d.code, d.range]),
    [['warning', 'turn-mismatch', R(2, 14, 2, 20)]],
  );
  assert.equal(d1.models[0].plies[1].player, 1);
  assert.match(
    d1.diagnostics[0].message,
    /by the board it is B's move \(the move before completed no box, so the turn passed\)/,
  );
  // the first bracket: the reason is who moves first, not a capture (found by an audit)
  const first = readDab('game\nsize 2x1\nmoves ;r[haa]\n');
  assert.match(first.diagnostics[0]?.message ?? '', /by the board it is A's move \(A moves first here\)/);
  // after a capture: it gives another move (a1-b1 a1-a2 b1-b2, then B's a2-b2 completes box a1)
  const again = readDab('game\nsize 2x1\nmoves haa vaa vab ;r[hba];b[hbb]\n');
  assert.match(
    again.diagnostics.find((d) => d.code === 'turn-mismatch')?.message ?? '',
    /\(the move before completed a box, which gives another move\)/,
  );
  // A bracket goes on after a move that completed nothing.
  const d2 = readDab('game\nsize 2x1\nmoves ;b[haahab]\n');
  assert.deepEqual(
    d2.diagnostics.map((d) => [d.severity, d.code, d.range]),
    [['warning', 'turn-mismatch', R(2, 12, 2, 15)]],
  );
  // Malformed brackets.
  const d3 = parseDab('game\nsize 2x1\nmoves ;b[haab];r[];b[hab\n');
  assert.deepEqual(
    d3.diagnostics.map((d) => [d.code, d.range]),
    [
      ['bad-turn', R(2, 9, 2, 13)],
      ['bad-turn', R(2, 15, 2, 18)],
      ['bad-turn', R(2, 19, 2, 24)],
    ],
  );
  assert.deepEqual(
    d3.entries[0].moves!.moves.map((m) => m.text),
    ['hab'],
  );
});

test('littlegolem codes and moves continue across lines', () => {
  const p = readDab('game\nsize 2x2\nmoves\n  haa hab\n  hba\n  a3-b3\nscore 0 0\n');
  assert.deepEqual(p.diagnostics, []);
  assert.deepEqual(
    p.models[0].plies.map((m) => m.name),
    ['a1-b1', 'b1-c1', 'a2-b2', 'a3-b3'],
  );
});

test('cursor helpers: plyAt and moveAt', () => {
  const doc = readDab('game\nsize 2x2\nmoves a1-b1 a1-b1 b1-c1\n');
  const m = doc.models[0];
  assert.equal(plyAt(m, 2, 0), 0);
  assert.equal(plyAt(m, 2, 6), 1);
  assert.equal(plyAt(m, 2, 13), 1);
  assert.equal(plyAt(m, 2, 18), 2);
  assert.equal(moveAt(m, 2, 14)!.legal, false);
  assert.equal(moveAt(m, 2, 5), undefined);
});

test('cursor helpers: on glued littlegolem codes the first character of a code is on that code', () => {
  // haa and hdc glued in one bracket: haa's range ends where hdc's starts
  const text = 'game\nsize 3x3\nmoves ;b[vad];r[hda];b[haahdc];r[vcd]\n';
  const m = readDab(text).models[0];
  const line = text.split('\n')[2];
  assert.equal(m.moves.length, 5);
  for (const [k, mv] of m.moves.entries()) {
    const r = mv.range;
    assert.equal(moveAt(m, 2, r.character), mv, `first character of move ${k + 1} (${line.slice(r.character)})`);
    assert.equal(plyAt(m, 2, r.character), mv.ply, `ply at the first character of move ${k + 1}`);
  }
  // just after the last code (the bracket) is still on it, as after any move
  const last = m.moves[m.moves.length - 1];
  assert.equal(moveAt(m, 2, last.range.endCharacter), last);
});

test('a 10,000-move record: moves after the end are errors, summarised; states stay small', () => {
  const moves = Array.from(
    { length: 10000 },
    (_, i) => `${'abcdefghijklm'[i % 12]}1-${'abcdefghijklm'[(i % 12) + 1]}1`,
  ).join(' ');
  const t0 = performance.now();
  const doc = readDab(`game\nsize 12x12\nmoves ${moves}\n`);
  const ms = performance.now() - t0;
  const m = doc.models[0];
  assert.equal(m.plies.length, 12);
  assert.equal(m.states.length, 13);
  assert.ok(m.diagnostics.length <= 501);
  console.log(`10,000-move record: ${ms.toFixed(0)} ms, ${doc.diagnostics.length} diagnostics`);
  // A full 12x12 game (312 lines) then more moves.
  const all: string[] = [];
  const L = 'abcdefghijklm';
  for (let y = 1; y <= 13; y++) for (let x = 0; x < 12; x++) all.push(`${L[x]}${y}-${L[x + 1]}${y}`);
  for (let y = 1; y <= 12; y++) for (let x = 0; x <= 12; x++) all.push(`${L[x]}${y}-${L[x]}${y + 1}`);
  const extra = Array.from({ length: 100 }, () => 'a1-b1');
  const full = readDab(`game\nsize 12x12\nmoves ${all.concat(extra).join(' ')}\n`).models[0];
  assert.equal(full.plies.length, 312);
  assert.equal(full.states.length, 313);
  assert.ok(full.states[312].isOver());
  assert.equal(full.states[312].score[0] + full.states[312].score[1], 144);
  const over = full.diagnostics.filter((d) => d.code === 'game-over');
  assert.equal(over.length, 21);
  assert.match(over[20].message, /80 more moves/);
});

test("the contract's littlegolem fragment verbatim", () => {
  const doc = readDab('game\n  size 5x5\n  moves ;b[hdb];r[vce];b[haevbe]\n');
  const m = doc.models[0];
  assert.deepEqual(
    m.plies.map((x) => [x.name, x.player]),
    [
      ['b4-c4', 0],
      ['e3-e4', 1],
      ['e1-f1', 0],
      ['e2-e3', 1],
    ],
  );
  assert.deepEqual(
    doc.diagnostics.map((d) => [d.severity, d.code, d.range]),
    [['warning', 'turn-mismatch', R(2, 28, 2, 31)]],
  );
});

test('typographic dashes between two dots are read as the hyphen, in moves and lines', () => {
  const doc = readDab('game\n  size 2x2\n  lines a3\u2013b3\n  moves a1\u2013b1 b1\u2014c1 1.c1\u2212c2! a2\u2010b2\n');
  assert.deepEqual(codes(doc), []);
  assert.deepEqual(
    doc.models[0].plies.map((m) => m.name),
    ['a1-b1', 'b1-c1', 'c1-c2', 'a2-b2'],
  );
  assert.deepEqual(doc.entries[0].moves!.moves[2].range, R(3, 22, 3, 27));
  assert.equal(doc.models[0].setup[0].name, 'a3-b3');
});

test('SGF variations: the first branch is followed, each further one is a warning and left out', () => {
  const doc = readDab('game\n  size 2x2\n  moves (;b[haa](;r[hab])(;r[hbb]) (;r[vaa];b[x]))\n');
  assert.deepEqual(
    doc.diagnostics.map((d) => [d.code, d.severity, d.range]),
    [
      ['bad-variation', 'warning', R(2, 25, 2, 34)],
      ['bad-variation', 'warning', R(2, 35, 2, 49)],
    ],
  );
  assert.match(doc.diagnostics[0].message, /SGF variations are not read/);
  assert.deepEqual(
    doc.models[0].plies.map((m) => m.name),
    ['a1-b1', 'b1-c1'],
  );
});

test("SGF's B[…] and W[…] are the two players' turns; other properties' values may hold ';', '[' and an escaped ']'", () => {
  // found by an audit: W[…] was ignored (its move lost, with only a note), and C[a;b] or C[a \\] b]
  // broke the record
  const doc = readDab('game\n  size 3x3\n  moves (;FF[4]C[a;b \\] [c];B[haa];W[hab]PB[x;y];B[hac];W[hba])\n');
  assert.deepEqual(
    doc.diagnostics.filter((d) => d.severity !== 'information').map((d) => [d.code, d.message]),
    [],
  );
  assert.deepEqual(
    doc.models[0].plies.map((m) => [m.name, m.player]),
    [
      ['a1-b1', 0],
      ['b1-c1', 1],
      ['c1-d1', 0],
      ['a2-b2', 1],
    ],
  );
});

test("an SGF property's value may run over lines; C[…] is its node's move comment", () => {
  // A comment over three lines, with a move, parentheses, '[' and ';' after an escaped ']', and a
  // header word: all part of the value, as SGF has it.
  const doc = readDab(
    'game\n  size 3x3\n  moves (;FF[4]C[about\ngame (a1-b1) \\];x[y\nend]PB[x]\n;B[haa]C[good\n  move]C[!];W[hab])\n',
  );
  assert.deepEqual(
    doc.diagnostics.map((d) => [d.severity, d.code, d.range]),
    [
      ['information', 'bad-turn', R(2, 10, 2, 15)],
      ['information', 'bad-turn', R(4, 4, 4, 9)],
    ],
  );
  assert.deepEqual(
    doc.models[0].plies.map((m) => [m.name, m.player, m.comment]),
    [
      ['a1-b1', 0, 'good move !'],
      ['b1-c1', 1, null],
    ],
  );
  const first = doc.entries[0].moves!.moves[0];
  assert.deepEqual(first.commentRange, R(5, 7, 6, 11));
  assert.deepEqual(
    doc.entries[0].moves!.comments.map((c) => c.text),
    ['about game (a1-b1) ];x[y end', 'good move', '!'],
  );
  // A turn inside a value over lines is most likely a forgotten ']': a warning says so.
  const cut = readDab('game\n  size 3x3\n  moves ;b[haa]C[two\n  words;r[hab]\n');
  assert.deepEqual(
    cut.diagnostics.map((d) => [d.severity, d.code, d.range]),
    [['warning', 'bad-turn', R(2, 15, 3, 14)]],
  );
  assert.match(
    cut.diagnostics[0].message,
    /if a '\]' is missing before it, the moves after it are read as part of the value/,
  );
  // Never past the next entry header: unterminated on its line, and the next entry is read.
  const open = readDab('game\n  size 3x3\n  moves ;b[haa]C[never closed\ngame\n  size 2x2\n  moves a1-b1 [x]\n');
  assert.deepEqual(
    open.diagnostics.filter((d) => d.severity === 'error' && d.range.line < 3).map((d) => [d.code, d.range, d.message]),
    [['bad-turn', R(2, 15, 2, 29), "unterminated property 'C[': add ']'"]],
  );
  assert.deepEqual(
    open.models.map((m) => m.plies.map((p) => p.name)),
    [['a1-b1'], ['a1-b1']],
  );
});

test('a littlegolem code off the board says which letter is out of range, never naming a dot past z', () => {
  const doc = readDab('game\n  size 3x3\n  moves a1-b1 hzz vdd had\n');
  assert.deepEqual(
    doc.diagnostics.map((d) => [d.code, d.range]),
    [
      ['off-board', R(2, 14, 2, 17)],
      ['off-board', R(2, 18, 2, 21)],
      ['off-board', R(2, 22, 2, 25)],
    ],
  );
  const [hzz, vdd, had] = doc.diagnostics.map((d) => d.message);
  assert.doesNotMatch(hzz, /\{/);
  assert.match(hzz, /row letter 'z' \(rows a\.\.d\) and its column letter 'z' \(columns a\.\.c\) are out of range/);
  assert.match(vdd, /'vdd' \(d4-d5\) .*row letter 'd' \(rows a\.\.c\) is out of range for 'v' codes/);
  assert.match(had, /'had' \(d1-e1\) .*column letter 'd' \(columns a\.\.c\)/);
});

// Found by an audit: a 10-digit move number was told that "a move number counts from 1", and a
// size of 400 digits by itself was quoted whole.
test('a move number of more than 9 digits says so; a size of many digits is quoted cut, both sides', () => {
  const d = readDab('game\n  size 2x2\n  moves 1000000000. a1-b1 0. a2-b2\n').diagnostics.map((x) => x.message);
  assert.deepEqual(d, ['a move number has at most 9 digits', 'a move number counts from 1']);
  const size = readDab(`game\n  size ${'9'.repeat(400)}\n`).diagnostics.find((x) => x.code === 'bad-size');
  assert.equal(size?.message, 'board size 99999999…x99999999… is out of range: each side must be 1 to 12 boxes');
});

test("SGF's PB[…] and PW[…] name the players when the entry has no players field", () => {
  const doc = readDab('game\n  size 2x2\n  moves (;FF[4]PB[alice]PW[Bob\n  Lee]\n;B[haa];W[hab])\n');
  assert.deepEqual(doc.models[0].players, ['alice', 'Bob Lee']);
  assert.deepEqual(
    doc.diagnostics.map((d) => d.message),
    ["littlegolem/SGF property 'FF' is ignored"],
  );
  // an empty name names nobody, and one name alone is not used
  assert.deepEqual(readDab('game\n  size 2x2\n  moves (;PW[bob]PB[ ];B[haa])\n').models[0].players, ['A', 'B']);
  // a players field wins, and each SGF name gets a note at its property
  const both = readDab('game\n  size 2x2\n  players "Ann" "Bo"\n  moves (;PB[alice]PW[bob];B[haa];W[hab])\n');
  assert.deepEqual(both.models[0].players, ['Ann', 'Bo']);
  assert.deepEqual(
    both.diagnostics.map((d) => [d.severity, d.range, d.message]),
    [
      ['information', R(3, 10, 3, 19), "the SGF name 'alice' is not used: the players field names the players"],
      ['information', R(3, 19, 3, 26), "the SGF name 'bob' is not used: the players field names the players"],
    ],
  );
  // the names as players everywhere: a tomove field may name one
  const to = readDab('position\n  size 2x2\n  tomove bob\n  lines a1-b1\n  moves (;PB[alice]PW[bob];W[hab])\n');
  assert.equal(to.models[0].toMove, 1);
});

// Found by a review of the SGF reading.
test('SGF: a forgotten ] never swallows fields; comments find their move in any order; names only together', () => {
  const forgot = readDab('game\n  size 2x2\n  moves ;B[haa]C[forgot\n  value 0\n  tomove B\n[Event "x"]\n');
  assert.deepEqual(
    forgot.diagnostics.filter((d) => d.severity === 'error').map((d) => [d.range, d.message]),
    [[R(2, 15, 2, 23), "unterminated property 'C[': add ']'"]],
  );
  // its one diagnostic there: not also "property 'C' is ignored" (found by an audit)
  assert.deepEqual(
    forgot.diagnostics.filter((d) => d.code === 'bad-turn').map((d) => d.message),
    ["unterminated property 'C[': add ']'"],
  );
  assert.equal(forgot.entries[0].value?.value, 0, 'the value field is read');
  assert.equal(forgot.entries[0].tomove?.text, 'B', 'the tomove field is read');
  assert.equal(forgot.entries[0].moves!.openValue, true);
  const comments = (src: string) => readDab(src).models[0].plies.map((p) => p.comment);
  // C before the move in its node, after a move written out, a brace after a bracket
  assert.deepEqual(comments('game\n  size 2x2\n  moves ;C[before]B[haa];W[hab]C[after]\n'), ['before', 'after']);
  assert.deepEqual(comments('game\n  size 2x2\n  moves haa C[x] hab\n'), ['x', null]);
  assert.deepEqual(comments('game\n  size 2x2\n  moves ;B[haa] {brace};W[hab]\n'), ['brace', null]);
  // an empty C[] is no comment; SGF's soft line break (a backslash at the end) joins without a space
  const soft = readDab('game\n  size 2x2\n  moves ;B[haa]C[]C[abc\\\ndef \\\\\nghi]\n');
  assert.equal(soft.models[0].plies[0].comment, 'abcdef \\ ghi');
  assert.equal(soft.entries[0].moves!.comments.length, 1);
  // SGF list values: each bracket is a value of the property; one note a property
  const list = readDab('game\n  size 2x2\n  moves (;AB[x][y];B[haa]C[c][d])\n');
  assert.deepEqual(
    list.diagnostics.map((d) => [d.range, d.message]),
    [[R(2, 10, 2, 15), "littlegolem/SGF property 'AB' is ignored"]],
  );
  assert.equal(list.models[0].plies[0].comment, 'c d');
  // a turn in a value, on one line too, is most likely a forgotten ]
  assert.match(
    readDab('game\n  size 2x2\n  moves ;B[haa]C[good;W[hab]\n').diagnostics[0].message,
    /holds a turn .*if a '\]' is missing before it/,
  );
  // a variation holding only a property is empty
  assert.deepEqual(
    readDab('game\n  size 2x2\n  moves a1-b1 (C[x]) b1-c1\n').diagnostics.map((d) => d.code),
    ['bad-variation'],
  );
  // PB alone names nobody (the other player's default B would be SGF's B); the same name twice is
  // warned about; a broken players field is not replaced by the SGF names
  const one = readDab('game\n  size 2x2\n  moves (;PB[Bob];B[haa])\n');
  assert.deepEqual(one.models[0].players, ['A', 'B']);
  assert.match(
    one.diagnostics[0].message,
    /the SGF name 'Bob' is not used: SGF's PB\[…\] and PW\[…\] name the players only together/,
  );
  const same = readDab('game\n  size 2x2\n  moves (;PB[Ann]PW[Ann];B[haa])\n');
  assert.deepEqual(same.models[0].players, ['Ann', 'Ann']);
  assert.deepEqual(
    same.diagnostics.map((d) => [d.severity, d.message]),
    [['warning', "both players are named 'Ann'"]],
  );
  const broken = readDab('game\n  size 2x2\n  players "x" "y" "z"\n  moves (;PB[Ann]PW[Bo];B[haa])\n');
  assert.deepEqual(broken.models[0].players, ['A', 'B']);
});

test('a tomove that fits both SGF names points at PB[…] and PW[…], not at a players field', () => {
  const d = readDab('game\nsize 2x1\ntomove ann\nmoves (;FF[4]PB[Ann]PW[ANN];B[haa])\n');
  const bad = d.diagnostics.filter((x) => x.code === 'bad-tomove');
  assert.equal(bad.length, 1);
  assert.match(bad[0].message, /exactly as in PB\[…\] and PW\[…\]/);
  assert.doesNotMatch(bad[0].message, /as in players/);
  const p = readDab('game\nsize 2x1\nplayers "Ann" "ANN"\ntomove ann\n');
  assert.match(p.diagnostics.find((x) => x.code === 'bad-tomove')!.message, /exactly as in players/);
});

// Found by an audit: `a1-b1 (;r[hbb]) a4-b4` read like a variation and put all three moves on the
// main line without a word. SGF has nothing after a branch's ')' but another branch: a move there is
// read as before, and said.
test("SGF: a move right after a branch '(;…)' is read after the branch's moves, with a warning", () => {
  const read = (moves: string) => readDab(`game "g"\n  size 3x3\n  moves ${moves}\n`);
  const mixed = read('a1-b1 (;r[hbb]) a4-b4');
  assert.deepEqual(
    mixed.models[0].moves.map((m) => m.name),
    ['a1-b1', 'b2-c2', 'a4-b4'],
  );
  assert.deepEqual(
    mixed.diagnostics.map((d) => [d.severity, d.code, d.range.line, d.range.character, d.range.endCharacter]),
    [['warning', 'bad-variation', 2, 24, 29]],
  );
  assert.match(mixed.diagnostics[0].message, /right after an SGF branch/);
  // a number, a ';' or a comment before the move changes nothing; a turn is a move too (found by a review)
  const after = (x: string) =>
    read(`(;B[haa];W[hab]) ${x}`).diagnostics.filter((d) => /right after an SGF branch/.test(d.message));
  for (const x of ['3. a1-b1', '; a1-b1', '{note} a1-b1', 'r[hbb]', 'C[why] b1-c1!'])
    assert.equal(after(x).length, 1, x);
  // a word that is no move gets its own error, not this warning
  for (const x of ['!', 'B:', '-']) assert.deepEqual(after(x), [], x);
  // SGF as SGF writes it, and dab variations, say nothing of the kind
  for (const clean of ['(;b[haa];r[hab])', '(;b[haa];r[hab]) {a note}', 'a1-b1 (a1-a2) b1-c1', '(;b[haa](;r[hab]))'])
    assert.deepEqual(
      read(clean).diagnostics.filter((d) => /right after an SGF branch/.test(d.message)),
      [],
      clean,
    );
});
