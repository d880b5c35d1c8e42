/**
 * A searching process starts itself again once with huge pages on (shared/hugePages.ts says why):
 * the CLI for the commands that search (cli/main.ts), the language server when an editor starts it
 * over stdio (bin/dab-language-server.js; VS Code's client starts it with them). The first process
 * only waits: the second one has the same arguments, standard streams and working directory, and
 * its exit code or signal becomes the first one's.
 *
 * Killing the first process must stop the work as it did before: a signal it can catch (Ctrl-C,
 * SIGTERM, SIGHUP) is passed on; for one it cannot (SIGKILL), the second process watches its parent
 * from a small thread and kills itself within WATCH_MS of being orphaned.
 */
import { spawn } from 'node:child_process';
import { Worker } from 'node:worker_threads';
import { hugePageEnv, hugePageSupport } from '../../shared/hugePages';

/** Set in the second process's environment: the first process's pid. */
export const PARENT_VARIABLE = 'DAB_RELAUNCHED_BY';
/** How often the second process checks that its parent still runs (ms). */
export const WATCH_MS = 200;
const FORWARDED: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/**
 * In the second process: watch the parent. In the first: start the second one and return true
 * (the caller then does nothing more; the exit code follows the second process), or return false
 * when there is nothing to gain (the caller runs the command itself). Should the second process
 * fail to start, `runHere` runs the command in this one.
 */
export function relaunchWithHugePages(argv: string[], runHere: () => void): boolean {
  const parent = process.env[PARENT_VARIABLE];
  if (parent !== undefined) {
    delete process.env[PARENT_VARIABLE];
    // the first process died before this one got here (a signal between its spawn and its
    // handlers, or SIGKILL): nobody waits for the work, so it ends as the watcher would end it
    if (Number(parent) !== process.ppid) process.kill(process.pid, 'SIGKILL');
    watchParent(process.ppid);
    return false;
  }
  // a process being debugged stays the one the debugger is attached to (its port is taken, too)
  if (process.execArgv.some((a) => /^--(inspect|debug)/.test(a))) return false;
  const env = hugePageEnv(process.env, hugePageSupport());
  if (!env) return false;
  const child = spawn(process.execPath, [...process.execArgv, process.argv[1], ...argv], {
    stdio: 'inherit',
    env: { ...env, [PARENT_VARIABLE]: String(process.pid) },
  });
  const forward = (signal: NodeJS.Signals) => child.kill(signal);
  for (const s of FORWARDED) process.on(s, forward);
  child.on('error', () => {
    for (const s of FORWARDED) process.off(s, forward);
    runHere();
  });
  child.on('exit', (code, signal) => {
    for (const s of FORWARDED) process.off(s, forward);
    // the same end as the work's own: its signal again (handlers removed), else its code
    if (signal) process.kill(process.pid, signal);
    else process.exitCode = code ?? 1;
  });
  return true;
}

/** Kill this process when `ppid` stops being its parent (the parent was killed outright). */
function watchParent(ppid: number): void {
  const source = `
    const { workerData } = require('node:worker_threads');
    const clock = new Int32Array(new SharedArrayBuffer(4));
    for (;;) {
      Atomics.wait(clock, 0, 0, workerData.ms);
      if (process.ppid !== workerData.ppid) process.kill(process.pid, 'SIGKILL');
    }`;
  new Worker(source, { eval: true, workerData: { ppid, ms: WATCH_MS } }).unref();
}
