// Runs every test file under test/ (unit, protocol, grammar, browser, e2e) with Node's test runner.
// Usage: node scripts/run-tests.mjs [filter-substring]
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}
const filter = process.argv[2] ?? '';
const files = walk('test')
  .filter((f) => /\.test\.(ts|mjs)$/.test(f) && f.includes(filter))
  .sort();
if (files.length === 0) {
  console.error('no test files found');
  process.exit(1);
}
const build = spawnSync(process.execPath, ['esbuild.mjs'], { stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);
if (!filter) {
  // The whole suite also typechecks every layer (esbuild strips types without checking them).
  const tsc = spawnSync(process.execPath, ['scripts/typecheck.mjs'], { stdio: 'inherit' });
  if (tsc.status !== 0) process.exit(tsc.status ?? 1);
}
// Tests get no proof store unless they ask for one (a store filled by an earlier run would answer
// what a test means to search); the store's own tests point DAB_STORE or --store at temporary files.
const r = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', ...files], {
  stdio: 'inherit',
  env: { ...process.env, DAB_STORE: process.env.DAB_TEST_STORE ?? 'off' },
});
process.exit(r.status ?? 1);
