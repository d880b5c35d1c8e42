// Lint: the recommended JavaScript and TypeScript rules, plus this project's own rule, dab/layers:
// what each layer of the code may import. Run by `npm run lint` and `npm run check`.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { builtinModules } from 'node:module';
import { dirname, relative, resolve } from 'node:path';

/**
 * The layers, by folder (first match wins), and what each may import: other layers by name, and
 * packages by name ('node' = Node's built-in modules). Tests, benches and scripts are not a layer:
 * they may import anything.
 */
const LAYERS = [
  {
    // The phrasebook's words for the editor (the client's messages) and the grammar they are made of:
    // the one part of the engine the client bundles, so it imports nothing else.
    name: 'phrases',
    folder: 'server/src/engine/phrasebook/editor',
    mayImport: ['phrases'],
  },
  {
    name: 'phrases',
    folder: 'server/src/engine/phrasebook/grammar',
    mayImport: [],
  },
  {
    // Pure TypeScript, usable from the server, the CLI and the tests alike: no editor, no protocol.
    name: 'engine',
    folder: 'server/src/engine/',
    mayImport: ['engine', 'phrases', 'node'],
  },
  {
    // How dab's processes start (2 MiB pages): for the client, which starts the server, and for the
    // server's and the CLI's own start. Node only; the webview never sees it.
    name: 'launch',
    folder: 'shared/hugePages',
    mayImport: ['node'],
  },
  {
    // Messages between client, server and webview: plain data and typed message objects.
    name: 'shared',
    folder: 'shared/',
    mayImport: ['shared', 'vscode-languageserver-protocol', 'vscode-jsonrpc'],
  },
  {
    // The language server, its search worker and the CLI.
    name: 'server',
    folder: 'server/src/',
    mayImport: [
      'server',
      'engine',
      'phrases',
      'shared',
      'launch',
      'package.json', // serverInfo.version
      // The CLI (`dab render`) and the Markdown pictures draw with the one drawing code.
      'render',
      'node',
      'vscode-languageserver',
      'vscode-languageserver-textdocument',
      'vscode-languageserver-protocol',
      'vscode-jsonrpc',
      // The proof store's database (server/src/store/database.ts).
      'node-sqlite3-wasm',
    ],
  },
  {
    // The VS Code extension: starts the server, owns the webview panel.
    name: 'client',
    folder: 'client/src/',
    mayImport: [
      'client',
      'phrases',
      'shared',
      'launch',
      'node',
      'vscode',
      'vscode-languageclient',
      'vscode-languageserver-protocol',
    ],
  },
  {
    // The board drawing (an SVG element tree), shared by the webview and Node.
    name: 'render',
    folder: 'render/',
    mayImport: ['render', 'shared', 'engine', 'phrases'],
  },
  {
    // The board webview: runs in the browser, draws what it is sent, reports what the user did.
    name: 'webview',
    folder: 'webview/',
    mayImport: ['webview', 'render', 'shared', 'engine', 'phrases'],
  },
];

const ROOT = dirname(new URL(import.meta.url).pathname);
const NODE_BUILTINS = new Set(builtinModules);

function layerOfFile(file) {
  const rel = relative(ROOT, file).split('\\').join('/');
  return LAYERS.find((l) => rel.startsWith(l.folder));
}

/** What an import names: a layer, or a package ('node' for built-ins), or undefined (elsewhere in the repo). */
function targetOf(source, fromFile) {
  if (source.startsWith('.')) {
    const layer = layerOfFile(resolve(dirname(fromFile), source) + '/');
    return layer ? layer.name : relative(ROOT, resolve(dirname(fromFile), source));
  }
  if (source.startsWith('node:') || NODE_BUILTINS.has(source.split('/')[0])) return 'node';
  const parts = source.split('/');
  return source.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

const layersRule = {
  meta: {
    type: 'problem',
    docs: { description: 'Each layer imports only what eslint.config.mjs allows it (the engine: itself and Node).' },
    schema: [],
  },
  create(context) {
    const layer = layerOfFile(context.filename);
    if (!layer) return {};
    const check = (node, source) => {
      if (typeof source !== 'string') return;
      const target = targetOf(source, context.filename);
      if (!layer.mayImport.includes(target)) {
        context.report({
          node,
          message: `The ${layer.name} layer may not import '${source}' (${target}); it may import: ${layer.mayImport.join(', ')} (eslint.config.mjs).`,
        });
      }
    };
    return {
      ImportDeclaration: (n) => check(n, n.source.value),
      ExportNamedDeclaration: (n) => n.source && check(n, n.source.value),
      ExportAllDeclaration: (n) => check(n, n.source.value),
      ImportExpression: (n) => n.source.type === 'Literal' && check(n, n.source.value),
      TSImportType: (n) => check(n, n.argument?.literal?.value ?? n.argument?.value),
    };
  },
};

const nodeGlobals = { process: 'readonly', console: 'readonly', URL: 'readonly', setTimeout: 'readonly' };

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      '.e2e/**',
      'out/**',
      'test-results/**',
      'screenshots/**',
      '.bench-baseline/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  { plugins: { dab: { rules: { layers: layersRule } } }, rules: { 'dab/layers': 'error' } },
  { files: ['**/*.mjs'], languageOptions: { globals: nodeGlobals } },
  {
    files: ['bin/**/*.js'],
    languageOptions: { sourceType: 'commonjs', globals: { ...nodeGlobals, require: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  // Tests read untyped JSON from real LSP connections and browsers.
  { files: ['test/**'], rules: { '@typescript-eslint/no-explicit-any': 'off' } },
);
