/**
 * The one interface the searches use (it is the search service's ProofStore): get what the proof store knows about a position before
 * searching, put what a search proved after it. Exact values are answers; stored bounds are
 * intersected with what a new search proves (both are proven, so the intersection is too). The best
 * move found so far is kept with them and given back as what it is, an estimate (bestSoFar), never
 * as a proven move; of a stored and a new one, the better stays (betterEstimate: the higher proven bound, then more search).
 */
import type { BoardState } from '../engine/board/state';
import { betterEstimate, estimateOf, withEstimate, type Evaluation } from '../engine/analysis/evaluation';
import { nimKnowledge, type NimSummary } from '../engine/analysis/nim';
import { BOUNDS_FROM_STORE, MOVES_NOT_FOUND, NOT_SEARCHED, searchBudgetReached } from '../engine/phrasebook';
import { ProofStore, type StoreOptions } from './proofStore';
import type { Proof } from './proof';

export { resolveStorePath, defaultStoreDir } from './location';
export { ProofStore } from './proofStore';
export { isSqliteFile } from './database';
export { searchOnce } from './searchOnce';

export interface ProofCache {
  /** The stored proof as an evaluation: 'exact' (the answer) or 'unknown' with proven bounds. */
  get(state: BoardState): Evaluation | undefined;
  /** Also the longest time budget (ms) a stored attempt spent without finding the exact value. */
  lookup(state: BoardState): { evaluation: Evaluation; triedMs: number } | undefined;
  /** Keep what a search proved (exact value, bounds, optimal moves, move values) and its best move found so far. */
  put(state: BoardState, e: Evaluation, triedMs?: number): void;
  /** A search result combined with what was stored before it (tighter bounds; exact if they meet). */
  combine(stored: Evaluation | undefined, fresh: Evaluation): Evaluation;
  /**
   * The Nimstring view of `state` for `budget` regions within `ms` ms (undefined: no time limit):
   * the stored one when it answers that (nimView.ts: it had at least as much, or knows everything),
   * else `compute()` — which must stop at `ms` — kept with the limit `ms` when the limit cut it
   * short (it took `ms` or longer), as a view of its whole budget when not.
   */
  nim(state: BoardState, budget: number, compute: () => NimSummary, ms?: number): NimSummary;
  /**
   * A stored Nimstring view that knows at least `atLeast` (nimKnowledge; default 1: the value or who
   * wins the chain fight), or undefined, whatever its computation had (every view is true as far as
   * it goes).
   */
  storedNim(state: BoardState, atLeast?: number): NimSummary | undefined;
  /** Keep a Nimstring view computed with `budget` regions (cut short at `cutMs` ms, if given). */
  keepNim(state: BoardState, budget: number, n: NimSummary, cutMs?: number): void;
  /** A record's budget trace kept under `key` (cli/recordClock.ts), or undefined. */
  trace(key: string): string | undefined;
  /** Keep a record's budget trace under `key`. */
  keepTrace(key: string, text: string): void;
  flush(): void;
  close(): void;
}

/** The note of bounds read from the store (its words: the phrasebook's). */
export const STORE_NOTE = BOUNDS_FROM_STORE;

/** The proof cache over the store at `path` (null: no store, every call is a no-op). */
export function openProofCache(path: string | null, opts: StoreOptions = {}): ProofCache | undefined {
  if (path === null) return undefined;
  const store = ProofStore.open(path, { retryWhenLocked: true, ...opts });
  if (!store.usable && !store.waiting) return undefined;
  return {
    get: (state) => toEvaluation(state, store.get(state)),
    lookup(state) {
      const p = store.get(state);
      return p ? { evaluation: toEvaluation(state, p)!, triedMs: p.tried } : undefined;
    },
    put(state, e, triedMs = 0) {
      const p = toProof(state, e, triedMs);
      if (p) store.put(state, p);
    },
    combine,
    nim(state, budget, compute, ms) {
      const stored = store.getNim(state, budget, ms);
      if (stored) return stored;
      const t0 = Date.now();
      const n = compute();
      // the computation stops at its deadline, ms after it started: one that took so long was cut there
      const spent = Date.now() - t0;
      const cut = ms !== undefined && spent >= ms;
      store.putNim(state, budget, n, cut ? ms : undefined, spent);
      return n;
    },
    storedNim(state, atLeast = 1) {
      const n = store.nimRecord(state)?.view;
      return n && nimKnowledge(n) >= atLeast ? n : undefined;
    },
    keepNim: (state, budget, n, cutMs) => store.putNim(state, budget, n, cutMs),
    trace: (key) => store.trace(key),
    keepTrace: (key, text) => store.putTrace(key, text),
    flush: () => store.flush(),
    close: () => store.close(),
  };
}

