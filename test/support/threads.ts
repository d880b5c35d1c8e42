/** The threaded solver from source: its helper script is TypeScript, loaded in the thread through tsx. */
import { Worker } from 'node:worker_threads';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { ThreadOptions } from '../../server/src/engine/solver';

/** A worker thread running a TypeScript module (loaded through tsx), with `workerData`. */
export function spawnTs(file: string, workerData: unknown): Worker {
  const code = `require('tsx/cjs/api').register(); require(${JSON.stringify(file)});`;
  return new Worker(code, { eval: true, workerData });
}

/**
 * The helper script. Found beside this file (__dirname is not this folder when an ES module outside
 * the repository imports it through tsx) or from the repository root; never silently missing: a
 * missing script would leave the helpers dead and "two threads" searching as one.
 */
function helperScript(): string {
  const found = [
    typeof __dirname === 'string' ? join(__dirname, '../../server/src/solverThread.ts') : '',
    resolve('server/src/solverThread.ts'),
  ].find((p) => p !== '' && existsSync(p));
  if (!found)
    throw new Error('test/support/threads.ts: server/src/solverThread.ts not found (run from the repository root)');
  return found;
}

/** ThreadOptions for `threads` threads, the helper run from server/src/solverThread.ts. */
export function sourceThreads(threads: number): ThreadOptions {
  return { threads, helperScript: helperScript(), spawn: spawnTs };
}
