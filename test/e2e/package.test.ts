// The .vsix holds the bundles and assets only (the .vscodeignore allow-list), and the bundles need
// nothing from node_modules at run time (the proof store's SQLite is bundled; its WebAssembly binary
// is copied beside the bundles and packaged). Fast: `vsce ls` only lists, it does not build.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));

test('package: the .vsix file list is the allow-list (bundles, media, grammar, manifest, docs)', () => {
  const r = spawnSync(
    process.execPath,
    [join(ROOT, 'node_modules', '@vscode', 'vsce', 'vsce'), 'ls', '--no-dependencies'],
    { cwd: ROOT, encoding: 'utf8' },
  );
  assert.equal(r.status, 0, r.stderr);
  const files = r.stdout
    .split('\n')
    .map((s) => s.trim())
    .filter(Boolean)
    .sort();
  const allowed =
    /^(dist\/(client|server|worker|solverThread|markdown|webview\/board)\.js|dist\/node-sqlite3-wasm\.wasm|media\/[\w.-]+\.(css|svg|png)|syntaxes\/dab\.tmLanguage\.json|language-configuration\.json|package\.json|README\.md|CHANGELOG\.md|LICENSE)$/;
  const extra = files.filter((f) => !allowed.test(f));
  assert.deepEqual(extra, [], `unexpected files in the package: ${extra.join(', ')}`);
  for (const must of [
    'dist/client.js',
    'dist/server.js',
    'dist/solverThread.js',
    'dist/webview/board.js',
    'dist/node-sqlite3-wasm.wasm',
    'media/board.css',
    'syntaxes/dab.tmLanguage.json',
    'language-configuration.json',
    'package.json',
    'LICENSE',
  ]) {
    assert.ok(files.includes(must), `${must} is packaged`);
  }
  assert.ok(!files.some((f) => f.startsWith('node_modules/') || f.endsWith('.map') || f.endsWith('.ts')));
});

test('package: the bundles require only Node built-ins (and vscode for the client)', () => {
  const builtins = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);
  for (const f of ['client', 'server', 'worker', 'solverThread', 'markdown']) {
    const file = join(ROOT, 'dist', `${f}.js`);
    if (f === 'worker' && !existsSync(file)) continue;
    assert.ok(existsSync(file), `dist/${f}.js is built (npm run build)`);
    const text = readFileSync(file, 'utf8');
    const reqs = [...new Set([...text.matchAll(/\brequire\((["'])([^"']+)\1\)/g)].map((m) => m[2]))];
    const bad = reqs.filter((m) => !builtins.has(m) && !(f === 'client' && m === 'vscode'));
    assert.deepEqual(bad, [], `dist/${f}.js requires ${bad.join(', ')} at run time`);
  }
});

test('package: manifest wiring of the client side', () => {
  assert.equal(pkg.main, './dist/client.js');
  assert.ok(pkg.activationEvents.includes('onLanguage:dab'), 'activates on .dab files (code-server does not infer it)');
  assert.ok(pkg.activationEvents.includes('onWebviewPanel:dab.board'), 'activates to restore a board panel');
  const cmds = Object.fromEntries(
    pkg.contributes.commands.map((c: { command: string; title: string; category: string }) => [
      c.command,
      `${c.category}: ${c.title}`,
    ]),
  );
  assert.equal(cmds['dab.showBoard'], 'dab: Show Board');
  assert.equal(cmds['dab.exportBoardSvg'], 'dab: Export Board as SVG');
  const title = pkg.contributes.menus['editor/title'];
  assert.ok(
    title.some(
      (m: { command: string; when: string }) => m.command === 'dab.showBoard' && m.when === 'resourceLangId == dab',
    ),
  );
  assert.match(pkg.scripts.package, /--production/);
  assert.match(pkg.scripts.package, /vsce package --no-dependencies/);
  assert.match(
    readFileSync(join(ROOT, '.vscodeignore'), 'utf8'),
    /^\*\*$/m,
    '.vscodeignore starts from excluding everything',
  );
});
