/** The threaded solver from source: its helper script is TypeScript, loaded in the thread through tsx. */
import { Worker } from 'node:worker_threads';
import { join } from 'node:path';
import type { ThreadOptions } from '../../server/src/engine/solver';

/** A worker thread running a TypeScript module (loaded through tsx), with `workerData`. */
export function spawnTs(file: string, workerData: unknown): Worker {
  const code = `require('tsx/cjs/api').register(); require(${JSON.stringify(file)});`;
  return new Worker(code, { eval: true, workerData });
}

/** ThreadOptions for `threads` threads, the helper run from server/src/solverThread.ts. */
export function sourceThreads(threads: number): ThreadOptions {
  return { threads, helperScript: join(__dirname, '../../server/src/solverThread.ts'), spawn: spawnTs };
}
