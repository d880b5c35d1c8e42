/**
 * Protocol tests: the real language server (dist/server.js) over a real stdio connection, asked
 * what an editor asks — diagnostics, hover, code lenses, inlay hints, symbols, folding, board view.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { LspTestClient } from './lspClient';

let client: LspTestClient;
before(async () => {
  client = new LspTestClient();
  const init = await client.initialize();
  assert.ok(init.capabilities.hoverProvider, 'server announces hover');
  assert.ok(init.capabilities.codeLensProvider, 'server announces code lenses');
});
after(async () => {
  await client.shutdown();
});

const allcock = readFileSync('examples/allcock.dab', 'utf8');

test('hover on an endgame entry gives the value in words, c(G), tb(G) and size', async () => {
  const uri = client.open('allcock.dab', allcock);
  await client.waitForDiagnostics(uri);
  const line = allcock.split('\n').findIndex((l) => l.includes('components 3 + 4l + 8l'));
  const h = await client.request('textDocument/hover', { textDocument: { uri }, position: { line, character: 4 } });
  const text: string = h.contents.value;
  assert.match(text, /B wins the rest by 1/);
  assert.match(text, /c\(G\) = 1/);
  assert.match(text, /tb\(G\) = 6/);
  assert.match(text, /size\(G\) = 15/);
  assert.match(text, /predicted final score 7-8/);
});

test('code lens above the endgame says what to open and who wins', async () => {
  const uri = client.open('allcock-lens.dab', allcock);
  const lenses: any[] = await client.request('textDocument/codeLens', { textDocument: { uri } });
  const titles = lenses.map((l) => l.command.title);
  assert.ok(titles.includes('Open the 4-loop — the controller wins by 1'), titles.join('\n'));
  assert.ok(
    titles.some((t) => /^Open a 3-chain — the controller wins by 1$/.test(t)),
    titles.join('\n'),
  );
  // a client without dab's board view gets the server's text view as the lenses' command
  for (const l of lenses) assert.equal(l.command.command, 'dab.showPosition');
  const shown: string = await client.request('workspace/executeCommand', {
    command: 'dab.showPosition',
    arguments: lenses[0].command.arguments,
  });
  assert.ok(shown.startsWith('Endgame ') && shown.endsWith(`: ${titles[0]}`), shown);
});

test('a wrong value claim and an illegal move get diagnostics with exact ranges', async () => {
  const text = [
    'endgame "wrong claim"',
    '  components 3 + 3',
    '  value -3',
    '',
    'game "illegal"',
    '  size 2x2',
    '  moves a1-b1 a1-b1 a1-c1',
  ].join('\n');
  const uri = client.open('bad.dab', text);
  const d = await client.waitForDiagnostics(uri, (p) => p.diagnostics.length >= 3);
  const wrong = d.diagnostics.find((x) => x.code === 'wrong-value');
  assert.ok(wrong, JSON.stringify(d.diagnostics));
  assert.deepEqual(wrong.range, { start: { line: 2, character: 8 }, end: { line: 2, character: 10 } });
  assert.match(wrong.message, /-2/);
  const twice = d.diagnostics.find((x) => x.code === 'drawn-twice');
  assert.ok(twice);
  assert.deepEqual(twice.range, { start: { line: 6, character: 14 }, end: { line: 6, character: 19 } });
  const adj = d.diagnostics.find((x) => x.code === 'not-adjacent');
  assert.ok(adj);
  assert.equal(adj.range.start.character, 20);
});

test('document symbols: one per entry; folding ranges per entry', async () => {
  const uri = client.open('symbols.dab', allcock);
  const symbols: any[] = await client.request('textDocument/documentSymbol', { textDocument: { uri } });
  assert.equal(symbols.length, 4);
  assert.match(symbols[0].name, /Allcock, section 1/);
  const folds: any[] = await client.request('textDocument/foldingRange', { textDocument: { uri } });
  assert.ok(folds.length >= 4);
});

test('inlay hints show value and controlled value at the end of each entry', async () => {
  const uri = client.open('hints.dab', allcock);
  const hints: any[] = await client.request('textDocument/inlayHint', {
    textDocument: { uri },
    range: { start: { line: 0, character: 0 }, end: { line: 100, character: 0 } },
  });
  const labels = hints.map((h) => h.label);
  assert.ok(labels.includes('value -1 · controlled -1'), labels.join(' | '));
  assert.ok(labels.includes('value -1 · controlled +3'), labels.join(' | '));
});

test('garbage and a huge board give diagnostics, and the server keeps answering', async () => {
  const text = 'position "huge"\n  size 500x500\n\n\u0000\u0007 garbage {{{ [[[ "\ngame\n  moves 1. 2. ;b[zzz]\n';
  const uri = client.open('garbage.dab', text);
  const d = await client.waitForDiagnostics(uri, (p) => p.diagnostics.length > 0);
  assert.ok(
    d.diagnostics.some((x) => x.code === 'bad-size'),
    JSON.stringify(d.diagnostics.map((x) => x.code)),
  );
  const h = await client.request('textDocument/hover', { textDocument: { uri }, position: { line: 0, character: 2 } });
  assert.ok(h === null || typeof h.contents.value === 'string');
  const symbols: any[] = await client.request('textDocument/documentSymbol', { textDocument: { uri } });
  assert.ok(symbols.length >= 1);
});

test('a game record is reviewed by the search worker: the mistake appears once the solves finish', async () => {
  const games = readFileSync('examples/games.dab', 'utf8');
  const uri = client.open('games.dab', games);
  const d = await client.waitForDiagnostics(
    uri,
    (p) => p.diagnostics.some((x) => x.code === 'result-changing-mistake'),
    60000,
  );
  const m = d.diagnostics.find((x) => x.code === 'result-changing-mistake');
  assert.match(m.message, /^a1-b1 gives away 8 boxes and turns Bob's 3-box win into a 5-box loss\. Best: a3-a4\.$/);
  assert.equal(m.severity, 2);
  const line = games.split('\n').findIndex((l) => l.includes('a1-b1??'));
  assert.equal(m.range.start.line, line);
  const h = await client.request('textDocument/hover', {
    textDocument: { uri },
    position: { line, character: m.range.start.character + 1 },
  });
  assert.match(h.contents.value, /gives away 8 boxes/);
  assert.match(h.contents.value, /Alice to move: Alice wins the rest by/);
  const view = await client.request('dab/boardView', {
    uri,
    position: { line, character: m.range.start.character + 1 },
  });
  assert.equal(view.width, 3);
  assert.equal(view.lastMove.name, 'a1-b1');
  assert.equal(view.graph.length, 25);
  assert.ok(view.graph[15].mistake);
});

test('editing while a search runs: the stale work is dropped and the new text is analysed', async () => {
  const base = 'game "typing"\n  size 4x4\n  moves a1-b1 c3-c4';
  const uri = client.open('typing.dab', base, 1);
  for (let v = 2; v < 12; v++) client.change(uri, base + ' d1-d2'.repeat(v % 2) + ' zz', v);
  const d = await client.waitForDiagnostics(
    uri,
    (p) => p.version === 11 && p.diagnostics.some((x) => x.code === 'bad-move'),
    15000,
  );
  assert.ok(d.diagnostics.length >= 1);
  const t0 = Date.now();
  const h = await client.request('textDocument/hover', { textDocument: { uri }, position: { line: 2, character: 9 } });
  assert.ok(h, 'hover answers while the worker searches');
  assert.ok(Date.now() - t0 < 2000);
});

test('code action inserts the best continuation after a mistake as a variation', async () => {
  const games = readFileSync('examples/games.dab', 'utf8');
  const uri = client.open('games-action.dab', games);
  const d = await client.waitForDiagnostics(
    uri,
    (p) => p.diagnostics.some((x) => x.code === 'result-changing-mistake'),
    60000,
  );
  const m = d.diagnostics.find((x) => x.code === 'result-changing-mistake');
  const actions: any[] = await client.request('textDocument/codeAction', {
    textDocument: { uri },
    range: m.range,
    context: { diagnostics: [m] },
  });
  assert.equal(actions.length, 1);
  const edit = actions[0].edit.changes[uri][0];
  assert.match(edit.newText, /^ \(a3-a4( [a-d][1-4]-[a-d][1-4])*\)$/);
  const line = games.split('\n')[m.range.start.line];
  const comment = '{hands Alice the whole lower left}';
  assert.equal(edit.range.start.character, line.indexOf(comment) + comment.length, 'after the glyph and the comment');
  // Applied, the text reads as a variation of that move, and the variation is itself reviewed.
  const lines = games.split('\n');
  lines[m.range.start.line] =
    line.slice(0, edit.range.start.character) + edit.newText + line.slice(edit.range.start.character);
  const fixed = client.open('games-fixed.dab', lines.join('\n'));
  const d2 = await client.waitForDiagnostics(
    fixed,
    (p) => p.diagnostics.some((x) => x.code === 'result-changing-mistake'),
    60000,
  );
  assert.ok(!d2.diagnostics.some((x) => x.severity === 1), JSON.stringify(d2.diagnostics));
  const inVariation = d2.diagnostics.filter(
    (x) => x.range.start.line === m.range.start.line && x.range.start.character > edit.range.start.character,
  );
  assert.deepEqual(inVariation, [], 'the inserted best line throws nothing away');
  // asked on the glyph (an editor asks at the cursor), the same fix (found by an audit with Neovim)
  const glyphAt = line.indexOf('??', m.range.end.character - 1);
  assert.ok(glyphAt >= m.range.end.character, 'the move has a ?? glyph');
  const onGlyph: any[] = await client.request('textDocument/codeAction', {
    textDocument: { uri },
    range: {
      start: { line: m.range.start.line, character: glyphAt + 1 },
      end: { line: m.range.start.line, character: glyphAt + 1 },
    },
    context: { diagnostics: [] },
  });
  assert.equal(onGlyph.length, 1);
  assert.equal(onGlyph[0].edit.changes[uri][0].newText, edit.newText);
  // once the best line is written there, the fix is not offered again (it wrote it a second time)
  const again: any[] = await client.request('textDocument/codeAction', {
    textDocument: { uri: fixed },
    range: m.range,
    context: { diagnostics: [] },
  });
  assert.deepEqual(again, [], 'no second copy of a variation already written');
});
