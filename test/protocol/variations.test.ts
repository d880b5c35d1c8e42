/**
 * Variations through the real language server: a variation's mistakes are diagnosed, its moves
 * hovered, its positions hinted, and variations are listed in the outline and folded.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { LspTestClient } from './lspClient';

let client: LspTestClient;
before(async () => {
  client = new LspTestClient({ inlayHints: { enabled: true, afterEachMove: true } });
  await client.initialize();
});
after(async () => {
  await client.shutdown();
});

const text = readFileSync('examples/variations.dab', 'utf8');
const lines = text.split('\n');
const lineOf = (s: string) => lines.findIndex((l) => l.includes(s));

test('a mistake inside a variation is diagnosed, hovered and hinted like one in the main line', async () => {
  const uri = client.open('variations.dab', text);
  const d = await client.waitForDiagnostics(
    uri,
    (p) => p.diagnostics.filter((x) => x.code === 'result-changing-mistake').length >= 2,
    60000,
  );
  const inVariation = lineOf('a2-b2? {gives the chain back}');
  const col = lines[inVariation].indexOf('a2-b2?');
  const m = d.diagnostics.find((x) => x.range.start.line === inVariation);
  assert.ok(m, JSON.stringify(d.diagnostics));
  assert.deepEqual(m.range, {
    start: { line: inVariation, character: col },
    end: { line: inVariation, character: col + 5 },
  });
  assert.match(m.message, /^a2-b2 gives away 6 boxes and turns Bob's 3-box win into a 3-box loss\. Best: c3-c4\.$/);
  // The best line written as a variation is not flagged anywhere.
  const bestLine = lineOf('c3-c4 b4-c4 c4-d4');
  assert.deepEqual(
    d.diagnostics.filter((x) => x.range.start.line === bestLine || x.range.start.line === bestLine - 1),
    [],
  );

  const h = await client.request('textDocument/hover', {
    textDocument: { uri },
    position: { line: inVariation, character: col + 1 },
  });
  assert.match(h.contents.value, /16\. Bob: a2-b2\?\*\* — gives away 6 boxes and changes the result/);
  assert.match(h.contents.value, /In a variation instead of move 15: Alice gives away 0 boxes, Bob 6 boxes\./);
  assert.match(h.contents.value, /Alice to move: Alice wins the rest by 3/);
  // the annotator's comment on the move, under the engine's verdict
  assert.match(h.contents.value, /\n\n\*Comment:\* gives the chain back\n/);

  const hints: any[] = await client.request('textDocument/inlayHint', {
    textDocument: { uri },
    range: { start: { line: 0, character: 0 }, end: { line: lines.length, character: 0 } },
  });
  // after the move and its glyph (`a2-b2?`)
  const hint = hints.find((x) => x.position.line === inVariation && x.position.character === col + 6);
  assert.ok(hint, JSON.stringify(hints));
  assert.equal(hint.label, 'loses 6');
  assert.match(hint.tooltip, /throws away/);
});

test('variations are listed in the outline under their entry, nested, and folded', async () => {
  const uri = client.open('variations-outline.dab', text);
  const symbols: any[] = await client.request('textDocument/documentSymbol', { textDocument: { uri } });
  assert.equal(symbols.length, 1);
  const children = symbols[0].children;
  assert.deepEqual(
    children.map((c: any) => c.name),
    ['(15. a3-a4! c3-c4 b4-c4 …)', '(15. a3-a4 a2-b2? )'.replace(' )', ')')],
  );
  assert.equal(children[0].range.start.line, lineOf('(15. a3-a4!'));
  assert.equal(children[1].children.length, 1);
  assert.equal(children[1].children[0].name, '(16. c3-c4!)');
  const folds: any[] = await client.request('textDocument/foldingRange', { textDocument: { uri } });
  const first = lineOf('(15. a3-a4!');
  assert.ok(
    folds.some((f) => f.startLine === first && f.endLine === first + 1),
    JSON.stringify(folds),
  );
});

test("an SGF comment C[…] over lines is its move's comment in the hover, escaped", async () => {
  const sgf =
    'game "sgf"\n  size 2x2\n  moves (;FF[4]C[a record\nwith notes]\n;B[haa]C[a *quiet*\n  start <b>];W[hab])\n';
  const uri = client.open('sgf.dab', sgf);
  const d = await client.waitForDiagnostics(uri, () => true, 60000);
  assert.deepEqual(
    d.diagnostics.map((x) => [x.code, x.severity]),
    [['bad-turn', 3]],
  );
  const h = await client.request('textDocument/hover', {
    textDocument: { uri },
    position: { line: 4, character: 5 },
  });
  assert.match(h.contents.value, /^\*\*1\. /);
  assert.match(h.contents.value, /\n\n\*Comment:\* a \\\*quiet\\\* start &lt;b&gt;\n/);
  const other = await client.request('textDocument/hover', {
    textDocument: { uri },
    position: { line: 5, character: 16 },
  });
  assert.doesNotMatch(other.contents.value, /Comment:/);
  // the board view carries the comment of the move that led to its position, as text
  const after1 = await client.request('dab/boardView', { uri, position: { line: 4, character: 5 }, ply: 1 });
  assert.equal(after1.lastMoveComment, 'a *quiet* start <b>');
  const after2 = await client.request('dab/boardView', { uri, position: { line: 4, character: 5 }, ply: 2 });
  assert.equal(after2.lastMoveComment, undefined);
});

test('the board view inside a variation carries the comment of its move', async () => {
  const uri = client.open('variations-board.dab', text);
  const row = lineOf('a2-b2? {gives the chain back}');
  const v = await client.request('dab/boardView', {
    uri,
    position: { line: row, character: lines[row].indexOf('a2-b2?') + 1 },
  });
  assert.ok(v.variation, 'the board shows the variation');
  assert.equal(v.lastMoveComment, 'gives the chain back');
});
