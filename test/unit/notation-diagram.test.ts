import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readDab, parseDab, type Range } from '../../server/src/engine/notation';
import { CLAIMED_UNKNOWN, UNCLAIMED } from '../../server/src/engine/board/state';

const R = (line: number, character: number, endLine: number, endCharacter: number): Range => ({
  line,
  character,
  endLine,
  endCharacter,
});

function undrawn(text: string): string[] {
  const doc = readDab(text);
  const m = doc.models[0];
  return m
    .initial!.undrawnLines()
    .map((l) => m.geometry!.lineName(l))
    .sort();
}

test('narrow +-+ and wide +---+ styles give the same board', () => {
  const narrow = 'position\ndiagram\n+-+-+\n|A| |\n+-+-+\n| |\n+-+ +\n';
  const wide = 'position\ndiagram\n+---+---+\n| A |   |\n+---+---+\n|   |\n+---+   +\n';
  for (const t of [narrow, wide]) {
    const doc = readDab(t);
    assert.deepEqual(doc.diagnostics, [], t);
    const m = doc.models[0];
    assert.equal(m.geometry!.width, 2);
    assert.equal(m.geometry!.height, 2);
    assert.deepEqual(undrawn(t), ['b1-c1', 'c1-c2']);
    assert.equal(m.initial!.owner[m.geometry!.box(0, 1)], 0);
    assert.equal(m.initial!.owner[m.geometry!.box(1, 1)], CLAIMED_UNKNOWN);
    assert.deepEqual(m.score, [1, 0]);
    assert.equal(m.unassigned, 2);
  }
});

test('every dot character works and can be mixed', () => {
  for (const d of ['+', 'o', 'O', '.', '*']) {
    const t = `position\ndiagram\n${d}--${d}--${d}\n|     |\n${d}--${d}  ${d}\n`;
    const doc = readDab(t);
    assert.deepEqual(doc.diagnostics, [], d);
    const m = doc.models[0];
    assert.equal(m.geometry!.width, 2);
    assert.equal(m.geometry!.height, 1);
    assert.deepEqual(undrawn(t), ['b1-b2', 'b1-c1']);
  }
  const mixed = 'position\ndiagram\no---*---.\n|       |\nO---+---o\n';
  assert.deepEqual(readDab(mixed).diagnostics, []);
  assert.deepEqual(undrawn(mixed), ['b1-b2']);
});

test('indentation, trailing spaces trimmed, blank box rows, irregular cell widths', () => {
  const t = [
    'position "indented"',
    '  size 3x2',
    '  diagram',
    '      +--+-----+-+',
    '                    ',
    '      +  +     + +',
    '      |  |',
    '      +--+-----+-+   # a note',
    '  tomove second',
  ].join('\n');
  const doc = readDab(t);
  assert.deepEqual(doc.diagnostics, []);
  const e = doc.entries[0];
  assert.equal(e.diagram!.width, 3);
  assert.equal(e.diagram!.height, 2);
  assert.deepEqual(e.diagram!.columns, [6, 9, 15, 17]);
  assert.deepEqual(undrawn(t).length, 17 - 8);
  assert.equal(doc.models[0].toMove, 1);
  assert.deepEqual(
    e.diagram!.rows.map((r) => r.kind),
    ['dot', 'box', 'dot', 'box', 'dot'],
  );
  assert.deepEqual(e.diagram!.rows[4].range, R(7, 6, 7, 18));
});

test('the diagram ends at the first line that cannot continue it', () => {
  const t = 'position\ndiagram\n+-+-+\n\n+-+-+\n\nmoves a1-b1\n';
  const doc = readDab(t);
  assert.equal(doc.entries[0].diagram!.rows.length, 3);
  assert.equal(doc.entries[0].moves!.moves.length, 1);
  // a1-b1 is drawn already in the diagram
  assert.deepEqual(
    doc.diagnostics.map((d) => [d.code, d.range]),
    [['drawn-twice', R(6, 6, 6, 11)]],
  );
  // A blank line followed by a dot row is a blank box row.
  const t2 = 'position\ndiagram\n+-+\n\n+-+\n';
  const d2 = readDab(t2);
  assert.deepEqual(d2.diagnostics, []);
  assert.deepEqual(undrawn(t2), ['a1-a2', 'b1-b2']);
});

