/** The `dab.*` settings the server reads, with their defaults. */
import type { Severity } from './engine/notation';
import type { SearchSettings } from './search/searchService';
import { DEFAULT_TABLE_MB, MAX_TABLE_MB } from './engine/solver';
import { MAX_SOLVER_THREADS } from './engine/limits';

export interface DabSettings {
  inlayHints: { enabled: boolean; afterEachMove: boolean };
  search: SearchSettings;
  diagnostics: { minLoss: number; resultChangeSeverity: Severity; lossSeverity: Severity };
  /** The proof store: path ('' = $DAB_STORE, else the user's cache directory; 'off' = none), size limit. */
  store: { path: string; maxSizeMb: number };
}

export const defaultSettings: DabSettings = {
  inlayHints: { enabled: true, afterEachMove: false },
  search: { timeBudgetMs: 10_000, nodeBudget: 0, backgroundBudgetSeconds: 120, threads: 0, tableMb: DEFAULT_TABLE_MB },
  diagnostics: { minLoss: 1, resultChangeSeverity: 'warning', lossSeverity: 'information' },
  store: { path: '', maxSizeMb: 256 },
};

const severities: Severity[] = ['error', 'warning', 'information', 'hint'];

/**
 * Merge what the client sent over `base` (the defaults, or settings given earlier), ignoring values
 * of the wrong type: a setting the client does not name keeps its value in `base`.
 */
export function readSettings(raw: unknown, base: DabSettings = defaultSettings): DabSettings {
  // Untrusted JSON from the client: every field below is read through a type check.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const r = (raw ?? {}) as Record<string, any>;
  const num = (v: unknown, d: number, min = 0) => (typeof v === 'number' && Number.isFinite(v) && v >= min ? v : d);
  const bool = (v: unknown, d: boolean) => (typeof v === 'boolean' ? v : d);
  const sev = (v: unknown, d: Severity) => (severities.includes(v as Severity) ? (v as Severity) : d);
  const d = base;
  return {
    inlayHints: {
      enabled: bool(r.inlayHints?.enabled, d.inlayHints.enabled),
      afterEachMove: bool(r.inlayHints?.afterEachMove, d.inlayHints.afterEachMove),
    },
    search: {
      timeBudgetMs: num(r.search?.timeBudgetMs, d.search.timeBudgetMs),
      nodeBudget: num(r.search?.nodeBudget, d.search.nodeBudget),
      backgroundBudgetSeconds: num(r.search?.backgroundBudgetSeconds, d.search.backgroundBudgetSeconds),
      threads: Math.min(MAX_SOLVER_THREADS, Math.floor(num(r.search?.threads, d.search.threads))),
      tableMb: Math.min(MAX_TABLE_MB, num(r.search?.tableMb, d.search.tableMb, 1)),
    },
    diagnostics: {
      minLoss: num(r.diagnostics?.minLoss, d.diagnostics.minLoss, 1),
      resultChangeSeverity: sev(r.diagnostics?.resultChangeSeverity, d.diagnostics.resultChangeSeverity),
      lossSeverity: sev(r.diagnostics?.lossSeverity, d.diagnostics.lossSeverity),
    },
    store: {
      path: typeof r.store?.path === 'string' ? r.store.path : d.store.path,
      maxSizeMb: num(r.store?.maxSizeMb, d.store.maxSizeMb, 1),
    },
  };
}
