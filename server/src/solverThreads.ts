/**
 * Where the threaded solver's helper script is, and how many threads to use: shared by the CLI and
 * the editor's search worker. The script is dist/solverThread.js beside the caller's bundle; run
 * from source (no bundle beside it), the solver keeps to one thread.
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import type { ThreadOptions } from './engine/solver';
import { DEFAULT_SOLVER_THREADS_MAX, MAX_SOLVER_THREADS } from './engine/limits';

function helperScript(): string | undefined {
  const candidates = [
    join(__dirname, 'solverThread.js'),
    join(__dirname, 'solverThread.ts'),
    join(__dirname, '..', 'solverThread.ts'),
  ];
  return candidates.find((f) => existsSync(f));
}

/**
 * The most threads one solver is given: one a core (more only share them, and their start and stop
 * overran the budgets 10-30 times with 64 threads on 2 cores), at most MAX_SOLVER_THREADS.
 */
export function mostSolverThreads(): number {
  return Math.min(MAX_SOLVER_THREADS, availableParallelism());
}

/** The threads a solver gets when none are asked for: every core, up to DEFAULT_SOLVER_THREADS_MAX. */
export function defaultSolverThreadCount(): number {
  return Math.min(DEFAULT_SOLVER_THREADS_MAX, availableParallelism());
}

/**
 * Threads for one solver: `requested`, capped by mostSolverThreads (0 or undefined:
 * defaultSolverThreadCount); undefined (one thread) when no helper script is found.
 */
export function solverThreads(requested?: number): ThreadOptions | undefined {
  const n =
    requested && requested > 0 ? Math.min(mostSolverThreads(), Math.floor(requested)) : defaultSolverThreadCount();
  const script = helperScript();
  return n > 1 && script ? { threads: n, helperScript: script } : undefined;
}
