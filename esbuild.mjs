// Bundles the extension client, the language server, its search worker and the CLI into dist/.
import * as esbuild from 'esbuild';
import { copyFileSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

const entries = [
  { in: 'client/src/extension.ts', out: 'client' },
  { in: 'server/src/server.ts', out: 'server' },
  { in: 'server/src/worker.ts', out: 'worker' },
  { in: 'server/src/solverThread.ts', out: 'solverThread' },
  { in: 'server/src/cli/main.ts', out: 'cli' },
  { in: 'server/src/relaunch.ts', out: 'relaunch' },
  { in: 'server/src/markdownBlocks.ts', out: 'markdown' },
];

const ctx = await esbuild.context({
  entryPoints: entries,
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  outdir: 'dist',
  external: ['vscode'],
  sourcemap: !production,
  minify: production,
  logLevel: 'warning',
});
// The board webview runs in a browser: one self-contained script, no Node, no vscode.
const webview = await esbuild.context({
  entryPoints: [{ in: 'webview/main.ts', out: 'board' }],
  bundle: true,
  format: 'iife',
  platform: 'browser',
  target: 'es2022',
  outdir: 'dist/webview',
  sourcemap: !production,
  minify: production,
  logLevel: 'warning',
});
// The proof store's SQLite is WebAssembly: its loader (bundled) reads the .wasm beside the bundle.
const sqliteWasm = join(dirname(createRequire(import.meta.url).resolve('node-sqlite3-wasm')), 'node-sqlite3-wasm.wasm');
mkdirSync('dist', { recursive: true });
copyFileSync(sqliteWasm, join('dist', 'node-sqlite3-wasm.wasm'));

if (watch) {
  await Promise.all([ctx.watch(), webview.watch()]);
} else {
  await Promise.all([ctx.rebuild(), webview.rebuild()]);
  await Promise.all([ctx.dispose(), webview.dispose()]);
}
