/**
 * The server under a minimal client (no configuration, refresh or progress support, as older
 * Neovim and Emacs clients) and under hostile documents: it keeps answering, diagnostics arrive
 * with positions, and it never crashes.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { LspTestClient } from './lspClient';
import { lcg } from '../support/random';

let client: LspTestClient;
before(async () => {
  client = new LspTestClient();
  await client.initialize(true);
});
after(async () => {
  await client.shutdown();
});

test('a bare client gets pushed diagnostics, hover and lenses', async () => {
  const uri = client.open('bare.dab', 'endgame "e"\n  components 3 + 4l + 8l\n  value 2\n');
  const d = await client.waitForDiagnostics(uri, (p) => p.diagnostics.length > 0);
  assert.equal(d.diagnostics[0].code, 'wrong-value');
  const h = await client.request('textDocument/hover', { textDocument: { uri }, position: { line: 1, character: 5 } });
  assert.match(h.contents.value, /B wins the rest by 1/);
  const lenses: any[] = await client.request('textDocument/codeLens', { textDocument: { uri } });
  assert.ok(lenses.length >= 1);
});

// Found by an audit: an inlay hint request whose range is null logged a TypeError. Such a request
// gets the hints of the whole document, and nothing is logged as an error.
test("an inlay hint request without a valid range gets the whole document's hints", async () => {
  const uri = client.open('hints.dab', 'game "g"\n  size 2x2\n  moves a1-b1 a2-b2 b1-c1\n');
  await client.waitForDiagnostics(uri, () => true);
  const whole: any[] = await client.request('textDocument/inlayHint', {
    textDocument: { uri },
    range: { start: { line: 0, character: 0 }, end: { line: 3, character: 0 } },
  });
  assert.ok(whole.length > 0);
  const errors = client.errorLogs.length;
  for (const range of [null, {}, { start: { line: 0 } }, 'x'])
    assert.deepEqual(await client.request('textDocument/inlayHint', { textDocument: { uri }, range }), whole);
  assert.equal(client.errorLogs.length, errors, client.errorLogs.slice(errors).join('\n'));
});

// Found by an audit: a didOpen whose text is no string logged a TypeError's stack, and the
// document stayed dead. It is read as empty, said once as a warning; a later full change revives it.
test('a didOpen without a text string is read as empty, with a warning, not an error', async () => {
  const errors = client.errorLogs.length;
  const uri = client.open('no-text.dab', 5 as unknown as string);
  const d = await client.waitForDiagnostics(uri, () => true);
  assert.deepEqual(d.diagnostics, []);
  assert.equal(client.errorLogs.length, errors, client.errorLogs.slice(errors).join('\n'));
  client.change(uri, 'endgame "e"\n  components 3 + 4l + 8l\n  value 2\n', 2);
  const after = await client.waitForDiagnostics(uri, (p) => p.diagnostics.length > 0);
  assert.equal(after.diagnostics[0].code, 'wrong-value');
});

// Found by an audit: the text library kept its line table wrong when an incremental edit joined a
// lone '\r' and a '\n' into one line end, and every later position (and the board's edits) was off.
test('incremental edits that join a lone CR and a LF: the server reads the text as a fresh open does', async () => {
  const uri = client.open('cr-merge.dab', 'game\n  size 2x2\n  moves a1-b1\rX\n  b1-c1 a1-b1\n');
  await client.waitForDiagnostics(uri, (d) => d.version === 1);
  const edit = (version: number, range: object, text: string) =>
    client.connection.sendNotification('textDocument/didChange', {
      textDocument: { uri, version },
      contentChanges: [{ range, text }],
    });
  void edit(2, { start: { line: 3, character: 0 }, end: { line: 3, character: 1 } }, '');
  void edit(3, { start: { line: 3, character: 13 }, end: { line: 3, character: 13 } }, ' b2-c2');
  const changed = await client.waitForDiagnostics(uri, (d) => d.version === 3);
  const fresh = client.open('cr-merge-fresh.dab', 'game\n  size 2x2\n  moves a1-b1\r\n  b1-c1 a1-b1 b2-c2\n');
  const expected = await client.waitForDiagnostics(fresh, (d) => d.version === 1);
  assert.deepEqual(
    changed.diagnostics.map((d) => [d.code, d.range]),
    expected.diagnostics.map((d) => [d.code, d.range]),
  );
  assert.ok(expected.diagnostics.some((d) => d.range.start.line === 3 && d.range.start.character === 8));
  const h = await client.request('textDocument/hover', { textDocument: { uri }, position: { line: 3, character: 16 } });
  assert.match(JSON.stringify(h), /b2-c2/);
});

/** The text a click on b1-c1 writes into a position without moves (a new moves field). */
async function newMovesField(name: string, text: string): Promise<string> {
  const uri = client.open(name, text);
  await client.waitForDiagnostics(uri, (d) => d.version === 1);
  const r = await client.request('dab/playLine', {
    uri,
    version: 1,
    position: { line: 1, character: 2 },
    line: 'b1-c1',
  });
  return r.edit.newText;
}

