/**
 * The language server's search service reads the proof store a slice at a time, between requests
 * (found by an audit: 9,000 positions read at once kept every request waiting 5-23 s), and never
 * searches a position before its record has been read.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { existsSync } from 'node:fs';
import { SearchService, type ProofStore } from '../../server/src/search/searchService';
import { geometryOf } from '../../server/src/engine/board/geometry';
import { BoardState } from '../../server/src/engine/board/state';
import { mulberry32 } from '../support/random';

const tick = () => new Promise<void>((r) => setImmediate(r));

test('search service: store records are read in slices between other work, and each before its position is searched', async () => {
  const worker = resolve('dist/worker.js');
  assert.ok(existsSync(worker), 'dist/worker.js is built');
  const reads: string[] = [];
  const slow: ProofStore = {
    lookup(s) {
      reads.push(s.key());
      const until = performance.now() + 0.05; // a real read takes about 0.5 ms
      while (performance.now() < until);
      return undefined;
    },
    put() {},
    storedNim: () => undefined,
    keepNim() {},
  };
  const svc = new SearchService(
    { timeBudgetMs: 50, nodeBudget: 0, backgroundBudgetSeconds: 0, threads: 1, tableMb: 8 },
    { onResult: () => undefined },
    worker,
  );
  try {
    svc.useProofStore(slow);
    const g = geometryOf(5, 5);
    const r = mulberry32(5);
    const items = [];
    for (let i = 0; i < 3000; i++) {
      const s = new BoardState(g);
      for (let k = 0; k < 8; k++) {
        const undrawn = s.undrawnLines();
        s.play(undrawn[Math.floor(r() * undrawn.length)]);
      }
      items.push({ state: s, label: `p${i}`, group: 0 });
    }
    const keys = new Set(items.map((it) => it.state.key()));
    svc.setPlan('doc', items);
    // synchronously: only what is searched at once was read (a worker's first pick), not all
    assert.ok(reads.length <= 2, `read at once: ${reads.length}`);
    await tick();
    assert.ok(reads.length < keys.size, `one slice, then other work: ${reads.length} of ${keys.size}`);
    for (let i = 0; i < 2000 && reads.length < keys.size; i++) await tick();
    assert.equal(new Set(reads).size, keys.size, 'every position is read in the end');
    assert.ok(
      reads.every((k) => keys.has(k)),
      'only the plan was read',
    );
  } finally {
    svc.dispose();
  }
});
