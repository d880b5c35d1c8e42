/**
 * The search in words: why a value is not known (yet), and the progress report of the background
 * search ('game "sixty", after move 23 (under the cursor; attempt 2, up to 1.0 s) · 34 of 61 positions
 * proven · 14 s of 120 s CPU').
 */
import { afterMoveWords, plural } from './grammar';

/** A position still being worked on (its bounds so far are proven). */
export const SEARCHING_IN_BACKGROUND = 'searching: proofs improve in the background';
/** A position the background search gave up on without a more precise reason. */
export const NOT_SOLVED_WITHIN_LIMITS = 'not solved within the search limits';

/** An exact value whose optimal moves no search has named yet. */
export const MOVES_NOT_FOUND = 'value proven; the best moves were not searched within the budget';

/** "12.3 s" below 10 s, "42 s" above. */
export function seconds(ms: number): string {
  return ms < 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 1000)} s`;
}

/** The document's background budget ran out. */
export function backgroundBudgetSpent(spentMs: number): string {
  return `the background search budget of this document is spent (${Math.round(spentMs / 1000)} s of CPU; setting dab.search.backgroundBudgetSeconds)`;
}

/**
 * Every attempt allowed failed: "not solved within the search limit (4 attempts, the longest 10 s)".
 * `allowedMs`: what the setting allows one attempt, when the longest was cut short of it (by the
 * document's background budget), so that the message does not pass the cut for the setting.
 */
export function searchLimitReached(limit: { nodes: number } | { ms: number }, attempts: number, allowedMs = 0): string {
  if ('nodes' in limit)
    return `not solved within the search limit (${plural(attempts, 'attempt')} of ${limit.nodes.toLocaleString('en-US')} positions)`;
  const cut = allowedMs > limit.ms ? `, cut short of ${seconds(allowedMs)} by this document's background budget` : '';
  return `not solved within the search limit (${plural(attempts, 'attempt')}, the longest ${seconds(limit.ms)}${cut})`;
}

/** One search (the CLI's) ran out of budget. */
export function searchBudgetReached(nodes: number): string {
  return `not solved within the search budget (${nodes.toLocaleString('en-US')} positions searched)`;
}

/** The worker failed on this position. */
export function searchFailed(message: string): string {
  return `the search failed: ${message}`;
}

/** Two proofs contradicted each other (a solver bug): the older answer is kept, and says so. */
export function inconsistentBoundsIgnored(note: string | undefined): string {
  return `${note ?? ''} (inconsistent bounds from a later search were ignored)`.trim();
}

/** An entry in the progress report: `game "sixty"`, or "the game" when it has no title. */
export function entryLabel(kind: string, title: string | null): string {
  return title !== null ? `${kind} "${title}"` : `the ${kind}`;
}

/** A position in the progress report: "…, start", "…, after move 23", "…, variation, after move 7". */
export function positionLabel(entry: string, ply: number, variation = false): string {
  if (variation) return `${entry}, variation, ${afterMoveWords(ply)}`;
  return ply === 0 ? `${entry}, start` : `${entry}, ${afterMoveWords(ply)}`;
}

/** The progress report's title. */
export const PROGRESS_TITLE = 'dab: proving';

/** A running attempt: 'game "sixty", after move 23 (under the cursor; attempt 2, up to 1.0 s)'. */
export function attemptWords(label: string, underCursor: boolean, level: number, budgetMs: number): string {
  return `${label} (${underCursor ? 'under the cursor; ' : ''}attempt ${level + 1}, up to ${seconds(budgetMs)})`;
}

/** "34 of 61 positions proven". */
export function provenCount(proven: number, total: number): string {
  return `${proven} of ${total} positions proven`;
}

/** "14 s of 120 s CPU" (no budget: "14 s CPU"). */
export function cpuSpent(spentMs: number, budgetMs: number): string {
  return budgetMs > 0 ? `${seconds(spentMs)} of ${seconds(budgetMs)} CPU` : `${seconds(spentMs)} CPU`;
}
