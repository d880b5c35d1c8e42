import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readDab, parseDab, MAX_COMPONENTS, MAX_FILE_COMPONENTS, type Range } from '../../server/src/engine/notation';

const R = (line: number, character: number, endLine: number, endCharacter: number): Range => ({
  line,
  character,
  endLine,
  endCharacter,
});
const names = (cs: { kind: string; size: number }[]): string =>
  cs.map((c) => `${c.size}${c.kind === 'loop' ? 'l' : ''}`).join(' ');

test('components: chains, loops in every spelling, separators, repeats with ^ and *', () => {
  const p = parseDab('endgame\ncomponents 3 + 4l,8L 6ℓ 2^3 6l*2+1\n');
  assert.deepEqual(p.diagnostics, []);
  const c = p.entries[0].components!;
  assert.equal(names(c.components), '3 4l 8l 6l 2 2 2 6l 6l 1');
  assert.deepEqual(
    c.tokens.map((t) => [t.text, t.kind, t.size, t.repeat, t.range]),
    [
      ['3', 'chain', 3, 1, R(1, 11, 1, 12)],
      ['4l', 'loop', 4, 1, R(1, 15, 1, 17)],
      ['8L', 'loop', 8, 1, R(1, 18, 1, 20)],
      ['6ℓ', 'loop', 6, 1, R(1, 21, 1, 23)],
      ['2^3', 'chain', 2, 3, R(1, 24, 1, 27)],
      ['6l*2', 'loop', 6, 2, R(1, 28, 1, 32)],
      ['1', 'chain', 1, 1, R(1, 33, 1, 34)],
    ],
  );
  assert.deepEqual(
    c.components.map((x) => x.token),
    [0, 1, 2, 3, 4, 4, 4, 5, 5, 6],
  );
});

test('Allcock example 4.3 with parentheses: (8l^2 + 18) + 6l^9 + 3 + 4l^101', () => {
  const doc = readDab('endgame "Allcock 4.3"\n  components (8l^2 + 18) + 6l^9 + 3 + 4l^101\n  value 1\n');
  assert.deepEqual(doc.diagnostics, []);
  const eg = doc.models[0].endgame!;
  assert.equal(eg.components.length, 2 + 1 + 9 + 1 + 101);
  assert.equal(eg.totalBoxes, 16 + 18 + 54 + 3 + 404);
  assert.deepEqual(doc.models[0].claimedValue, { value: 1, range: R(2, 8, 2, 9) });
  // Group repeats
  const g = parseDab('endgame\ncomponents (3 + 4l)^2 ((5)^2)*2\n');
  assert.deepEqual(g.diagnostics, []);
  assert.equal(names(g.entries[0].components!.components), '3 4l 3 4l 5 5 5 5');
  assert.deepEqual(
    g.entries[0].components!.tokens.map((t) => t.repeat),
    [2, 2, 4],
  );
});

test('component errors: short loops, empty chains, odd loops (information), garbage, unbalanced groups, too many', () => {
  const doc = readDab('endgame\ncomponents 3l 0 5l 7L x3 (3 ) ) 4l\n');
  assert.deepEqual(
    doc.diagnostics.map((d) => [d.severity, d.code, d.range]),
    [
      ['error', 'bad-component', R(1, 11, 1, 13)],
      ['error', 'bad-component', R(1, 14, 1, 15)],
      ['information', 'odd-loop', R(1, 16, 1, 18)],
      ['information', 'odd-loop', R(1, 19, 1, 21)],
      ['error', 'bad-component', R(1, 22, 1, 24)],
      ['error', 'bad-component', R(1, 30, 1, 31)],
    ],
  );
  assert.equal(names(doc.models[0].endgame!.components), '5l 7l 3 4l');
  const many = readDab(`endgame\ncomponents 3^${MAX_COMPONENTS + 1}\n`);
  assert.deepEqual(readDab(`endgame\ncomponents 3^${MAX_COMPONENTS}\n`).diagnostics, []);
  assert.deepEqual(
    many.diagnostics.map((d) => d.code),
    ['bad-component'],
  );
  // The whole file is bounded too: entries past MAX_FILE_COMPONENTS are refused, each at its own
  // components, and the ones before are read whole.
  const per = MAX_COMPONENTS / 2;
  const n = MAX_FILE_COMPONENTS / per + 3;
  const big = readDab(
    Array.from({ length: n }, (_, i) => `endgame "e${i}"\ncomponents 3^${per / 2} + 4l^${per / 2}\n`).join(''),
  );
  assert.equal(big.models.length, n);
  big.models.forEach((m, i) => {
    const refused = i >= MAX_FILE_COMPONENTS / per;
    assert.equal(m.endgame!.components.length, refused ? 0 : per, `entry ${i}`);
    assert.deepEqual(
      m.entry.diagnostics.map((d) => [d.code, d.range.line]),
      refused ? [['bad-component', 2 * i + 1]] : [],
      `entry ${i}`,
    );
  });
  assert.match(big.diagnostics[0].message, /in this file/);
  assert.equal(readDab('endgame\ncomponents (3\n').diagnostics[0].range.character, 11);
  assert.deepEqual(
    readDab('endgame "no components"\n').diagnostics.map((d) => d.code),
    ['bad-component'],
  );
});