test('owners: initials of the players, full names, unknown initials as labels', () => {
  const t = [
    'position',
    'players "Alice" "Bob"',
    'diagram',
    '+---+---+---+---+',
    '| A | b | X |Bob|',
    '+---+---+---+---+',
  ].join('\n');
  const doc = readDab(t);
  assert.deepEqual(doc.diagnostics, []);
  const m = doc.models[0];
  const o = Array.from(m.initial!.owner);
  assert.deepEqual(o, [0, 1, CLAIMED_UNKNOWN, 1]);
  assert.deepEqual(m.score, [1, 2]);
  assert.equal(m.unassigned, 1);
  assert.deepEqual(
    doc.entries[0].diagram!.cells.map((c) => [c.text, c.x, c.y, c.range]),
    [
      ['A', 0, 0, R(4, 2, 4, 3)],
      ['b', 1, 0, R(4, 6, 4, 7)],
      ['X', 2, 0, R(4, 10, 4, 11)],
      ['Bob', 3, 0, R(4, 13, 4, 16)],
    ],
  );
});

test('same initials are ambiguous; an initial in an open box is a label (hint)', () => {
  const t = 'position\nplayers "Ann" "Al"\ndiagram\n+---+---+\n| A | A\n+---+---+\n';
  const doc = readDab(t);
  assert.deepEqual(
    doc.diagnostics.map((d) => [d.severity, d.code, d.range]),
    [['warning', 'owner-ambiguous', R(4, 2, 4, 3)]],
  );
  assert.equal(doc.models[0].initial!.owner[0], CLAIMED_UNKNOWN);
  assert.equal(doc.models[0].initial!.owner[1], UNCLAIMED);
});

test('score given wins over diagram initials; a mismatch is a warning', () => {
  const base = 'position\ndiagram\n+-+-+\n|A|B|\n+-+-+\n';
  assert.deepEqual(readDab(base).models[0].score, [1, 1]);
  const ok = readDab(base + 'score 1 1\n');
  assert.deepEqual(ok.diagnostics, []);
  const bad = readDab(base + 'score 0 2\n');
  assert.deepEqual(
    bad.diagnostics.map((d) => [d.severity, d.code, d.range]),
    [['warning', 'score-mismatch', R(5, 6, 5, 9)]],
  );
  assert.deepEqual(bad.models[0].score, [0, 2]);
  const tooMany = readDab(base + 'score 5 0\n');
  assert.equal(tooMany.diagnostics[0].code, 'score-mismatch');
  // Setup lines complete boxes that count for nobody unless the score says so.
  const lines = readDab('position\nsize 1x1\nlines a1-b1 a1-a2 b1-b2 a2-b2\n');
  assert.deepEqual(lines.diagnostics, []);
  assert.deepEqual(lines.models[0].score, [0, 0]);
  assert.equal(lines.models[0].unassigned, 1);
  const lines2 = readDab('position\nsize 1x1\nscore 0 1\nlines a1-b1 a1-a2 b1-b2 a2-b2\n');
  assert.deepEqual(lines2.diagnostics, []);
  assert.deepEqual(lines2.models[0].score, [0, 1]);
  assert.equal(lines2.models[0].unassigned, 0);
});

test('diagram and size: inferred, agreeing, conflicting', () => {
  const d = 'diagram\n+-+-+-+\n\n+-+-+-+\n';
  assert.deepEqual(readDab(`position\n${d}`).diagnostics, []);
  assert.deepEqual(readDab(`position\nsize 3x1\n${d}`).diagnostics, []);
  const bad = readDab(`position\nsize 2x2\n${d}`);
  assert.deepEqual(
    bad.diagnostics.map((x) => [x.code, x.range]),
    [['size-mismatch', R(1, 5, 1, 8)]],
  );
  assert.equal(bad.models[0].geometry!.width, 3);
  // diagram plus setup lines
  const both = readDab(`position\n${d}lines a1-a2\n`);
  assert.deepEqual(both.diagnostics, []);
  assert.equal(both.models[0].initial!.drawnCount, 7);
});

