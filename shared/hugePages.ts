/**
 * 2 MiB memory pages for the solver's table, on Linux.
 *
 * Why: the solver probes its transposition table (128 MiB in the CLI, 2 GiB in the 4x4 bench) at
 * every node, at a random place. With 4 KiB pages nearly every probe misses the processor's TLB
 * too, and in a virtual machine such a miss walks two page tables. Linux backs memory with 2 MiB
 * pages ("transparent huge pages") either always, or, in its usual mode `madvise`, only where a
 * program asks. Node has no way to ask for an ArrayBuffer; glibc (2.35 and later) asks for all its
 * large allocations when the process starts with GLIBC_TUNABLES=glibc.malloc.hugetlb=1, and a
 * running process cannot turn that on. So dab's searching processes start with it: the CLI starts
 * itself again once (cli/relaunch.ts), and the VS Code client starts the language server with it.
 *
 * Only where memory lies changes, never a value. DAB_HUGE_PAGES=0 turns it off. Measured figures
 * are in CHANGELOG.md (stop 28).
 */
import { readFileSync } from 'node:fs';

/** The glibc tunable that makes malloc ask for transparent huge pages (glibc 2.35 and later). */
export const HUGE_PAGES_TUNABLE = 'glibc.malloc.hugetlb';
/** The environment variable that turns huge pages off when it is `0`. */
export const HUGE_PAGES_SWITCH = 'DAB_HUGE_PAGES';

/** What the machine offers: its transparent huge page mode and glibc version (undefined: none or unknown). */
export interface HugePageSupport {
  platform: NodeJS.Platform;
  /** The bracketed word of /sys/kernel/mm/transparent_hugepage/enabled: always, madvise or never. */
  thpMode?: string;
  /** glibc's version at run time, e.g. "2.36". */
  glibc?: string;
}

/** This machine's support, read once per call (a file read and a process report: a few ms). */
export function hugePageSupport(): HugePageSupport {
  const support: HugePageSupport = { platform: process.platform };
  if (process.platform !== 'linux') return support;
  try {
    support.thpMode = /\[(\w+)\]/.exec(readFileSync('/sys/kernel/mm/transparent_hugepage/enabled', 'utf8'))?.[1];
  } catch {
    // no THP on this kernel (or no /sys): nothing to ask for
  }
  if (support.thpMode !== 'madvise') return support; // the report is the costlier half: only when it matters
  try {
    // the runtime glibc's version, which only the diagnostic report tells (absent on musl)
    const header = (process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined)?.header;
    support.glibc = header?.glibcVersionRuntime;
  } catch {
    // no report in this runtime: glibc unknown, so no huge pages asked for
  }
  return support;
}

/** glibc version `v` is 2.35 or later (the first with the tunable). */
function glibcHasTunable(v: string | undefined): boolean {
  const m = v ? /^(\d+)\.(\d+)/.exec(v) : null;
  return m !== null && (Number(m[1]) > 2 || (Number(m[1]) === 2 && Number(m[2]) >= 35));
}

/**
 * The environment a new process should start with to get huge pages, or undefined when nothing
 * would change: not Linux, THP off or already on for all memory (`always`), glibc too old or absent
 * (musl), turned off by DAB_HUGE_PAGES=0, or the tunable already set either way by the user.
 */
export function hugePageEnv(env: NodeJS.ProcessEnv, support: HugePageSupport): NodeJS.ProcessEnv | undefined {
  if (support.platform !== 'linux' || support.thpMode !== 'madvise' || !glibcHasTunable(support.glibc))
    return undefined;
  if (env[HUGE_PAGES_SWITCH] === '0') return undefined;
  const tunables = env.GLIBC_TUNABLES ?? '';
  if (tunables.split(':').some((t) => t.split('=')[0] === HUGE_PAGES_TUNABLE)) return undefined;
  return { ...env, GLIBC_TUNABLES: (tunables ? tunables + ':' : '') + `${HUGE_PAGES_TUNABLE}=1` };
}

/** One line for benchmark output: whether this process runs with the tunable. */
export function hugePagesLine(env: NodeJS.ProcessEnv = process.env): string {
  return `2 MiB pages: ${hugePagesOn(env) ? 'on' : 'off'} (GLIBC_TUNABLES=${env.GLIBC_TUNABLES ?? ''})`;
}

/** The tunable is on in this process's environment (it was started with it). */
export function hugePagesOn(env: NodeJS.ProcessEnv = process.env): boolean {
  return (env.GLIBC_TUNABLES ?? '').split(':').includes(`${HUGE_PAGES_TUNABLE}=1`);
}

/** `env` without the tunable hugePageEnv adds: how a process started by a user would start. */
export function withoutHugePages(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const rest = (env.GLIBC_TUNABLES ?? '').split(':').filter((t) => t !== '' && t !== `${HUGE_PAGES_TUNABLE}=1`);
  const others = { ...env };
  delete others.GLIBC_TUNABLES;
  return rest.length > 0 ? { ...others, GLIBC_TUNABLES: rest.join(':') } : others;
}