function toEvaluation(state: BoardState, p: Proof | undefined): Evaluation | undefined {
  if (!p) return undefined;
  const moveValues = new Map<number, number | null>();
  for (const l of state.undrawnLines()) moveValues.set(l, null);
  for (const [l, v] of p.moves) moveValues.set(l, v);
  const exact = p.lower === p.upper;
  const e: Evaluation = {
    status: exact ? 'exact' : 'unknown',
    method: 'search',
    value: exact ? p.lower : null,
    lower: p.lower,
    upper: p.upper,
    best: exact ? p.best.slice() : [],
    // no proven move value and no optimal moves: no table of move values (as a search reports it)
    ...((exact && p.best.length > 0) || p.moves.length > 0 ? { moveValues } : {}),
    nodes: p.work,
    ...(exact
      ? p.best.length > 0
        ? {}
        : { note: MOVES_NOT_FOUND }
      : // the sentence a search gives for these bounds (evaluatePosition.ts): a warm run reads as the cold one
        { note: p.work === 0 ? NOT_SEARCHED : p.tried > 0 ? searchBudgetReached(p.work) : STORE_NOTE }),
  };
  // the estimate stays what it was: a best move found so far, not proven (none beside proven optimal moves)
  return withEstimate(e, p.estimate);
}

/** What a search evaluation proves, or undefined when it proves nothing worth keeping. */
function toProof(state: BoardState, e: Evaluation, triedMs: number): Proof | undefined {
  if (e.method !== 'search' || e.status === 'pending') return undefined;
  if (!Number.isFinite(e.lower) || !Number.isFinite(e.upper)) return undefined;
  const moves: [number, number][] = [];
  for (const [l, v] of e.moveValues ?? []) if (v !== null && Number.isFinite(v)) moves.push([l, v]);
  moves.sort((a, b) => a[0] - b[0]);
  const r = state.openBoxCount();
  const exact = e.status === 'exact' && e.value !== null;
  // exact: what was tried is the search for the optimal moves, until they are found; rounded up (a search
  // asked for 200.2 ms tried at least 201: a warm run asking the same again is answered by the store)
  const tried = exact && e.best.length > 0 ? 0 : Math.max(0, Math.ceil(triedMs));
  // an estimate alone proves nothing: it is kept only with a proof
  if (e.lower <= -r && e.upper >= r && moves.length === 0 && tried === 0) return undefined;
  const best = exact ? [...new Set(e.best)].sort((a, b) => a - b) : [];
  const estimate = estimateOf({ ...e, best });
  return {
    lower: exact ? e.value! : Math.max(-r, e.lower),
    upper: exact ? e.value! : Math.min(r, e.upper),
    best,
    moves,
    work: e.nodes ?? 0,
    tried,
    ...(estimate && !state.drawn[estimate.move] ? { estimate } : {}),
  };
}

function combine(stored: Evaluation | undefined, fresh: Evaluation): Evaluation {
  if (!stored || fresh.status === 'pending') return fresh;
  // the better of the two estimates (betterEstimate; the stored one on a tie), while no move is proven optimal
  const estimate = betterEstimate(estimateOf(stored), estimateOf(fresh));
  if (fresh.status === 'exact') return withEstimate(fresh, estimate);
  const lower = Math.max(stored.lower, fresh.lower),
    upper = Math.min(stored.upper, fresh.upper);
  if (lower > upper) return fresh; // contradiction: trust the fresh search (and the store is overwritten)
  const moveValues = new Map(fresh.moveValues ?? []);
  for (const [l, v] of stored.moveValues ?? []) if (v !== null && moveValues.get(l) == null) moveValues.set(l, v);
  if (lower === upper) {
    const best = [...moveValues].filter(([, v]) => v === lower).map(([l]) => l);
    const complete = [...moveValues.values()].every((v) => v !== null);
    return withEstimate(
      {
        ...fresh,
        status: 'exact',
        value: lower,
        lower,
        upper,
        // Only a complete set of move values names every optimal move.
        best: complete ? best.sort((a, b) => a - b) : [],
        ...(moveValues.size ? { moveValues } : {}),
        note: undefined,
      },
      estimate,
    );
  }
  // no move valued by either: no table of move values (as a search reports it)
  return withEstimate({ ...fresh, lower, upper, ...(moveValues.size ? { moveValues } : {}) }, estimate);
}