test('malformed diagrams: exact ranges, and the rest of the entry still parses', () => {
  const t = [
    'position', // 0
    'diagram', // 1
    '  +---+---+', // 2
    '  | A  |  |', // 3  '|' at col 7 off the dot columns 2,6,10
    '  +---+- -+', // 4  mixed gap
    '  X       |', // 5  X on a dot column
    '  +---+---+', // 6
    'tomove second', // 7
  ].join('\n');
  const doc = readDab(t);
  assert.deepEqual(
    doc.diagnostics.filter((d) => d.code === 'bad-diagram').map((d) => d.range),
    [R(3, 7, 3, 8), R(4, 7, 4, 10), R(5, 2, 5, 3)],
  );
  assert.equal(doc.entries[0].tomove!.player, 1);
  assert.equal(doc.entries[0].diagram!.width, 2);
  // A misaligned dot row ends the diagram; the leftover rows are reported.
  const t2 = 'position\ndiagram\n+--+--+\n|  |  |\n+--+-+\n|  |  |\n+--+--+\nsize 2x2\n';
  const d2 = parseDab(t2);
  assert.ok(
    d2.diagnostics.some((d) => d.code === 'bad-diagram' && d.range.line === 4),
    JSON.stringify(d2.diagnostics),
  );
  assert.equal(d2.entries[0].size!.width, 2);
  // Two dot rows in a row; a box row without a bottom dot row; a one-row diagram; diagram with no rows.
  assert.equal(parseDab('position\ndiagram\n+-+\n+-+\n').diagnostics[0].range.line, 3);
  assert.deepEqual(
    parseDab('position\ndiagram\n+-+\n| |\nsize 1x1\n').diagnostics.map((d) => [d.code, d.range]),
    [
      ['bad-diagram', R(2, 0, 2, 3)],
      ['bad-diagram', R(3, 0, 3, 3)],
    ],
  );
  assert.equal(parseDab('position\ndiagram\nsize 2x2\n').diagnostics[0].code, 'bad-diagram');
  assert.equal(parseDab('position\ndiagram\n+\n|\n+\n').diagnostics[0].code, 'bad-diagram');
  // Text right of the board needs a #.
  assert.deepEqual(
    parseDab('position\ndiagram\n+-+\n| | row 1\n+-+\n').diagnostics.map((d) => d.range),
    [R(3, 4, 3, 9)],
  );
  assert.deepEqual(parseDab('position\ndiagram\n+-+\n| | # row 1\n+-+\n').diagnostics, []);
});

test('a diagram larger than 12x12 is a clear error, not a board', () => {
  const row = '+' + '-+'.repeat(13);
  const t = `position\ndiagram\n${row}\n\n${row}\n`;
  const doc = readDab(t);
  assert.ok(doc.diagnostics.some((d) => d.code === 'bad-size'));
  assert.equal(doc.models[0].geometry, null);
});

test('writeDiagram is the reader inverse: lines and owners survive the round trip on random boards', async () => {
  const { writeDiagram } = await import('../../server/src/engine/notation');
  const { geometryOf } = await import('../../server/src/engine/board/geometry');
  const { BoardState } = await import('../../server/src/engine/board/state');
  const { mulberry32 } = await import('../support/random');
  const r = mulberry32(606);
  let checked = 0;
  for (let i = 0; i < 400; i++) {
    const w = 1 + Math.floor(r() * 5),
      h = 1 + Math.floor(r() * 5);
    if (w * h < 2) continue;
    const g = geometryOf(w, h);
    const s = new BoardState(g);
    const n = Math.floor(r() * (g.lineCount + 1));
    for (let k = 0; k < n; k++) {
      const undrawn = s.undrawnLines();
      s.play(undrawn[Math.floor(r() * undrawn.length)]);
    }
    // names whose initials cannot mark a box (shared, an emoji, a letter of two UTF-16 units) give labels
    const pairs: [string, string][] = [
      ['Alice', 'Bob'],
      ['Ann', 'Andy'],
      ['𝔄lice', '𝔅ob'],
      ['😀 Ann', '😎 Bob'],
      ['Émile', 'Zoë'],
    ];
    const players = pairs[i % 5 === 0 ? 1 : i % 7 === 0 ? 2 : i % 11 === 0 ? 3 : i % 3 === 0 ? 4 : 0];
    const rows = writeDiagram(s, players);
    const text = `position "p"\n  players "${players[0]}" "${players[1]}"\n  diagram\n${rows.map((x) => `    ${x}`).join('\n')}\n`;
    const doc = readDab(text);
    assert.deepEqual(
      doc.diagnostics.filter((d) => d.severity === 'error'),
      [],
      text,
    );
    const m = doc.models[0];
    assert.equal(m.geometry!.width, w, text);
    assert.equal(m.geometry!.height, h, text);
    assert.deepEqual([...m.initial!.drawn], [...s.drawn], text);
    const shared = players[0][0] === players[1][0] || !/^[\p{L}]$/u.test(players[0][0]);
    for (let b = 0; b < g.boxCount; b++) {
      const want = s.owner[b] === UNCLAIMED ? UNCLAIMED : shared ? CLAIMED_UNKNOWN : s.owner[b];
      assert.equal(m.initial!.owner[b], want, `${text}\nbox ${g.boxName(b)}`);
    }
    checked++;
  }
  assert.ok(checked > 350);
});

