/**
 * What the background search does next: a pure function of the open documents' plans, what is
 * known about each position and what is running, so the policy can be read and tested alone.
 *
 * Policy (anytime, most useful first):
 *  - Attempts come in levels: level k may spend ATTEMPT_BASE_MS * 4^k on one position (capped by
 *    the per-attempt limit, `dab.search.timeBudgetMs`); a position that ran out of budget is tried
 *    again at the next level later, keeping the bounds it proved (the knowledge merge).
 *  - The document the user looked at last comes first, then the others, most recent first.
 *  - In a document, the position under the cursor first, as long as it is at most CURSOR_LEAD
 *    levels ahead of the rest (so one hopeless position cannot eat the budget).
 *  - Then every position gets a first short attempt (level 0), in plan order: each record from
 *    its end backwards, because later positions are cheaper and fill the solver's table for the
 *    earlier ones.
 *  - Longer attempts go to the frontier: the FRONTIER unsolved positions nearest to the end of
 *    each record (group), least-tried first. Earlier positions wait until the frontier is solved
 *    or given up: no time is poured into positions earlier than ones that already failed.
 *  - A document whose CPU budget (`dab.search.backgroundBudgetSeconds`) is spent gets no more work.
 */

/** Budget of the first attempt at a position; each further attempt gets 4 times more. */
export const ATTEMPT_BASE_MS = 250;
/** How many levels the cursor's position may run ahead of the rest of its document. */
export const CURSOR_LEAD = 2;
/** Unsolved positions per record that get attempts beyond the first. */
export const FRONTIER = 3;
/** Levels tried when the per-attempt time is unlimited (250 ms * 4^7 = 68 min). */
const MAX_LEVEL_UNCAPPED = 7;

/** Time for an attempt at `level`, and whether it is the last attempt the limit allows. */
export function attemptBudget(level: number, capMs: number): { ms: number; last: boolean } {
  const ms = ATTEMPT_BASE_MS * 4 ** level;
  if (capMs > 0 && ms >= capMs) return { ms: capMs, last: true };
  return { ms, last: capMs <= 0 && level >= MAX_LEVEL_UNCAPPED };
}

export interface PlannedPosition {
  key: string;
  /** The record (entry) it belongs to: the frontier is per record. */
  group: number;
  /** For progress messages: 'game "sixty", after move 23'. */
  label: string;
}

export interface DocumentPlan {
  owner: string;
  /** Positions that need search, in the order the background pass takes them. */
  positions: PlannedPosition[];
  cursorKey?: string;
  /** CPU charged to the document's background budget: spent since it was opened, less the share new positions earned back. */
  spentMs: number;
  /** 0 = no limit. */
  budgetMs: number;
  /** When the user last looked at it (cursor, board view); larger = more recent. */
  lastActive: number;
}

export interface PositionState {
  /** Attempts finished (each at its level's budget). */
  level: number;
  /** Exact value known, or the last attempt the limit allows has failed. */
  settled: boolean;
}

export interface PickedJob {
  owner: string;
  key: string;
  label: string;
  level: number;
  budgetMs: number;
  /** Why this position now. */
  reason: 'cursor' | 'record';
}

/** A document with less than this left is done (an attempt that short proves nothing new). */
export const MIN_ATTEMPT_MS = 50;

/** CPU time the document may still spend (<= 0: its budget is spent). */
export function budgetLeft(d: DocumentPlan): number {
  if (d.budgetMs <= 0) return Infinity;
  const left = d.budgetMs - d.spentMs;
  return left < MIN_ATTEMPT_MS ? 0 : left;
}

/** The next job, or null when nothing is worth doing. `busy`: keys being searched now. */
export function pickJob(
  docs: DocumentPlan[],
  stateOf: (key: string) => PositionState,
  busy: ReadonlySet<string>,
  capMs: number,
): PickedJob | null {
  const ordered = docs.slice().sort((a, b) => b.lastActive - a.lastActive);
  for (const d of ordered) {
    const left = budgetLeft(d);
    if (left <= 0) continue;
    const open = d.positions.filter((p) => !stateOf(p.key).settled);
    if (open.length === 0) continue;
    const free = open.filter((p) => !busy.has(p.key));
    if (free.length === 0) continue;
    const pass = Math.min(...open.map((p) => stateOf(p.key).level));
    const job = (p: PlannedPosition, reason: PickedJob['reason']): PickedJob => {
      const level = stateOf(p.key).level;
      return {
        owner: d.owner,
        key: p.key,
        label: p.label,
        level,
        budgetMs: Math.min(attemptBudget(level, capMs).ms, left),
        reason,
      };
    };
    const cursor = d.cursorKey ? free.find((p) => p.key === d.cursorKey) : undefined;
    if (cursor && stateOf(cursor.key).level <= pass + CURSOR_LEAD) return job(cursor, 'cursor');
    const frontier = new Set<string>();
    const perGroup = new Map<number, number>();
    for (const p of open) {
      const n = perGroup.get(p.group) ?? 0;
      if (n < FRONTIER) frontier.add(p.key);
      perGroup.set(p.group, n + 1);
    }
    const candidates = free.filter((p) => frontier.has(p.key) || stateOf(p.key).level === 0);
    if (candidates.length === 0) continue;
    const next = candidates.reduce((best, p) => (stateOf(p.key).level < stateOf(best.key).level ? p : best));
    return job(next, 'record');
  }
  return null;
}
