/** In-process search for the CLI: one solver and one cache for every position of every file. */
import type { BoardState } from '../engine/board/state';
import type { Evaluation } from '../engine/analysis/evaluation';
import { BATCH_TABLE_MB } from '../engine/solver';
import { createSolver, quickEvaluate, searchEvaluate } from '../engine/analysis/evaluatePosition';
import { allLines, type DabDocument } from '../engine/notation';
import { nimSummary, type NimSummary } from '../engine/analysis/nim';
import { CLI_SEARCH_CACHE_ENTRIES, NIM_BUDGET_CLI } from '../engine/limits';
import { searchOnce, type ProofCache } from '../store';

export interface SearchCache {
  lookup: (state: BoardState) => Evaluation;
  /** Nimstring view of positions that need no search (searched ones carry their own). */
  nim: (state: BoardState) => NimSummary;
}

function remember<V>(map: Map<string, V>, key: string, value: V): V {
  map.set(key, value);
  if (map.size > CLI_SEARCH_CACHE_ENTRIES) map.delete(map.keys().next().value!);
  return value;
}

export function createSearchCache(
  budget: {
    timeBudgetMs: number;
    nodeBudget?: number;
    tableMb?: number;
  },
  proofs?: ProofCache,
): SearchCache {
  const solver = createSolver(budget.tableMb ?? BATCH_TABLE_MB);
  const cache = new Map<string, Evaluation>();
  const nims = new Map<string, NimSummary>();
  const nimOf = (state: BoardState) =>
    proofs
      ? proofs.nim(state, NIM_BUDGET_CLI, () => nimSummary(state, NIM_BUDGET_CLI))
      : nimSummary(state, NIM_BUDGET_CLI);
  return {
    nim(state) {
      const key = state.key();
      let n = nims.get(key);
      if (!n) n = remember(nims, key, nimOf(state));
      return n;
    },
    lookup(state) {
      const key = state.key();
      let e = cache.get(key);
      if (!e) {
        const attempt = () => searchEvaluate(solver, state, { ...budget, nimBudget: NIM_BUDGET_CLI });
        e = searchOnce(proofs, state, attempt, budget.nodeBudget ? 0 : budget.timeBudgetMs);
        const searched = e.nim;
        // A search brings its Nimstring view (kept for the next run); a stored proof has none.
        e.nim = searched && proofs ? proofs.nim(state, NIM_BUDGET_CLI, () => searched) : (searched ?? nimOf(state));
        remember(cache, key, e);
      }
      return e;
    },
  };
}

/**
 * Solve the positions of each record from the last to the first: later positions are quick and
 * fill the solver's table for the earlier ones (they are positions of one game tree).
 */
export function prewarm(cache: SearchCache, doc: DabDocument): void {
  for (const m of doc.models) {
    for (const line of allLines(m)) {
      for (let i = line.states.length - 1; i >= 0; i--) {
        if (!quickEvaluate(line.states[i])) cache.lookup(line.states[i]);
      }
    }
  }
}