// Found by a fuzz audit: a dot row cut short inside a line gave a range past the end of its line.
test('diagram: a dot row cut short inside a line: every range stays on its line', () => {
  const text = 'position "p"\n  diagram\n    +---+---+\n    |   |   |\n    +---+-\n';
  const lines = text.split('\n');
  const doc = readDab(text);
  assert.ok(doc.diagnostics.some((d) => d.code === 'bad-diagram'));
  for (const d of doc.diagnostics) {
    assert.ok(d.range.endLine < lines.length, JSON.stringify(d));
    assert.ok(d.range.endCharacter <= lines[d.range.endLine].length, `${d.message}: ${JSON.stringify(d.range)}`);
  }
});

// Found by an audit: "text right of the board" began on the second half of an emoji's surrogate pair.
test('diagram: no diagnostic range starts or ends inside a surrogate pair', () => {
  const text = [
    'position "e"',
    '  players "😀" "B"',
    '  diagram',
    '    +---+---+',
    '    |😀 | B |',
    '    +---+---+',
    '    | 😀😀| 👍🏽 |',
    '    +---+---+',
    '',
  ].join('\n');
  const lines = text.split('\n');
  const doc = readDab(text);
  assert.ok(doc.diagnostics.some((d) => /right of the board/.test(d.message)));
  const low = (line: number, ch: number) => {
    const c = lines[line]?.charCodeAt(ch) ?? 0;
    return c >= 0xdc00 && c <= 0xdfff;
  };
  for (const d of doc.diagnostics) {
    assert.ok(!low(d.range.line, d.range.character), `starts inside a pair: ${JSON.stringify(d)}`);
    assert.ok(!low(d.range.endLine, d.range.endCharacter), `ends inside a pair: ${JSON.stringify(d)}`);
  }
});

// Found by an audit: a row pasted with em, thin or zero-width spaces read as no row, and the errors
// named everything but the cause. They are read as plain spaces and each row's first one is named.
test('diagram: odd spaces are named where they stand, and read as plain ones', () => {
  const plain = 'position\ndiagram\n  +---+   +\n  | A |\n  +---+---+\n';
  for (const odd of ['\u2003', '\u2009', '\u200b', '\u3000', '\u202f']) {
    // the gap of the top row, and one space of the box row
    const text = plain.replace('+   +', `+${odd}${odd}${odd}+`).replace('| A |', `| A${odd}|`);
    const doc = readDab(text);
    const errors = doc.diagnostics.filter((d) => d.severity === 'error');
    const code =
      odd.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0') +
      (odd === '\u200b'
        ? ' space here (it has no width, yet takes a column: what follows it stands a column further right)'
        : ' space here');
    assert.deepEqual(
      errors.map((d) => [d.code, d.message, d.range.line, d.range.character, d.range.endCharacter]),
      [
        ['bad-diagram', `a U+${code}: diagram rows take plain spaces`, 2, 7, 8],
        ['bad-diagram', `a U+${code}: diagram rows take plain spaces`, 3, 5, 6],
      ],
      JSON.stringify(text),
    );
    assert.deepEqual(undrawn(text), undrawn(plain));
  }
  // a line after the diagram that has one says so too, not "does not continue the diagram above"
  const after = readDab('position\ndiagram\n+---+\n|   |\n+---+\n\n+\u2003--+\n');
  assert.ok(after.diagnostics.some((d) => /U\+2003 space here/.test(d.message) && d.range.line === 6));
});

// Found by an audit: a box row whose first character is '#' is a comment line, read as a row with
// no line drawn, and the '|' written after the '#' were dropped without a word.
test('diagram: a box row commented out reads as empty, and a warning says its lines are not read', () => {
  const drawn = 'position\ndiagram\n  +---+---+\n  |   |   |\n  +---+---+\n';
  const commented = drawn.replace('  |   |   |', '  #   |   |');
  const doc = readDab(commented);
  assert.deepEqual(
    doc.diagnostics.map((d) => [d.severity, d.code, d.range.line, d.range.character, d.range.endCharacter]),
    [['warning', 'bad-diagram', 3, 2, 11]],
  );
  assert.match(doc.diagnostics[0].message, /comment .*'\|' after the '#' are not read/);
  // what is read is the empty row, as the notation says of comment lines
  assert.deepEqual(undrawn(commented), undrawn(drawn.replace('  |   |   |', '           ')));
  // a comment with no '|' on a dot column is only a comment: nothing to say
  const note = readDab(drawn.replace('  |   |   |', '  # a note'));
  assert.deepEqual(note.diagnostics, []);
});
