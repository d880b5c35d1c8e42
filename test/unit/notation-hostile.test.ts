// Hostile and odd inputs found by an independent audit of the reader against docs/notation.md:
// each once gave a wrong value, a crash (RangeError from push(...) of 100,000s of items), or a
// quadratic parse. The sizes here are ones that failed; times are not asserted (the bench and the
// audit measure them), what is read is.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseDab, readDab, readDbl } from '../../server/src/engine/notation';
import { analyzeText } from '../../server/src/engine/analysis/analyzeDocument';
import { MAX_DIAGNOSTICS, MAX_ENDGAME_PLAY_WORK } from '../../server/src/engine/limits';
import { mulberry32 } from '../support/random';

test('score: signs are refused, not dropped ("-3 0" is no score of 3 boxes)', () => {
  const read = (sc: string) => readDab(`game\n  size 2x2\n  score ${sc}\n`).models[0];
  for (const bad of ['-3 0', '3 -1', '3 0-', '+3 0', '3 - - 0']) {
    const m = read(bad);
    assert.equal(m.entry.score?.score ?? null, null, bad);
    assert.ok(
      m.entry.diagnostics.some((d) => d.code === 'bad-score'),
      bad,
    );
  }
  for (const good of ['3 0', '3-0', '3 - 0', '3:0', '3 – 0'])
    assert.deepEqual(read(good).entry.score?.score, [3, 0], good);
});

test('200,000 tags before a header and 200,000 moves of an entry with no size are read, not thrown on', () => {
  const tags = '[A "x"]\n'.repeat(200_000) + 'game\n  size 1x1\n';
  const doc = readDab(tags);
  assert.equal(doc.entries[0].tags.length, 200_000);
  const moves = 'game\n  moves ' + 'a1-b1 '.repeat(200_000) + '\n';
  const m = readDab(moves);
  assert.equal(m.models[0].moves.length, 200_000);
  assert.ok(m.diagnostics.some((d) => d.code === 'missing-size'));
});

test('runs of "(" and "(;" after a move are read in linear time, with their diagnostics', () => {
  const parens = parseDab('game\n  size 2x2\n  moves a1-b1 ' + '('.repeat(20_000) + '\n');
  assert.ok(parens.diagnostics.some((d) => d.code === 'bad-variation'));
  const sgf = parseDab('game\n  size 2x2\n  moves a1-b1 ' + '(;'.repeat(20_000) + '\n');
  assert.equal(sgf.entries[0].moves!.moves.length, 1);
});

test('an endgame with 100,000 play steps over 200,000 components: read at once, its play valued for the first steps only', () => {
  const text = `endgame\n  components 4l^100000 + 3^100000\n  play ${'3:all '.repeat(100_000)}\n`;
  const r = analyzeText(text);
  const e = r.entries[0];
  const analysed = MAX_ENDGAME_PLAY_WORK / 200_000;
  assert.equal(e.moves.length, 2 * analysed, 'each step: the opening, then the keep-or-all decision');
  const warn = r.diagnostics.filter((d) => d.code === 'play-not-analysed');
  assert.equal(warn.length, 1);
  assert.match(warn[0].message, /^99,980 steps|^99980 steps/);
  assert.equal(e.model.endgame!.remaining.length, 100_000, 'the model still follows every step');
  // a small endgame's play is valued whole
  const small = analyzeText('endgame\n  components 3 3 4l 6l\n  play 3:keep 3:all 4l 6l\n');
  assert.ok(small.entries[0].moves.length >= 4);
  assert.deepEqual(
    small.diagnostics.filter((d) => d.code === 'play-not-analysed'),
    [],
  );
});