test('play: steps with ranges, decisions, implied decisions, score bookkeeping', () => {
  const doc = readDab(
    'endgame\nplayers "Ann" "Bob"\nscore 1 2\ncomponents 3 3 4l 1 2\nplay 3:keep 4l:all 1 3 keep {ok} 2\n',
  );
  assert.deepEqual(doc.diagnostics, []);
  const e = doc.entries[0];
  assert.deepEqual(
    e.play!.steps.map((s) => [s.text, s.name, s.decision, s.range]),
    [
      ['3:keep', '3', 'keep', R(4, 5, 4, 11)],
      ['4l:all', '4l', 'all', R(4, 12, 4, 18)],
      ['1', '1', null, R(4, 19, 4, 20)],
      ['3:keep', '3', 'keep', R(4, 21, 4, 27)],
      ['2', '2', null, R(4, 33, 4, 34)],
    ],
  );
  assert.deepEqual(e.play!.steps[0].decisionRange, R(4, 7, 4, 11));
  assert.equal(e.play!.steps[3].comment, 'ok');
  const eg = doc.models[0].endgame!;
  // Ann opens 3, Bob keeps: Bob 1, Ann 2. Ann opens 4l, Bob takes all and becomes the opener.
  // Bob opens 1, Ann takes it and opens 3; Bob keeps (1, Ann 2); Ann opens 2, Bob takes it.
  assert.deepEqual(
    eg.steps.map((s) => [s.opener, s.decision, s.decisionImplied, s.gained, s.scoreAfter]),
    [
      [0, 'keep', false, [2, 1], [3, 3]],
      [0, 'all', false, [0, 4], [3, 7]],
      [1, 'all', true, [1, 0], [4, 7]],
      [0, 'keep', false, [2, 1], [6, 8]],
      [0, 'all', true, [0, 2], [6, 10]],
    ],
  );
  assert.equal(eg.remaining.length, 0);
  assert.equal(6 + 10, 1 + 2 + eg.totalBoxes);
  // tomove second: Bob opens first.
  const t = readDab('endgame\ntomove second\ncomponents 3 3\nplay 3:all 3\n').models[0].endgame!;
  assert.deepEqual(
    t.steps.map((s) => [s.opener, s.scoreAfter]),
    [
      [1, [3, 0]],
      [0, [3, 3]],
    ],
  );
});

test('play errors: missing decision, unknown component, too many steps, 1-chain kept, bad suffix', () => {
  const a = readDab('endgame\ncomponents 3 3\nplay 3 3\n');
  assert.deepEqual(
    a.diagnostics.map((d) => [d.code, d.range]),
    [['play-missing-decision', R(2, 5, 2, 6)]],
  );
  assert.equal(a.models[0].endgame!.steps[1].scoreAfter, null);
  const b = readDab('endgame\ncomponents 3 4l\nplay 5:all\n');
  assert.deepEqual(
    b.diagnostics.map((d) => [d.code, d.range]),
    [['bad-play', R(2, 5, 2, 6)]],
  );
  assert.match(b.diagnostics[0].message, /left: 3 4l/);
  const c = readDab('endgame\ncomponents 3\nplay 3 3\n');
  assert.deepEqual(
    c.diagnostics.map((d) => [d.code, d.range]),
    [['bad-play', R(2, 7, 2, 8)]],
  );
  const d = readDab('endgame\ncomponents 1 3\nplay 1:keep\n');
  assert.deepEqual(
    d.diagnostics.map((x) => [x.code, x.range]),
    [['bad-play', R(2, 7, 2, 11)]],
  );
  const e = parseDab('endgame\ncomponents 3 3\nplay 3:kept 3: x all\n');
  assert.deepEqual(
    e.diagnostics.map((x) => [x.code, x.range]),
    [
      ['bad-play', R(2, 7, 2, 11)],
      ['bad-play', R(2, 13, 2, 14)],
      ['bad-play', R(2, 15, 2, 16)],
      ['bad-play', R(2, 17, 2, 20)],
    ],
  );
});

