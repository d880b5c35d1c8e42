/**
 * CPU time of the calling thread, for the background budget. Linux: /proc/thread-self/stat
 * (utime + stime, in clock ticks of 10 ms). Elsewhere: wall time, which is never less than the
 * thread's CPU time, so a budget measured with it is never overspent.
 */
import { readFileSync } from 'node:fs';

const TICK_MS = 10;

function procThreadMs(): number | undefined {
  try {
    const s = readFileSync('/proc/thread-self/stat', 'utf8');
    const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(f[11]) + Number(f[12]); // fields 14 and 15 of stat(5)
    return Number.isFinite(ticks) ? ticks * TICK_MS : undefined;
  } catch {
    return undefined;
  }
}

/** A stopwatch of this thread's CPU time. */
export function cpuStopwatch(): () => number {
  const c0 = procThreadMs();
  const t0 = performance.now();
  return () => {
    const c1 = c0 === undefined ? undefined : procThreadMs();
    return c0 !== undefined && c1 !== undefined ? c1 - c0 : performance.now() - t0;
  };
}