test('the file keeps to its diagnostic caps, each time saying the rest are not shown', () => {
  const counted = (text: string) => {
    const doc = readDab(text);
    return {
      shown: doc.diagnostics.filter((d) => d.code !== 'too-many-diagnostics').length,
      notes: doc.diagnostics.filter((d) => d.code === 'too-many-diagnostics').length,
      doc,
    };
  };
  // end-of-entry checks (here field-not-allowed, 7,000 of them) count against the parser's cap
  const fields = counted('game\n  size 2x2\n' + '  components 3\n'.repeat(7000));
  assert.ok(fields.shown <= MAX_DIAGNOSTICS, `${fields.shown} shown`);
  assert.equal(fields.notes, 1);
  assert.equal(fields.doc.models[0].entry.diagnostics.length >= 7000, true, 'the entry keeps all of its own');
  // the models' problems (off-board moves, 100 per entry, 41 entries) are capped with a note too
  const moves = counted(
    Array.from({ length: 41 }, (_, i) => `game "e${i}"\n  size 1x1\n  moves ${'z1-z2 '.repeat(100)}\n`).join(''),
  );
  assert.equal(moves.shown, MAX_DIAGNOSTICS);
  assert.equal(moves.notes, 1);
});

test('a note without # right of a dot row is an error on the note alone; the diagram is read whole', () => {
  for (const [text, line] of [
    ['position\n  diagram\n    +---+  top\n    | A |\n    +---+\n', 2],
    ['position\n  diagram\n    +---+\n    | A |\n    +---+  bottom\n', 4],
  ] as const) {
    const doc = readDab(text);
    assert.deepEqual(
      doc.diagnostics.map((d) => [d.code, d.range.line, d.message]),
      [['bad-diagram', line, 'text right of the board: start a note with #']],
    );
    const m = doc.models[0];
    assert.deepEqual([m.geometry?.width, m.geometry?.height], [1, 1]);
    assert.equal(m.entry.diagram?.lines.length, 4);
  }
});

test('a header indented with a no-break space, or with a title of 10,000 characters, ends an open comment', () => {
  for (const header of ['\u00a0game "next"', `game "${'t'.repeat(10_000)}"`]) {
    const doc = readDab(`game\n  size 2x2\n  moves a1-b1 {unclosed\n${header}\n  size 3x3\n  }\n`);
    assert.equal(doc.entries.length, 2, 'the second entry is not swallowed');
    assert.ok(doc.diagnostics.some((d) => d.code === 'unterminated-comment'));
  }
});

test('tags before the first header are given to the first entry with a warning, an untitled entry too', () => {
  for (const text of ['[Event "x"]\nsize 2x2\n', '[Event "x"]\ngame\n  size 2x2\n']) {
    const doc = readDab(text);
    assert.deepEqual(
      doc.entries[0].tags.map((t) => t.name),
      ['Event'],
    );
    assert.deepEqual(
      doc.diagnostics.filter((d) => d.code === 'bad-tag').map((d) => d.range.line),
      [0],
      text,
    );
  }
});

test('a character beyond U+FFFF (an emoji) is never cut in half by a range or a quoted message (found by an audit)', () => {
  const diagram = readDab('position\n  diagram\n    +---+\n    🎲   |\n    +---+\n');
  const bad = diagram.diagnostics.find((d) => d.code === 'bad-diagram')!;
  assert.equal(bad.range.endCharacter - bad.range.character, 2, JSON.stringify(bad.range));
  assert.match(bad.message, /'🎲'/);
  const dbl = readDbl('2,2\n(0, 🎲0) - (1, 0)\n');
  assert.equal(dbl.diagnostics[0].range.endCharacter - dbl.diagnostics[0].range.character, 2);
  assert.match(dbl.diagnostics[0].message, /found '🎲'/);
  for (const d of [...diagram.diagnostics, ...dbl.diagnostics])
    assert.doesNotMatch(d.message, /[\ud800-\udbff](?![\udc00-\udfff])/);
  const long = readDab(`game\n  size 2x2\n  moves a1-b1${'🎲'.repeat(30)}\n`);
  for (const d of long.diagnostics) assert.doesNotMatch(d.message, /[\ud800-\udbff](?![\udc00-\udfff])/);
});