test("the board's new line is written with the document's own line end (CRLF here)", async () => {
  // found by an audit: a position without moves got "\n  moves …" in a CRLF file
  assert.equal(await newMovesField('crlf.dab', 'position "p"\r\n  size 2x2\r\n  lines a1-b1\r\n'), '\r\n  moves b1-c1');
});

test("the board's new moves field is indented as the entry's fields are (tabs as tabs)", async () => {
  for (const [lead, name] of [
    ['\t', 'tab.dab'],
    ['\t  ', 'mixed.dab'],
    ['    ', 'four.dab'],
  ] as const) {
    const text = `position "p"\n${lead}size 2x2\n${lead}lines a1-b1\n`;
    assert.equal(await newMovesField(name, text), `\n${lead}moves b1-c1`, JSON.stringify(lead));
  }
});

// Found by an audit in a real VS Code: a U+202E in a name reversed the words of the review lens, and
// a 500-character name was shown whole, where the board view cuts names at 80 and isolates them.
test('names from the file in lenses, hovers and diagnostics: bidi overrides isolated, long names cut', async () => {
  const long = 'N'.repeat(500);
  const text = `endgame "${'T'.repeat(300)}"\n  players "Bob\u202eevil\u202c" "${long}"\n  components 3 3 3 3\n  play 3:keep 3:all 3 3\n`;
  const uri = client.open('names.dab', text);
  const d = await client.waitForDiagnostics(uri, (p) => p.diagnostics.some((x: any) => /mistake/.test(x.code)));
  const lenses: any[] = await client.request('textDocument/codeLens', { textDocument: { uri } });
  const hovers = await Promise.all(
    [2, 3].map((line) =>
      client.request('textDocument/hover', { textDocument: { uri }, position: { line, character: 10 } }),
    ),
  );
  const symbols: any[] = await client.request('textDocument/documentSymbol', { textDocument: { uri } });
  const shown = [
    ...d.diagnostics.map((x: any) => x.message),
    ...lenses.map((l) => l.command?.title ?? ''),
    ...hovers.map((h: any) => h?.contents?.value ?? ''),
    ...symbols.map((x) => `${x.name} ${x.detail ?? ''}`),
  ];
  assert.ok(
    shown.some((t) => /Bob/.test(t)),
    JSON.stringify(shown).slice(0, 500),
  );
  for (const t of shown) {
    // an override is never left to act on the words around it: the name sits in an isolate without it
    assert.doesNotMatch(t, /\u202e/, t);
    if (/Bob/.test(t)) assert.match(t, /\u2068Bobevil\u2069/, t);
    assert.doesNotMatch(t, /N{81}/, 'a 500-character name is cut');
    assert.doesNotMatch(t, /T{81}/, 'a 300-character title is cut');
  }
});

