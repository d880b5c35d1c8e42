// Typechecks every layer with its own settings (see tsconfig.base.json): the engine, the server, the
// client, the webview, then tests/benches/scripts. Incremental (build info in node_modules/.cache/tsc),
// so a second run only rechecks what changed. Usage: node scripts/typecheck.mjs
import { spawnSync } from 'node:child_process';

const LAYERS = [
  ['engine', 'server/src/engine'],
  ['server', 'server'],
  ['client', 'client'],
  ['webview', 'webview'],
  ['tests, benches, scripts', '.'],
];

for (const [name, project] of LAYERS) {
  const cacheName = name.split(',')[0];
  const r = spawnSync(
    process.execPath,
    [
      'node_modules/typescript/bin/tsc',
      '-p',
      project,
      '--incremental',
      '--tsBuildInfoFile',
      `node_modules/.cache/tsc/${cacheName}.tsbuildinfo`,
    ],
    { stdio: 'inherit' },
  );
  if (r.status !== 0) {
    console.error(`typecheck failed: ${name} (${project}/tsconfig.json)`);
    process.exit(r.status ?? 1);
  }
}
