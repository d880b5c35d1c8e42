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