test('random SGF-like move lists (values over lines, escapes, turns, brackets) never throw; every range is in the text', () => {
  const r = mulberry32(38);
  const atoms = [
    'C[',
    ']',
    '\\',
    '\\]',
    ';b[',
    ';r[',
    ';B[',
    ';W[',
    'haa',
    'hab',
    'vba',
    '(',
    ')',
    '(;',
    '{',
    '}',
    '\n',
    '\n  ',
    ' ',
    'game\n',
    '  moves ',
    '  size 3x3\n',
    'FF[4]',
    'PB[',
    'a1-b1',
    '#',
    '"',
    '[',
    ';',
    '\r\n',
    '\u{1F600}',
  ];
  for (let k = 0; k < 3000; k++) {
    let s = 'game\n  size 3x3\n  moves ';
    const len = 1 + Math.floor(r() * 60);
    for (let i = 0; i < len; i++) s += atoms[Math.floor(r() * atoms.length)];
    const d = readDab(s);
    const lines = s.split(/\r\n|\r|\n/);
    for (const x of d.diagnostics) {
      const R = x.range;
      const inside =
        R.endLine < lines.length &&
        (R.line < R.endLine || (R.line === R.endLine && R.character <= R.endCharacter)) &&
        R.character <= lines[R.line].length &&
        R.endCharacter <= lines[R.endLine].length;
      assert.ok(inside, `${JSON.stringify(s)}: ${JSON.stringify(x)}`);
      assert.doesNotMatch(x.message, /undefined|NaN|\[object/);
    }
    for (const m of d.models) for (const p of m.plies) assert.ok(p.comment === null || !/[\r\n]/.test(p.comment));
  }
});

// Found by an audit: text pasted from a web page or a word processor brings em, thin, ideographic
// and zero-width spaces; outside diagrams they were parts of words, and the errors named the words
// ("'a1-b1<U+3000>b1-c1' is not a move"), not the cause. They separate words as spaces do; the zero-width
// one, which cannot be seen, is named in a warning.
test('Unicode spaces separate words in fields as plain spaces do; a zero-width one is named', () => {
  const plain = 'game "g"\n  size 2x2\n  players Alice Bob\n  moves a1-b1 b1-c1 c1-c2\n';
  const shown = (text: string) => {
    const doc = readDab(text);
    const m = doc.models[0];
    return {
      size: m.geometry && [m.geometry.width, m.geometry.height],
      players: m.players,
      moves: m.moves.map((x) => [x.name, x.ply]),
    };
  };
  for (const odd of ['\u2003', '\u2009', '\u3000', '\u202f', '\u2002', '\u1680', '\u205f']) {
    const text = plain
      .replace('size 2x2', `size${odd}2x2`)
      .replace('Alice Bob', `Alice${odd}Bob`)
      .replace('a1-b1 b1-c1', `a1-b1${odd}${odd}b1-c1`);
    const doc = readDab(text);
    assert.deepEqual(doc.diagnostics, [], JSON.stringify(odd));
    assert.deepEqual(shown(text), shown(plain), JSON.stringify(odd));
  }
  const endgame = (sep: string) => readDab(`endgame\n  components 3${sep}+${sep}4l\n`);
  assert.deepEqual(endgame('\u2003').diagnostics, []);
  assert.deepEqual(
    endgame('\u2003').models[0].endgame?.components.map((c) => [c.kind, c.size]),
    endgame(' ').models[0].endgame?.components.map((c) => [c.kind, c.size]),
  );
  // a zero-width space: read as a space, and said once a line, where it stands
  const zw = plain.replace('a1-b1 b1-c1 c1-c2', 'a1-b1\u200bb1-c1\u200bc1-c2');
  const doc = readDab(zw);
  assert.deepEqual(
    doc.diagnostics.map((d) => [d.severity, d.code, d.range.line, d.range.character, d.range.endCharacter]),
    [['warning', 'syntax', 3, 13, 14]],
  );
  assert.match(doc.diagnostics[0].message, /zero-width space \(U\+200B\)/);
  assert.deepEqual(shown(zw), shown(plain));
});