test('a 50,000-line file: diagnostics arrive, the server stays responsive', async () => {
  const parts: string[] = [];
  for (let i = 0; parts.length < 50_000; i++) {
    parts.push(
      `game "g${i}"`,
      '  size 3x3',
      '  moves a1-b1 b1-c1 q9-z9 a1-a2 {c',
      `garbage ${i} [[[ "`,
      `endgame`,
      `  components 3 4l 8l^2`,
      '  play 3:keep',
      'position',
      '  size 500x500',
    );
  }
  const text = parts.slice(0, 50_000).join('\n');
  const t0 = Date.now();
  const uri = client.open('huge.dab', text);
  const d = await client.waitForDiagnostics(uri, (p) => p.diagnostics.length > 100, 60_000);
  const ms = Date.now() - t0;
  console.log(`50,000 lines: ${d.diagnostics.length} diagnostics after ${ms} ms`);
  for (const x of d.diagnostics.slice(0, 200)) {
    assert.ok(x.range.start.line >= 0 && x.range.end.line < 50_000, JSON.stringify(x.range));
    assert.ok(typeof x.message === 'string' && x.message.length > 0);
  }
  assert.ok(d.diagnostics.some((x) => x.code === 'bad-size'));
  const h = await client.request('textDocument/hover', { textDocument: { uri }, position: { line: 6, character: 4 } });
  assert.ok(h === null || typeof h.contents.value === 'string');
  const symbols: any[] = await client.request('textDocument/documentSymbol', { textDocument: { uri } });
  assert.ok(symbols.length > 10_000);
});

test('random bytes, control characters and unmatched brackets never crash the server', async () => {
  const rand = lcg(99);
  const alphabet = 'gamepositiondncomvsl+-|.*oO#{}[]"();:^0123456789 \n\t\r\u0000\u202e\ud83d\ude00';
  for (let k = 0; k < 30; k++) {
    let text = k % 3 === 0 ? 'game\n  size 3x3\n  moves ' : k % 3 === 1 ? 'position\n  diagram\n' : '';
    const n = 200 + Math.floor(rand() * 2000);
    for (let i = 0; i < n; i++) text += alphabet[Math.floor(rand() * alphabet.length)];
    const uri = client.open(`fuzz${k}.dab`, text);
    await client.waitForDiagnostics(uri);
    const r = await client.request('textDocument/hover', {
      textDocument: { uri },
      position: { line: 1, character: 1 },
    });
    assert.ok(r === null || typeof r.contents.value === 'string');
  }
  assert.equal(client.process.exitCode, null, 'the server is still running');
});

// Found by an audit: the server read a 21 MB document (2.7 GB of memory, 4 s of waiting per edit);
// the command line refuses files over 8 MB.
test('a document over 8 MB is not read: one error says so, and the server keeps answering', async () => {
  const huge = `game "g"\n  size 12x12\n  moves ${'a1-b1 '.repeat(1_400_000)}\n`;
  assert.ok(huge.length > 8_000_000);
  const uri = client.open('over-8mb.dab', huge);
  const d = await client.waitForDiagnostics(uri, (p) => p.diagnostics.length > 0, 60_000);
  assert.deepEqual(
    d.diagnostics.map((x: any) => [x.code, x.range.start.line]),
    [['too-large', 0]],
  );
  assert.match(d.diagnostics[0].message, /dab reads files up to 8,000,000 bytes \(8 MB\); split the file/);
  const h = await client.request('textDocument/hover', { textDocument: { uri }, position: { line: 2, character: 10 } });
  assert.equal(h, null);
  client.close(uri);
  // counted in UTF-8 bytes, as the command line counts (found by a review: 2.7 million CJK
  // characters, 8.1 MB, were read)
  const wide = `game "g"\n  size 2x2\n  # ${'あ'.repeat(2_700_000)}\n  moves a1-b1\n`;
  assert.ok(wide.length < 8_000_000 && Buffer.byteLength(wide) > 8_000_000);
  const wideUri = client.open('over-8mb-wide.dab', wide);
  const w = await client.waitForDiagnostics(wideUri, (p) => p.diagnostics.length > 0, 60_000);
  assert.deepEqual(
    w.diagnostics.map((x: any) => x.code),
    ['too-large'],
  );
  client.close(wideUri);
});

