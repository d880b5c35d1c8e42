/**
 * The CLI and the language server writing one proof store at once (each a real process): every
 * result either keeps is true, and a rerun of the CLI on the warm store gives the same answers.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { LspTestClient } from '../protocol/lspClient';
import { assertTrue, records, tempDir } from './support';

const ROOT = resolve(import.meta.dirname, '..', '..');
const CLI = join(ROOT, 'bin', 'dab.js');

test('store: the CLI and the language server write at once; all they keep is true; a warm rerun answers the same', async () => {
  const path = join(tempDir(), 'shared.sqlite');
  const files = ['games.dab', 'positions.dab'].map((f) => join(ROOT, 'examples', f));
  const client = new LspTestClient({ store: { path } });
  await client.initialize();
  const uris = files.map((f, i) => client.open(`store-${i}.dab`, readFileSync(f, 'utf8')));
  const cli = spawn(process.execPath, [CLI, 'analyze', '--json', '--store', path, ...files], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let cold = '',
    err = '';
  cli.stdout!.on('data', (d) => (cold += String(d)));
  cli.stderr!.on('data', (d) => (err += String(d)));
  const code = await new Promise((res) => cli.on('exit', res));
  assert.equal(code, 0, err);
  assert.doesNotMatch(err, /warning/, 'no store warnings');
  for (const uri of uris) await client.waitForDiagnostics(uri, () => true, 60_000);
  // Let the server finish its searches (the store stops growing), then close it (it flushes).
  let last = -1;
  for (let i = 0; i < 60; i++) {
    await new Promise((r) => setTimeout(r, 1000));
    const n = records(path).length;
    if (n === last) break;
    last = n;
  }
  await client.shutdown();
  await new Promise((r) => client.process.once('exit', r));
  assert.doesNotMatch(client.stderr, /proof store .*(damaged|failed|locked)/);
  const rs = records(path);
  assert.ok(rs.length >= 5, `both kept proofs (${rs.length})`);
  for (const r of rs) assertTrue(r.key, r.proof);
  const warm = spawnSync(process.execPath, [CLI, 'analyze', '--json', '--store', path, ...files], { encoding: 'utf8' });
  assert.equal(warm.status, 0, warm.stderr);
  assert.equal(warm.stdout, cold, 'the warm store gives the same answers');
});

// Found by an audit: `dab render` searched again what `dab analyze` had proven (and had no --store).
test('store: dab render draws what dab analyze proved at once, from the same store', () => {
  const path = join(tempDir(), 'render.sqlite');
  const file = join(ROOT, 'examples', 'games.dab');
  const render = (...extra: string[]) =>
    spawnSync(process.execPath, [CLI, 'render', file, '--ply', '3', '--budget-ms', '1', ...extra], {
      encoding: 'utf8',
    });
  const cold = render('--store', path);
  assert.equal(cold.status, 0, cold.stderr);
  assert.match(cold.stdout, /Value unknown/, 'a 1 ms budget proves nothing from nothing');
  const analyzed = spawnSync(process.execPath, [CLI, 'analyze', '--json', '--store', path, file], { encoding: 'utf8' });
  assert.equal(analyzed.status, 0, analyzed.stderr);
  const report = JSON.parse(analyzed.stdout);
  const ply3 = report.entries[0].positions[3];
  assert.equal(ply3.exact, true, 'dab analyze proves ply 3');
  const warm = render('--store', path);
  assert.equal(warm.status, 0, warm.stderr);
  assert.doesNotMatch(warm.stdout, /Value unknown/);
  assert.notEqual(ply3.value, 0, 'a position with a winner (its words are checked)');
  assert.match(warm.stdout, new RegExp(`wins the rest by ${Math.abs(ply3.value)}\\.`), 'the stored value, in words');
  // --no-store reads nothing; both flags at once, or an empty path, are refused
  assert.match(render('--no-store').stdout, /Value unknown/);
  const both = render('--store', path, '--no-store');
  assert.equal(both.status, 2);
  assert.match(both.stderr, /--store and --no-store cannot both be given/);
  const empty = spawnSync(process.execPath, [CLI, 'render', file, '--store', ''], { encoding: 'utf8' });
  assert.equal(empty.status, 2);
  assert.match(empty.stderr, /--store needs a path/);
});
