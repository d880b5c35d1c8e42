import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseDab, readDab, buildEntry } from '../../server/src/engine/notation';

const SPEC_EXAMPLES = `endgame "Allcock, example 1.2"
  components 3 3 3 3 3 4l 8l      # value: the controller wins by 1
  play 3:keep 3:all 4l:all 3:keep 3:keep 8l:all 3   # one optimal line

endgame "Allcock, figure 1"
  players "Author" "C"
  score 3 0
  components 12 + 10l
  play 10l:keep 12

endgame "Buzzard & Ciere, figure 5"
  components 3 3 4 6l
  play 3:all 3:keep 6l:all 4
`;

const SPEC_DIAGRAM = `position
diagram
  +---+---+
  | A |
  +---+   +
  |       |
  +---+---+
`;

test('spec endgame examples parse verbatim without diagnostics', () => {
  const doc = readDab(SPEC_EXAMPLES);
  assert.deepEqual(doc.diagnostics, []);
  assert.equal(doc.entries.length, 3);
  const [a, b, c] = doc.entries;
  assert.equal(a.kind, 'endgame');
  assert.equal(a.title, 'Allcock, example 1.2');
  assert.deepEqual(
    a.components!.components.map((x) => `${x.size}${x.kind === 'loop' ? 'l' : ''}`),
    ['3', '3', '3', '3', '3', '4l', '8l'],
  );
  assert.deepEqual(
    a.play!.steps.map((s) => [s.name, s.decision]),
    [
      ['3', 'keep'],
      ['3', 'all'],
      ['4l', 'all'],
      ['3', 'keep'],
      ['3', 'keep'],
      ['8l', 'all'],
      ['3', null],
    ],
  );
  assert.deepEqual(a.titleRange, { line: 0, character: 8, endLine: 0, endCharacter: 30 });
  assert.deepEqual(b.players!.names, ['Author', 'C']);
  assert.deepEqual(b.score!.score, [3, 0]);
  assert.deepEqual(
    b.components!.components.map((x) => [x.kind, x.size]),
    [
      ['chain', 12],
      ['loop', 10],
    ],
  );
  assert.deepEqual(
    c.components!.components.map((x) => x.size),
    [3, 3, 4, 6],
  );
  // Models: the lines of play are complete and consistent.
  const ma = doc.models[0].endgame!;
  assert.equal(ma.totalBoxes, 3 * 5 + 4 + 8);
  assert.equal(ma.remaining.length, 0);
  assert.ok(ma.steps.every((s) => s.legal));
  const mb = doc.models[1].endgame!;
  // 10l:keep: controller (second) takes 6, opener gets 4; then opener opens 12, controller takes all.
  assert.deepEqual(
    mb.steps.map((s) => s.scoreAfter),
    [
      [7, 6],
      [7, 18],
    ],
  );
});

test('spec diagram example: 2x2 with three lines undrawn, owner A', () => {
  const doc = readDab(SPEC_DIAGRAM);
  assert.deepEqual(doc.diagnostics, []);
  const e = doc.entries[0];
  assert.equal(e.diagram!.width, 2);
  assert.equal(e.diagram!.height, 2);
  const m = doc.models[0];
  const g = m.geometry!;
  assert.equal(m.initial!.drawnCount, g.lineCount - 3);
  const undrawn = m
    .initial!.undrawnLines()
    .map((l) => g.lineName(l))
    .sort();
  assert.deepEqual(undrawn, ['b1-b2', 'b2-c2', 'c2-c3']);
  assert.equal(m.initial!.owner[g.box(0, 1)], 0);
  assert.deepEqual(m.score, [1, 0]);
});

test('the examples in docs/notation.md parse as documented', async () => {
  const { readFileSync } = await import('node:fs');
  const md = readFileSync(new URL('../../docs/notation.md', import.meta.url), 'utf8');
  const section = md.slice(md.indexOf('## 11. Examples'), md.indexOf('## 12.'));
  const code = section.slice(section.indexOf('```\n') + 4, section.lastIndexOf('```'));
  const doc = readDab(code);
  assert.deepEqual(
    doc.diagnostics.map((d) => [d.code, d.range.line]),
    [['drawn-twice', 5]],
  );
  assert.deepEqual(
    doc.entries.map((e) => e.kind),
    ['game', 'game', 'position', 'endgame', 'game'],
  );
  // and the values they claim are the proven ones (dab check would flag them otherwise)
  const { analyzeText } = await import('../../server/src/engine/analysis/analyzeDocument');
  const { createSearchCache } = await import('../../server/src/cli/search');
  const checked = analyzeText(code, { search: createSearchCache({ timeBudgetMs: 5000 }).lookup });
  assert.deepEqual(
    checked.diagnostics.filter((d) => d.code === 'wrong-value' || d.code === 'value-unverified').map((d) => d.message),
    [],
  );
  assert.equal(checked.entries[2].positions[0].value, 4);
  assert.equal(checked.entries[3].positions[0].value, -1);
  const v = doc.models[4].moves[1].variations[0];
  assert.deepEqual(
    v.plies.map((m) => [m.name, m.ply]),
    [
      ['a3-b3', 2],
      ['b3-c3', 3],
    ],
  );
  assert.deepEqual(
    v.moves[1].variations[0].plies.map((m) => m.name),
    ['a1-a2'],
  );
  assert.deepEqual(
    doc.entries[0].tags.map((t) => t.name),
    ['Event', 'Date'],
  );
  assert.deepEqual(doc.models[1].states[doc.models[1].states.length - 1].score, [0, 2]);
  assert.deepEqual(doc.models[2].score, [1, 1]);
  assert.equal(doc.models[2].toMove, 1);
  assert.equal(doc.models[3].endgame!.components.length, 114);
  void parseDab;
  void buildEntry;
});
