/** The `dab/importDbl` request through the real language server (what the extension's convert command asks). */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { LspTestClient } from './lspClient';

let client: LspTestClient;
before(async () => {
  client = new LspTestClient();
  await client.initialize();
});
after(async () => {
  await client.shutdown();
});

test('a .dbl file converts to a .dab entry; a bad one gives positioned problems and no text', async () => {
  const ok = await client.request('dab/importDbl', { text: '2,1\n(0,0)-(1,0)\n(0,1)-(1,1)\n', title: 'club "final"' });
  assert.deepEqual(ok.problems, []);
  assert.equal(ok.kind, 'game');
  assert.equal(ok.text, 'game "club \\"final\\""\n  size 2x1\n  moves a2-b2 a1-b1\n');
  const bad = await client.request('dab/importDbl', { text: '2,1\n(0,0)-(1,0)\n(0,0) - (9,0)\n', title: 'bad' });
  assert.equal(bad.text, undefined);
  assert.deepEqual(
    bad.problems.map((p: any) => [p.severity, p.code, p.range.start]),
    [['error', 'off-board', { line: 2, character: 8 }]],
  );
  // Hostile parameters are answered, not crashed on.
  const odd = await client.request('dab/importDbl', { text: 42, title: null });
  assert.ok(Array.isArray(odd.problems));
});
