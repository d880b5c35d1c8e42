// The background budget counts the process's CPU that no search thread's clock sees (garbage
// collection, bookkeeping): a 12x12 record's workers were charged 120 s while the process used
// 141.6 s. CpuOverhead shares that CPU among the documents charged meanwhile.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CpuOverhead } from '../../server/src/search/cpuOverhead';

/** Uses `ms` of this process's CPU (not of the wall clock: on a loaded machine that is less CPU). */
const burn = (ms: number) => {
  const c0 = process.cpuUsage();
  let x = 0;
  for (;;) {
    for (let i = 0; i < 10_000; i++) x += Math.sqrt(x + 1);
    const c = process.cpuUsage(c0);
    if ((c.user + c.system) / 1000 >= ms) return x;
  }
};

test('cpu overhead: what the process used beyond the charges goes to the documents charged, in proportion', () => {
  const o = new CpuOverhead();
  o.charge('a', 10);
  o.charge('b', 30);
  burn(300);
  const shares = o.settle();
  const a = shares.get('a') ?? 0,
    b = shares.get('b') ?? 0;
  assert.ok(a + b > 150 && a + b < 400, `about 300 - 40 ms shared: ${a + b}`);
  assert.ok(Math.abs(b / a - 3) < 0.01, `in proportion: ${a} and ${b}`);
  // work for edits is nobody's background work
  o.charge('a', 1);
  o.foreground(300);
  burn(300);
  const after = o.settle().get('a') ?? 0;
  assert.ok(after < 100, `foreground work is left out: ${after}`);
  // nothing charged: nothing shared (idle time is not a document's)
  burn(100);
  assert.equal(o.settle().size, 0);
});