// Found by an audit: after a header it could not read, the server went silent for good (it could
// not find where the next message starts). It says so on stderr and exits, so a client can restart it;
// a message whose body is not JSON, with a right length, is still answered.
test('a message header the server cannot read makes it exit with a message; a bad body does not', async () => {
  const { spawn } = await import('node:child_process');
  const { resolve } = await import('node:path');
  const serve = (input: string) =>
    new Promise<{ code: number | null; stderr: string; stdout: string }>((done) => {
      const p = spawn(process.execPath, [resolve('dist/server.js'), '--stdio'], {
        env: { ...process.env, DAB_STORE: 'off' },
      });
      let stderr = '',
        stdout = '';
      p.stderr.on('data', (b) => (stderr += b));
      p.stdout.on('data', (b) => (stdout += b));
      const timer = setTimeout(() => p.kill(), 10_000);
      p.on('exit', (code) => {
        clearTimeout(timer);
        done({ code, stderr, stdout });
      });
      p.stdin.write(input);
      // a bad header leaves stdin open: the server must end by itself
      if (!/^Content-Length: (abc|9{11})/.test(input)) setTimeout(() => p.stdin.end(), 1000);
    });
  // ...and headers the library would wait on for good: ended by bare line feeds, or never ended
  for (const header of [
    'Content-Length: abc\r\n\r\n{}',
    'Content-Type: x\r\n\r\n{}',
    'Content-Length: 2\n\n{}',
    'Content-Length: 2\r\n\n{}',
    'x'.repeat(70_000),
    // a body longer than any message: every byte after it would be kept as that body, nothing answered
    // (found by an audit: the server went silent and grew without bound)
    'Content-Length: 99999999999\r\n\r\n{}',
  ]) {
    const r = await serve(header);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /a message from the client has a header that cannot be read/);
  }
  // a body that is not JSON: answered with a parse error, and the server goes on until its input ends
  // a header after a whole message (its body held CR LF CR LF and line feeds) is still found
  const ping = '{"jsonrpc":"2.0","id":1,"method":"x","params":{"s":"\\n\\n\\r\\n"}}\r\n\n\n';
  const two = await serve(`Content-Length: ${ping.length}\r\n\r\n${ping}Content-Length: ${ping.length}\r\n\r\n${ping}`);
  assert.doesNotMatch(two.stderr, /header that cannot be read/);
  const body = '{"jsonrpc":"2.0",';
  const r = await serve(`Content-Length: ${body.length}\r\n\r\n${body}`);
  assert.equal(r.code, 1, 'input ended without a shutdown request');
  assert.doesNotMatch(r.stderr, /header that cannot be read/);
  // JSON-RPC 2.0 (found by an audit: nothing came back): a ParseError, id null
  assert.match(r.stdout, /"id":null,"error":\{"code":-32700/, r.stdout);
  // a message that is no request, notification or response: InvalidRequest, with its id when it has one
  const framed = (m: string) => `Content-Length: ${Buffer.byteLength(m)}\r\n\r\n${m}`;
  const invalid = await serve(
    framed('{"jsonrpc":"2.0","id":null,"method":"x"}') +
      framed('{"jsonrpc":"2.0","id":5,"method":7}') +
      framed('{"jsonrpc":"2.0","id":{"a":1},"method":"x"}'),
  );
  const answers = invalid.stdout
    .split(/Content-Length: \d+\r\n\r\n/)
    .filter((x) => x !== '')
    .map((x) => JSON.parse(x));
  assert.deepEqual(
    answers.map((a) => [a.id, a.error?.code]),
    [
      [null, -32600],
      [5, -32600],
      [null, -32600],
    ],
    invalid.stdout,
  );
});