test('a decision after "3: " is read without an error, as "3 keep" is; play without components is not followed', () => {
  const a = readDab('endgame\ncomponents 3 4l\nplay 3: keep 4l\n');
  assert.deepEqual(a.diagnostics, []);
  const st = a.models[0].endgame!.steps[0];
  assert.equal(st.decision, 'keep');
  assert.deepEqual(st.step.decisionRange, R(2, 8, 2, 12));
  assert.equal(st.step.text, '3:keep');
  const b = readDab('endgame\nplay 3\n');
  assert.deepEqual(
    b.diagnostics.map((d) => [d.code, d.range]),
    [['bad-component', R(0, 0, 0, 7)]],
  );
  const c = readDab('endgame\ncomponents 0\nplay 3\n');
  assert.deepEqual(
    c.diagnostics.map((d) => d.code),
    ['bad-component'],
  );
});

test("stray '+' between components is a warning at the '+'; numbers of too many digits are out of range", () => {
  const a = readDab('endgame\ncomponents 3 ++ 4 +\nendgame\ncomponents + (3 +) + 4\n');
  assert.deepEqual(
    a.diagnostics.map((d) => [d.code, d.severity, d.range]),
    [
      ['bad-component', 'warning', R(1, 14, 1, 15)],
      ['bad-component', 'warning', R(1, 18, 1, 19)],
      ['bad-component', 'warning', R(3, 11, 3, 12)],
      ['bad-component', 'warning', R(3, 16, 3, 17)],
    ],
  );
  assert.match(a.diagnostics[0].message, /two '\+' in a row/);
  assert.match(a.diagnostics[1].message, /no component after it/);
  assert.match(a.diagnostics[2].message, /no component before it/);
  assert.equal(names(a.models[0].endgame!.components), '3 4');
  const b = readDab('endgame\ncomponents 99999999999 + 3^9999999999\nvalue 999999999999\n');
  assert.deepEqual(
    b.diagnostics.map((d) => [d.code, d.range]),
    [
      ['bad-component', R(1, 11, 1, 22)],
      ['bad-component', R(1, 25, 1, 37)],
      ['bad-value', R(2, 6, 2, 18)],
    ],
  );
  for (const d of b.diagnostics) assert.match(d.message, /out of range/);
});

// Found by an audit: 34 nested parentheses gave two "too deeply" errors and two false "unmatched ')'".
test('components: parentheses nested too deeply are said once, and their own closing ones are not "unmatched"', () => {
  const deep = (open: number, close: number) =>
    readDab(`endgame\n  components ${'('.repeat(open)}3${')'.repeat(close)}\n`).diagnostics.map((d) => d.message);
  assert.deepEqual(deep(34, 34), ['parentheses nested too deeply (at most 32)']);
  assert.deepEqual(deep(32, 32), []);
  // several groups too deep in one field: said once (found by a review: once a group)
  const siblings = readDab(`endgame\n  components ${'('.repeat(32)}(4) (5) (6)${')'.repeat(32)}\n`).diagnostics;
  assert.deepEqual(
    siblings.map((d) => d.message),
    ['parentheses nested too deeply (at most 32)'],
  );
  assert.deepEqual(deep(34, 35), ['parentheses nested too deeply (at most 32)', "unmatched ')'"]);
  // 40 '(' open 32 groups (8 too deep); 38 ')' close the 8, then 30 groups: 2 stay open
  assert.deepEqual(deep(40, 38), [
    "unmatched '(': add ')'",
    "unmatched '(': add ')'",
    'parentheses nested too deeply (at most 32)',
  ]);
});
