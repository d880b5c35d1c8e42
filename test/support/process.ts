/** What the tests read of a running process (Linux /proc; undefined elsewhere). */
import { readFileSync } from 'node:fs';

/** CPU time (user + system, all threads) of a process, in ms. */
export function processCpuMs(pid: number): number | undefined {
  try {
    const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) * 10;
  } catch {
    return undefined;
  }
}

/** Resident memory of a process (its threads included), in MiB. */
export function residentMb(pid: number): number | undefined {
  try {
    const m = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}
