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

/** 3,000 5x5 positions of a plan, each a few moves in. */
function plan() {
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
  return items;
}

for (const [what, answer] of [
  ['an empty store', false],
  // found by a review: a warm store settles every pick, and the picks read the whole plan at once
  ['a store that holds every answer', true],
] as const)
  test(`search service, ${what}: records are read in slices between other work, each before its position is searched`, async () => {
    const worker = resolve('dist/worker.js');
    assert.ok(existsSync(worker), 'dist/worker.js is built');
    const reads: string[] = [];
    const store: ProofStore = {
      lookup(s) {
        reads.push(s.key());
        const until = performance.now() + 0.05; // a real read takes about 0.5 ms
        while (performance.now() < until);
        if (!answer) return undefined;
        const best = s.undrawnLines()[0];
        return {
          evaluation: {
            status: 'exact',
            method: 'search',
            value: 1,
            lower: 1,
            upper: 1,
            best: [best],
            moveValues: { [best]: 1 },
          },
          triedMs: 0,
        } as never;
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
      svc.useProofStore(store);
      const items = plan();
      const keys = new Set(items.map((it) => it.state.key()));
      const t0 = performance.now();
      svc.setPlan('doc', items);
      const ms = performance.now() - t0;
      // synchronously: at most a slice of reads (the picks'), not the plan
      assert.ok(reads.length < keys.size / 2, `read at once: ${reads.length} of ${keys.size} in ${ms.toFixed(0)} ms`);
      await tick();
      assert.ok(reads.length < keys.size, `one slice, then other work: ${reads.length} of ${keys.size}`);
      for (let i = 0; i < 5000 && new Set(reads).size < keys.size; i++) await tick();
      assert.equal(new Set(reads).size, keys.size, 'every position is read in the end');
      assert.ok(
        reads.every((k) => keys.has(k)),
        'only the plan was read',
      );
    } finally {
      svc.dispose();
    }
  });
