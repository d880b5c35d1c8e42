// Load for the shared table test (test/unit/solver.sharedTable.test.ts): keys whose bounds and move
// are a function of the key, so a reader can tell a whole entry from a torn one, and a writer that
// stores them into a small shared table as fast as it can.
import { parentPort, workerData } from 'node:worker_threads';
import { SharedTable, type SharedTableMemory } from '../../server/src/engine/solver/table';

/** Keys in play: far more than the table's 64 entries, so buckets are rewritten all the time. */
export const KEYS = 1000;

/** Key k's two words (both differ between keys, so a half-written key is never another key). */
export function keyOf(k: number, out: Uint32Array): void {
  out[0] = (k * 2654435761) >>> 0;
  out[1] = (k ^ 0x5bd1e995) >>> 0;
}

export function hashOf(k: number): number {
  return Math.imul(k + 1, 0x9e3779b1) >>> 7;
}

/** The bounds and move stored for key k: [lower, upper, move]. */
export function entryOf(k: number): [number, number, number] {
  const lo = (k % 61) - 30;
  return [lo, lo + (k % 7) * 2, k % 40];
}

/** What a writer thread is given. */
export interface WriterData {
  mem: SharedTableMemory;
  /** Int32 word: writers add 1 when they start. */
  start: SharedArrayBuffer;
  ms: number;
  seed: number;
}

/** Store random keys until `ms` have passed; posts the number of stores. */
function writeUntil(data: WriterData): void {
  const table = new SharedTable(data.mem);
  const start = new Int32Array(data.start);
  Atomics.add(start, 0, 1);
  Atomics.notify(start, 0);
  const key = new Uint32Array(2);
  let x = data.seed * 7919,
    stores = 0;
  const t0 = Date.now();
  while (Date.now() - t0 < data.ms) {
    for (let i = 0; i < 1000; i++) {
      x = (Math.imul(x, 1103515245) + 12345) >>> 0;
      const k = (x >>> 8) % KEYS;
      keyOf(k, key);
      const [lo, hi, mv] = entryOf(k);
      table.store(key, 0, hashOf(k), -1, lo, hi, mv, (x >>> 4) & 15);
      stores++;
    }
  }
  parentPort?.postMessage(stores);
}

// run as a writer thread (spawned by the test with its WriterData)
if (parentPort && workerData?.mem) writeUntil(workerData as WriterData);
