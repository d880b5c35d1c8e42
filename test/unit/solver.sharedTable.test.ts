// The shared transposition table alone, under racing writers: two helper threads store entries
// whose bounds and move are a function of their key into a table of 64 entries (every bucket is
// rewritten all the time), while this thread probes. A probe must give, for the key it asked for,
// exactly the bounds and move stored for that key, or nothing: one torn entry (a key with another
// key's bounds, or half-written words) is a wrong value in a search.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { SharedTable, sharedTableMemory } from '../../server/src/engine/solver/table';
import { KEYS, entryOf, hashOf, keyOf, type WriterData } from '../support/sharedTableLoad';
import { spawnTs } from '../support/threads';

const WRITE_MS = 3000;

test('shared table: probes under racing writers give whole entries of their own key or nothing', async () => {
  const mem = sharedTableMemory(2, 6, 4, false);
  const table = new SharedTable(mem);
  const start = new Int32Array(new SharedArrayBuffer(4));
  const script = join(__dirname, '../support/sharedTableLoad.ts');
  const writers = [1, 2].map((seed) =>
    spawnTs(script, { mem, start: start.buffer as SharedArrayBuffer, ms: WRITE_MS, seed } satisfies WriterData),
  );
  const done = writers.map((w) => new Promise<number>((ok, ko) => (w.on('message', ok), w.on('error', ko))));
  // wait until both writers run (a writer that cannot start fails the test, never hangs it), then
  // probe for as long as they write
  const waitStart = Date.now();
  while (Atomics.load(start, 0) < 2) {
    assert.ok(Date.now() - waitStart < 60_000, 'the writer threads did not start within 60 s');
    Atomics.wait(start, 0, Atomics.load(start, 0), 50);
  }
  const key = new Uint32Array(2);
  let probes = 0,
    hits = 0;
  const torn: string[] = [];
  const t0 = Date.now();
  for (let k = 0; Date.now() - t0 < WRITE_MS - 500; k = (k + 1) % KEYS) {
    keyOf(k, key);
    probes++;
    if (table.probe(key, 0, hashOf(k)) < 0) continue;
    hits++;
    const [lo, hi, mv] = entryOf(k);
    if ((table.lo !== lo || table.hi !== hi || table.mv !== mv) && torn.length < 5)
      torn.push(`key ${k}: read [${table.lo}, ${table.hi}] move ${table.mv}, stored [${lo}, ${hi}] move ${mv}`);
  }
  const stores = (await Promise.all(done)).reduce((a, b) => a + b, 0);
  assert.deepEqual(torn, [], 'a probe gave bounds that were never stored for its key');
  // the test means something only if the writers and the reader really met
  assert.ok(stores > 100_000, `only ${stores} stores`);
  assert.ok(hits > 10_000, `only ${hits} hits in ${probes} probes`);
  assert.ok(hits < probes, 'every probe hit: the writers did not replace entries');
});
