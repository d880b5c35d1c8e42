/**
 * The server as the LSP specification and other editors' clients expect it: its life cycle
 * (nothing before initialize, nothing but exit after shutdown), plain-text hovers for clients that
 * accept no Markdown, malformed positions and params, documents of other languages, a client that
 * refuses progress, out-of-range settings and a file too large to analyse whole.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { LspTestClient } from './lspClient';
import { plausibleRecord } from '../support/boards';
import { lcg } from '../support/random';
import { residentMb } from '../support/process';
import { EDITOR_MAX_ENTRIES, EDITOR_MAX_POSITIONS } from '../../server/src/engine/limits';

const ENDGAME = 'endgame "e"\n  components 3 + 4l + 8l\n  value 2\n';

async function errorCode(p: Promise<unknown>): Promise<number | undefined> {
  try {
    await p;
    return undefined;
  } catch (e) {
    return (e as { code?: number }).code;
  }
}

test('life cycle: a request before initialize, a second initialize and a request after shutdown are errors', async () => {
  const client = new LspTestClient();
  try {
    const params = { textDocument: { uri: 'file:///tmp/x.dab' }, position: { line: 0, character: 0 } };
    assert.equal(await errorCode(client.request('textDocument/hover', params)), -32002);
    await client.initialize(true);
    assert.equal(
      await errorCode(client.request('initialize', { processId: null, rootUri: null, capabilities: {} })),
      -32600,
    );
    const uri = client.open('life.dab', ENDGAME);
    await client.waitForDiagnostics(uri, (p) => p.diagnostics.length > 0);
    const h = await client.request('textDocument/hover', {
      textDocument: { uri },
      position: { line: 1, character: 5 },
    });
    assert.match(h.contents.value, /B wins the rest by 1/);
    await client.request('shutdown', null);
    assert.equal(
      await errorCode(
        client.request('textDocument/hover', { textDocument: { uri }, position: { line: 1, character: 5 } }),
      ),
      -32600,
    );
    assert.equal(await client.exit(), 0);
  } finally {
    client.kill();
  }
});

test('a client that shows plain text only gets plain-text hovers, without Markdown marks', async () => {
  const client = new LspTestClient();
  try {
    await client.initializeWith({ textDocument: { hover: { contentFormat: ['plaintext'] } } });
    const uri = client.open('plain.dab', 'endgame "a <b>*x*</b> & [y]"\n  components 3 + 4l + 8l\n');
    await client.waitForDiagnostics(uri);
    const h = await client.request('textDocument/hover', {
      textDocument: { uri },
      position: { line: 1, character: 5 },
    });
    assert.equal(h.contents.kind, 'plaintext');
    const text: string = h.contents.value;
    assert.match(text, /a <b>\*x\*<\/b> & \[y\]/, text);
    assert.match(text, /A wins the rest by 1|B wins the rest by 1/, text);
    assert.doesNotMatch(text, /\*\*|\\|&lt;|&amp;|\|---/, text);
    // no table pipes nor rules either (found by an audit with Neovim): a row reads `4l · -1 · keep`
    assert.doesNotMatch(text, /^\||\|$|^---$/m, text);
    assert.match(text, /^open · v\(G;C\) · controller$/m, text);
    // a move's comment: its heading's italics are undone, the stars the annotator wrote are kept (found by an audit)
    const game = client.open('plain-comment.dab', 'game "g"\n  size 2x2\n  moves a1-b1 {a *starred* note}\n');
    await client.waitForDiagnostics(game);
    const hc = await client.request('textDocument/hover', {
      textDocument: { uri: game },
      position: { line: 2, character: 9 },
    });
    const ct: string = hc.contents.value;
    assert.match(ct, /^Comment: a \*starred\* note$/m, ct);
  } finally {
    await client.shutdown();
  }
});

test('malformed positions and params, and documents of other languages, get empty answers, not errors', async () => {
  const client = new LspTestClient();
  try {
    await client.initialize(true);
    const uri = client.open('bad-params.dab', ENDGAME);
    await client.waitForDiagnostics(uri, (p) => p.diagnostics.length > 0);
    for (const position of [
      { line: 1, character: -1 },
      { line: 99, character: 0 },
      { line: 2 ** 31, character: 0 },
      { line: 0.5, character: 0 },
      null,
    ]) {
      const h = await client.request('textDocument/hover', { textDocument: { uri }, position });
      assert.equal(h, null, JSON.stringify(position));
    }
    // a character past the end of its line is the line's end (the specification's rule)
    assert.ok(
      await client.request('textDocument/hover', { textDocument: { uri }, position: { line: 1, character: 999 } }),
    );
    assert.equal(await client.request('textDocument/hover', { textDocument: null, position: null }), null);

    assert.deepEqual(await client.request('textDocument/codeLens', { textDocument: null }), []);
    assert.deepEqual(await client.request('textDocument/documentSymbol', { textDocument: null }), []);
    assert.deepEqual(await client.request('textDocument/inlayHint', { textDocument: { uri: 42 }, range: null }), []);
    // a range is kept to the character: the hint at the end of the entry (line 2) is outside this one
    const end = { line: 2, character: 2 };
    const hints: any[] = await client.request('textDocument/inlayHint', {
      textDocument: { uri },
      range: { start: { line: 0, character: 0 }, end },
    });
    for (const h of hints)
      assert.ok(h.position.line < end.line || h.position.character <= end.character, JSON.stringify(h));
    const all: any[] = await client.request('textDocument/inlayHint', {
      textDocument: { uri },
      range: { start: { line: 0, character: 0 }, end: { line: 3, character: 0 } },
    });
    assert.ok(all.length > hints.length, JSON.stringify(all));
    assert.equal(await client.request('dab/boardView', { uri: null, position: null }), null);
    // an open document with no position, or one off its text: no view, no error logged (found by an audit)
    const logged = client.errorLogs.length;
    for (const position of [null, { line: 99, character: 0 }, { line: -1, character: 0 }, 'x'])
      assert.equal(await client.request('dab/boardView', { uri, position }), null, JSON.stringify(position));
    const played = await client.request('dab/playLine', { uri, position: null, line: 'a1-b1' });
    assert.ok(typeof played.error === 'string', JSON.stringify(played));
    const long = await client.request('dab/playLine', {
      uri,
      position: { line: 0, character: 0 },
      line: 'x'.repeat(1_000_000),
    });
    assert.ok(JSON.stringify(long).length < 400, 'a huge line name is not echoed whole');
    assert.equal(client.errorLogs.length, logged, 'nothing logged as an error');
    // a .dbl record and a Markdown file opened on the server are not read as .dab
    const other = pathToFileURL(resolve('/tmp/dab-protocol', 'game.dbl')).href;
    void client.connection.sendNotification('textDocument/didOpen', {
      textDocument: { uri: other, languageId: 'dbl', version: 1, text: 'this is not dab at all\n' },
    });
    const after = client.open('after.dab', ENDGAME);
    await client.waitForDiagnostics(after, (p) => p.diagnostics.length > 0);
    assert.equal(client.diagnostics.get(other), undefined);
    assert.equal(
      await client.request('textDocument/hover', { textDocument: { uri: other }, position: { line: 0, character: 0 } }),
      null,
    );
  } finally {
    await client.shutdown();
  }
});

test('a client that refuses progress is asked once', async () => {
  const client = new LspTestClient({ search: { timeBudgetMs: 500 } });
  let asked = 0;
  client.connection.onRequest('window/workDoneProgress/create', () => {
    asked++;
    throw new Error('no progress here');
  });
  try {
    await client.initialize();
    const uri = client.open('refuse.dab', plausibleRecord(5, 5, 30, lcg(3)));
    await client.waitForDiagnostics(uri);
    await new Promise((r) => setTimeout(r, 4000));
    assert.equal(asked, 1);
  } finally {
    await client.shutdown();
  }
});

// Found with Neovim's client: settings given at initialize were replaced by the defaults when the
// client, asked for its `dab` section, had none (null).
test('settings from initializationOptions stand, by themselves or when the client has no dab section to answer with', async () => {
  // keeping control of the first of four 3-chains gives away 2 boxes: a diagnostic at minLoss 1, none at 3
  const text = 'endgame\n  components 3 3 3 3\n  play 3:keep 3:all 3 3\n';
  const mistakes = (d: { diagnostics: { code?: unknown }[] }) =>
    d.diagnostics.filter((x) => String(x.code).includes('mistake')).length;
  for (const [bare, name] of [
    [true, 'a client that cannot be asked'],
    [false, 'a client whose dab section is null'],
  ] as const) {
    const client = new LspTestClient(null);
    try {
      await client.initialize(bare, { settings: { diagnostics: { minLoss: 3 } } });
      const uri = client.open(`init-${bare}.dab`, text);
      await client.waitForDiagnostics(uri);
      // the pulled (null) configuration lands after start-up: give it time, then read what stands
      await new Promise((r) => setTimeout(r, 1500));
      assert.equal(mistakes(client.diagnostics.get(uri)!), 0, `${name}: minLoss 3 from initializationOptions`);
    } finally {
      await client.shutdown();
    }
  }
  // and the control: with the default minLoss the mistake is shown
  const client = new LspTestClient(null);
  try {
    await client.initialize(true);
    const uri = client.open('init-default.dab', text);
    const d = await client.waitForDiagnostics(uri, (p) => mistakes(p) > 0);
    assert.equal(mistakes(d), 1);
  } finally {
    await client.shutdown();
  }
});

// Found by an audit with Neovim: a client's `settings` replaced its `init_options` (hints after each
// move, the store's path) instead of combining with them.
test('settings from workspace/configuration combine with the initialization options: each setting from where it is named', async () => {
  const text = 'endgame\n  components 3 3 3 3\n  play 3:keep 3:all 3 3\n';
  const mistakes = (d: { diagnostics: { code?: unknown }[] }) =>
    d.diagnostics.filter((x) => String(x.code).includes('mistake')).length;
  // the client's dab section names minLoss only; its init options name the hints after each move
  const client = new LspTestClient({ diagnostics: { minLoss: 3 } });
  try {
    await client.initialize(false, { settings: { inlayHints: { afterEachMove: true } } });
    const uri = client.open('combine.dab', text);
    await client.waitForDiagnostics(uri);
    await new Promise((r) => setTimeout(r, 1500)); // the pulled configuration lands after start-up
    assert.equal(mistakes(client.diagnostics.get(uri)!), 0, 'minLoss 3 from workspace/configuration');
    const hints: { label: unknown }[] = await client.request('textDocument/inlayHint', {
      textDocument: { uri },
      range: { start: { line: 0, character: 0 }, end: { line: 3, character: 0 } },
    });
    // one hint per play step (4 steps: opening and decision each) besides the entry's own
    assert.ok(hints.length > 2, `hints after each move, from the init options: ${JSON.stringify(hints)}`);
    // a pushed change names another setting: the rest stand
    void client.connection.sendNotification('workspace/didChangeConfiguration', {
      settings: { dab: { diagnostics: { minLoss: 1 } } },
    });
    const d = await client.waitForDiagnostics(uri, (p) => mistakes(p) > 0);
    assert.equal(mistakes(d), 1, 'minLoss 1 pushed');
    const after: unknown[] = await client.request('textDocument/inlayHint', {
      textDocument: { uri },
      range: { start: { line: 0, character: 0 }, end: { line: 3, character: 0 } },
    });
    assert.equal(after.length, hints.length, 'the hints after each move stay on');
  } finally {
    await client.shutdown();
  }
});

test('a setting of a billion search threads is capped: the server keeps answering', async () => {
  const client = new LspTestClient();
  try {
    await client.initialize(true);
    const uri = client.open('threads.dab', plausibleRecord(5, 5, 40, lcg(5)));
    await client.waitForDiagnostics(uri);
    void client.connection.sendNotification('workspace/didChangeConfiguration', {
      settings: { dab: { search: { threads: 1e9 } } },
    });
    for (let i = 0; i < 5; i++) {
      const t0 = performance.now();
      const h = await client.request('textDocument/hover', {
        textDocument: { uri },
        position: { line: 2, character: 10 },
      });
      assert.ok(h, 'a hover');
      assert.ok(performance.now() - t0 < 5000, `hover took ${performance.now() - t0} ms`);
      await new Promise((r) => setTimeout(r, 300));
    }
    const rss = residentMb(client.process.pid!);
    if (rss !== undefined) assert.ok(rss < 2000, `resident ${rss} MB`);
  } finally {
    await client.shutdown();
  }
});

test('a file with more board positions than the editor analyses: the rest is left out, with a warning', async () => {
  const client = new LspTestClient({ search: { timeBudgetMs: 100 } });
  try {
    await client.initialize();
    const record = plausibleRecord(5, 5, 60, lcg(7));
    const moves = (record.match(/\bmoves\b/g) ?? []).length;
    assert.equal(moves, 1);
    const perRecord = 61;
    const copies = Math.ceil(EDITOR_MAX_POSITIONS / perRecord) + 20;
    const text = Array.from({ length: copies }, (_, i) => record.replace(/"[^"]*"/, `"g${i}"`)).join('\n');
    const t0 = performance.now();
    const uri = client.open('huge.dab', text);
    const d = await client.waitForDiagnostics(
      uri,
      (p) => p.diagnostics.some((x) => x.code === 'not-analysed-here'),
      60_000,
    );
    const ms = performance.now() - t0;
    const warn = d.diagnostics.filter((x) => x.code === 'not-analysed-here');
    assert.equal(warn.length, 1);
    assert.match(warn[0].message, /and the \d+ entries after it are not analysed in the editor/);
    assert.ok(ms < 20_000, `first diagnostics after ${ms} ms`);
    // the first record is analysed, the last is not and says why
    const first = await client.request('textDocument/hover', {
      textDocument: { uri },
      position: { line: 0, character: 2 },
    });
    assert.doesNotMatch(first.contents.value, /not analysed/);
    const lastHeader = text.split('\n').indexOf(`game "g${copies - 1}"`);
    assert.ok(lastHeader > 0);
    const last = await client.request('textDocument/hover', {
      textDocument: { uri },
      position: { line: lastHeader, character: 2 },
    });
    assert.match(last.contents.value, /not analysed in the editor/i);
  } finally {
    await client.shutdown();
  }
});

test('in an editor without the board view, the lenses show the position as a text diagram', async () => {
  const client = new LspTestClient();
  try {
    const init = await client.initialize(true);
    assert.deepEqual(init.capabilities.executeCommandProvider.commands, ['dab.showPosition']);
    const text = 'position "p"\n  size 2x2\n  players "Alice" "Bob"\n  moves a1-b1 a1-a2 b1-b2 a2-b2\n';
    const uri = client.open('lens-diagram.dab', text);
    await client.waitForDiagnostics(uri);
    const lenses: any[] = await client.request('textDocument/codeLens', { textDocument: { uri } });
    assert.ok(lenses.length >= 1);
    for (const l of lenses) assert.equal(l.command.command, 'dab.showPosition');
    // at the end of the moves: the box a1 is Bob's (a2-b2 completed it)
    const shown: string = await client.request('workspace/executeCommand', {
      command: 'dab.showPosition',
      arguments: [uri, { line: 3, character: 40 }],
    });
    const rows = shown.split('\n').slice(2);
    assert.match(shown.split('\n')[0], /^Position "p", after move 4: /);
    // the score and the mover, which the diagram cannot show (found by an audit)
    assert.equal(shown.split('\n')[1], '  Alice 0 – 1 Bob · Bob to move');
    assert.deepEqual(rows, ['  +   +   +', '', '  +---+   +', '  | B |', '  +---+   +']);
    assert.equal(await client.request('workspace/executeCommand', { command: 'dab.nothing', arguments: [uri] }), null);
    // a stale lens (a line the text no longer has) or a closed document: said, not silent (found by an audit)
    for (const args of [[uri, { line: 999, character: 0 }], ['file:///nowhere.dab', { line: 0, character: 0 }], []]) {
      const before = client.shownMessages.length;
      assert.equal(
        await client.request('workspace/executeCommand', { command: 'dab.showPosition', arguments: args }),
        null,
      );
      await new Promise((r) => setTimeout(r, 50));
      assert.match(client.shownMessages[before]?.message ?? '', /no position to show there/, JSON.stringify(args));
    }
  } finally {
    await client.shutdown();
  }
});

test('params: null itself gets an empty answer, not an internal error (the library wrappers read it first)', async () => {
  // a raw JSON-RPC writer: the jsonrpc client library cannot send `"params": null`
  const server = spawn(process.execPath, [resolve('dist/server.js'), '--stdio'], { stdio: ['pipe', 'pipe', 'ignore'] });
  const replies = new Map<number, { result?: unknown; error?: { code: number } }>();
  let buf = Buffer.alloc(0);
  server.stdout!.on('data', (d: Buffer) => {
    buf = Buffer.concat([buf, d]);
    for (;;) {
      const head = buf.indexOf('\r\n\r\n');
      if (head < 0) return;
      const len = Number(/Content-Length: (\d+)/i.exec(buf.subarray(0, head).toString())![1]);
      if (buf.length < head + 4 + len) return;
      const msg = JSON.parse(buf.subarray(head + 4, head + 4 + len).toString());
      buf = buf.subarray(head + 4 + len);
      if (typeof msg.id === 'number' && !('method' in msg)) replies.set(msg.id, msg);
    }
  });
  const send = (m: object) => {
    const body = JSON.stringify({ jsonrpc: '2.0', ...m });
    server.stdin!.write(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
  };
  const reply = async (id: number) => {
    for (let i = 0; i < 200 && !replies.has(id); i++) await new Promise((r) => setTimeout(r, 25));
    return replies.get(id);
  };
  try {
    send({ id: 1, method: 'initialize', params: { processId: null, rootUri: null, capabilities: {} } });
    assert.ok((await reply(1))?.result, 'initialized');
    send({ method: 'initialized', params: {} });
    const methods: [string, unknown][] = [
      ['textDocument/hover', null],
      ['textDocument/codeLens', []],
      ['textDocument/inlayHint', []],
      ['textDocument/documentSymbol', []],
      ['textDocument/foldingRange', []],
      ['textDocument/codeAction', []],
      ['workspace/executeCommand', null],
    ];
    for (const [i, [method, empty]] of methods.entries()) {
      send({ id: 10 + i, method, params: null });
      const r = await reply(10 + i);
      assert.deepEqual(r && { result: r.result, error: r.error }, { result: empty, error: undefined }, method);
    }
  } finally {
    server.kill('SIGKILL');
  }
});

// Found by an audit with its own client: after answering shutdown the server still published
// diagnostics, sent dab/analysisChanged (to a client without dab's board) and asked for lens and
// hint refreshes; a refused shutdown let exit end with 0; a second shutdown was answered null.
test('after shutdown nothing but the end of a progress comes; exit codes and errors follow the life cycle', async () => {
  const client = new LspTestClient({ search: { timeBudgetMs: 500 } });
  const after: string[] = [];
  let shutDown = false;
  const seen = (what: string) => {
    if (shutDown) after.push(what);
  };
  const customs: string[] = [];
  client.connection.onNotification((method: string) => {
    if (method.startsWith('dab/')) customs.push(method);
    seen(method);
  });
  client.connection.onRequest('workspace/codeLens/refresh', () => (seen('codeLens/refresh'), null));
  client.connection.onRequest('workspace/inlayHint/refresh', () => (seen('inlayHint/refresh'), null));
  client.connection.onRequest('workspace/configuration', () => (seen('configuration'), [{}]));
  const progress = new Map<string, number[]>();
  client.connection.onRequest('window/workDoneProgress/create', () => null);
  client.connection.onUnhandledProgress((p: any) => {
    const v = p?.value;
    if (v?.kind === 'end' || typeof v?.percentage !== 'number') return;
    const list = progress.get(String(p.token)) ?? [];
    list.push(v.percentage);
    progress.set(String(p.token), list);
    seen('$/progress');
  });
  try {
    assert.equal(await errorCode(client.request('dab/noSuchRequest', {})), -32002);
    await client.initialize();
    assert.equal(await errorCode(client.request('dab/noSuchRequest', {})), -32601);
    const uris = [1, 2, 3].map((k) => client.open(`after${k}.dab`, plausibleRecord(5, 5, 34 + k, lcg(20 + k))));
    for (const uri of uris) await client.waitForDiagnostics(uri);
    // while the searches run and land
    await new Promise((r) => setTimeout(r, 1500));
    await client.request('shutdown', null);
    shutDown = true;
    const publishedBefore = client.published.length;
    // a client that (wrongly) goes on talking
    client.open('late.dab', ENDGAME);
    void client.connection.sendNotification('workspace/didChangeConfiguration', { settings: { dab: {} } });
    await new Promise((r) => setTimeout(r, 2500));
    assert.deepEqual(after, [], `sent after shutdown: ${after.join(', ')}`);
    assert.equal(client.published.length, publishedBefore, 'diagnostics published after shutdown');
    assert.ok(progress.size > 0, 'no progress was reported before shutdown: the test saw nothing');
    assert.deepEqual(customs, [], 'dab/analysisChanged goes only to a client that runs dab’s board');
    for (const [token, list] of progress)
      for (let i = 1; i < list.length; i++) assert.ok(list[i] >= list[i - 1], `progress ${token} fell: ${list}`);
    assert.equal(await errorCode(client.request('shutdown', null)), -32600);
    assert.equal(await errorCode(client.request('dab/noSuchRequest', {})), -32600);
    assert.equal(await client.exit(), 0);
  } finally {
    client.kill();
  }
  // a shutdown refused (before initialize) does not make exit a clean one
  const early = new LspTestClient();
  try {
    assert.equal(await errorCode(early.request('shutdown', null)), -32002);
    assert.equal(await early.exit(), 1);
  } finally {
    early.kill();
  }
});

// Found by an audit: a change with a rangeLength but no range was skipped, one with range null threw;
// either way the server's text drifted from the client's for good.
test('a change without a range object is the whole new text; a client preferring plain text gets it', async () => {
  const client = new LspTestClient();
  try {
    await client.initializeWith({ textDocument: { hover: { contentFormat: ['plaintext', 'markdown'] } } });
    const uri = client.open('whole.dab', 'endgame "one"\n  components 3 + 4l + 8l\n');
    await client.waitForDiagnostics(uri);
    const titles = async () =>
      ((await client.request('textDocument/documentSymbol', { textDocument: { uri } })) as any[]).map((s) => s.name);
    assert.deepEqual(await titles(), ['endgame "one"']);
    for (const [version, change] of [
      [2, { rangeLength: 3, text: 'endgame "two"\n  components 3 + 3\n' }],
      [3, { range: null, text: 'endgame "three"\n  components 4l\n' }],
    ] as const) {
      void client.connection.sendNotification('textDocument/didChange', {
        textDocument: { uri, version },
        contentChanges: [change],
      });
      await client.waitForDiagnostics(uri, (d) => d.version === version);
      assert.deepEqual(await titles(), [change.text.split('\n')[0]]);
    }
    // a change without text says nothing: the text stays
    void client.connection.sendNotification('textDocument/didChange', {
      textDocument: { uri, version: 4 },
      contentChanges: [null, { range: null }],
    });
    await client.waitForDiagnostics(uri, (d) => d.version === 4);
    assert.deepEqual(await titles(), ['endgame "three"']);
    assert.deepEqual(client.errorLogs, []);
    const h = await client.request('textDocument/hover', {
      textDocument: { uri },
      position: { line: 1, character: 5 },
    });
    assert.equal(h.contents.kind, 'plaintext');
  } finally {
    await client.shutdown();
  }
});

// Found by an audit: past the entries the editor reads at all, a hover described the last entry read.
test('past the entries the editor reads, a hover names no other entry', async () => {
  const client = new LspTestClient({ search: { timeBudgetMs: 100 } });
  try {
    await client.initialize();
    const count = EDITOR_MAX_ENTRIES + 10;
    const text = Array.from({ length: count }, (_, i) => `endgame "e${i}"\n  components 3\n`).join('');
    const uri = client.open('many.dab', text);
    await client.waitForDiagnostics(uri, (p) => p.diagnostics.some((x) => x.code === 'not-analysed-here'), 60_000);
    const hoverAt = (line: number) =>
      client.request('textDocument/hover', { textDocument: { uri }, position: { line, character: 3 } });
    const read = await hoverAt(2 * (EDITOR_MAX_ENTRIES - 1));
    assert.match(read.contents.value, new RegExp(`e${EDITOR_MAX_ENTRIES - 1}\\b`));
    for (const k of [EDITOR_MAX_ENTRIES, count - 1]) {
      const h = await hoverAt(2 * k);
      assert.ok(h === null || !/\be\d+\b/.test(h.contents.value), `entry ${k}: ${JSON.stringify(h)}`);
    }
  } finally {
    await client.shutdown();
  }
});

// Found by an audit: a client without hierarchical symbols got DocumentSymbols, and kinds past
// File..Array (Event, Object, Struct) when it named no kinds.
test('document symbols come in the shape and kinds the client declared', async () => {
  const text = readFileSync('examples/variations.dab', 'utf8');
  const symbolsFor = async (documentSymbol: unknown) => {
    const client = new LspTestClient();
    try {
      await client.initializeWith({ textDocument: { documentSymbol } });
      const uri = client.open('symbols.dab', text);
      await client.waitForDiagnostics(uri);
      return {
        uri,
        symbols: (await client.request('textDocument/documentSymbol', { textDocument: { uri } })) as any[],
      };
    } finally {
      await client.shutdown();
    }
  };
  const flat = await symbolsFor({});
  assert.ok(flat.symbols.length >= 3, JSON.stringify(flat.symbols));
  for (const s of flat.symbols) {
    assert.equal(s.children, undefined);
    assert.equal(s.location.uri, flat.uri);
    assert.ok(s.kind >= 1 && s.kind <= 18, `kind ${s.kind}`);
  }
  const entry = flat.symbols[0];
  assert.ok(flat.symbols.slice(1).every((s) => s.containerName !== undefined));
  assert.ok(flat.symbols.slice(1).some((s) => s.containerName === entry.name));
  const tree = await symbolsFor({
    hierarchicalDocumentSymbolSupport: true,
    symbolKind: { valueSet: Array.from({ length: 26 }, (_, i) => i + 1) },
  });
  assert.equal(tree.symbols.length, 1);
  assert.equal(tree.symbols[0].kind, 24, 'a game is an Event for a client that knows the kind');
  assert.equal(tree.symbols[0].name, entry.name);
  assert.equal(tree.symbols[0].children.length, 2);
});

test('quick fixes come in the form the client declared: literals, commands the server carries out, or none', async () => {
  const text = 'game\n  size 2x2\n  moves a1-b1 b1-c1 a1-a2 a2-b2 {oops}\n';
  const at = { line: 2, character: 26 };
  const fixesFor = async (capabilities: unknown, only?: string[]) => {
    const client = new LspTestClient();
    const applied: any[] = [];
    client.connection.onRequest('workspace/applyEdit', (p: any) => {
      applied.push(p);
      return { applied: true };
    });
    try {
      const init = await client.initializeWith(capabilities);
      const uri = client.open('fixes.dab', text);
      await client.waitForDiagnostics(uri, (p) => p.diagnostics.some((d) => /mistake/.test(String(d.code))));
      const actions: any[] = await client.request('textDocument/codeAction', {
        textDocument: { uri },
        range: { start: at, end: at },
        context: { diagnostics: [], ...(only ? { only } : {}) },
      });
      let ran: unknown = undefined;
      if (actions[0]?.command && typeof actions[0].command === 'string') {
        ran = await client.request('workspace/executeCommand', {
          command: actions[0].command,
          arguments: actions[0].arguments,
        });
        await new Promise((r) => setTimeout(r, 200));
      }
      return { init, uri, actions, applied, ran };
    } finally {
      await client.shutdown();
    }
  };
  const literal = await fixesFor({
    workspace: { applyEdit: true },
    textDocument: { codeAction: { codeActionLiteralSupport: { codeActionKind: { valueSet: ['quickfix'] } } } },
  });
  assert.equal(literal.actions.length, 1);
  assert.equal(literal.actions[0].kind, 'quickfix');
  const edit = literal.actions[0].edit.changes[literal.uri][0];
  assert.match(edit.newText, /^ \([a-c][1-3]-[a-c][1-3][^)]*\)$/);
  assert.deepEqual(literal.init.capabilities.executeCommandProvider.commands, ['dab.showPosition']);
  // LSP: a client without codeActionLiteralSupport takes Command objects only
  const commands = await fixesFor({ workspace: { applyEdit: true } });
  assert.deepEqual(commands.init.capabilities.executeCommandProvider.commands, [
    'dab.showPosition',
    'dab.insertBetterLine',
  ]);
  assert.equal(commands.actions.length, 1);
  assert.equal(commands.actions[0].edit, undefined);
  assert.equal(commands.actions[0].command, 'dab.insertBetterLine');
  assert.equal(commands.actions[0].title, literal.actions[0].title);
  assert.equal(commands.ran, null);
  assert.equal(commands.applied.length, 1, 'the command sends its edit with workspace/applyEdit');
  assert.deepEqual(commands.applied[0].edit.changes[commands.uri], [edit]);
  // neither literals nor applyEdit: nothing it could use
  const none = await fixesFor({});
  assert.deepEqual(none.actions, []);
  assert.equal(none.init.capabilities.codeActionProvider, undefined, 'no quick fix is announced');
  assert.deepEqual(literal.init.capabilities.codeActionProvider, { codeActionKinds: ['quickfix'] });
  assert.deepEqual(none.init.capabilities.executeCommandProvider.commands, ['dab.showPosition']);
  // a client asking for other kinds only gets none of these
  const source = await fixesFor(
    {
      textDocument: { codeAction: { codeActionLiteralSupport: { codeActionKind: { valueSet: ['quickfix'] } } } },
    },
    ['source.organizeImports'],
  );
  assert.deepEqual(source.actions, []);
});
