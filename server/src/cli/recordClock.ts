/**
 * A record's budget as a clock that can be replayed. Every time the CLI's record schedule
 * (search.ts) asks the record budget for time, it calls grant(ask) and gets min(ask, what is left);
 * the clock keeps the pairs [ask, granted] in order: the record's trace.
 *
 * Why replay: a run on a warm store reads every proof the cold run made at once, so its record
 * budget never runs out where the cold run's did. A search the cold budget cut short would then be
 * made again with its whole per-position budget (seconds, for nothing the cold run did not find),
 * and positions the cold run never reached would be searched: the answers would differ, and slowly.
 * When the cold run's budget cut a grant, its trace is kept in the store (keyed by the record and
 * the budgets: traceKey); a later run of the same record with the same budgets replays it, grant for
 * grant, so it makes exactly the cold run's decisions with exactly its searches' budgets, and the
 * store answers each of them. A grant that does not match the trace (another ask: the store changed
 * meanwhile, or the code) ends the replay, and the real clock takes over from there.
 *
 * Replay changes budgets only, never what is proven: every answer is still a proof from the store
 * or a new search.
 */
import { createHash } from 'node:crypto';

/**
 * One grant of a record's budget: what was asked and what was granted (ms), and 1 when the run's
 * total budget (--total-budget-ms), not the record's, cut it.
 */
export type Grant = readonly [ask: number, granted: number] | readonly [ask: number, granted: number, byTotal: 1];

/** Part of every trace's key: a change of the schedule's rules that changes its asks changes this. */
const TRACE_FORMAT = 'dab-record-trace-5';
/** A trace longer than this is not a record's (a record asks a few times per position). */
const MAX_GRANTS = 100_000;

export class RecordClock {
  private readonly grants: Grant[] = [];
  private replay: readonly Grant[] | undefined;
  /** Whether the budget cut a grant by the real clock (then the trace is worth keeping). */
  cut = false;
  /** Whether the last grant was cut by the run's total budget (replayed too). */
  cutByTotal = false;

  /** `t0`: when the record's budget started (Date.now()); `deadline`: the end of the run's total budget, if any. */
  constructor(
    private readonly budgetMs: number,
    replay?: readonly Grant[],
    private readonly t0 = Date.now(),
    private readonly deadline = Infinity,
  ) {
    this.replay = replay;
  }

  /** Time left in the record's budget, and in the run's, by the real clock (ms; for a progress line). */
  left(): number {
    return Math.min(this.t0 + this.budgetMs, this.deadline) - Date.now();
  }

  /**
   * min(ask, time left in the record's budget beyond `keep`, time left in the run's), at least 0:
   * the replayed grant while the trace matches. `keep` must depend on the budgets alone (as every
   * ask does), so that a replay meets the same asks.
   */
  grant(ask: number, keep = 0): number {
    const r = this.replay?.[this.grants.length];
    let grant: Grant;
    if (r && r[0] === ask) grant = r;
    else {
      this.replay = undefined;
      const now = Date.now();
      const record = this.t0 + this.budgetMs - now - keep,
        total = this.deadline - now;
      const granted = Math.max(0, Math.min(ask, record, total));
      grant = granted < ask && total < record ? [ask, granted, 1] : [ask, granted];
      if (granted < ask) this.cut = true;
    }
    this.grants.push(grant);
    this.cutByTotal = grant[2] === 1;
    return grant[1];
  }

  /** The grants so far, as stored. */
  trace(): string {
    return JSON.stringify(this.grants);
  }
}

/** A stored trace, or undefined when it is not one (never trusted beyond its shape). */
export function parseTrace(text: string | undefined): Grant[] | undefined {
  // a grant is at most ~30 characters: a longer text is not parsed at all
  if (text === undefined || text.length > 32 * MAX_GRANTS) return undefined;
  try {
    const v: unknown = JSON.parse(text);
    if (!Array.isArray(v) || v.length > MAX_GRANTS) return undefined;
    const ok = (x: unknown) => typeof x === 'number' && Number.isFinite(x) && x >= 0;
    const grant = (g: unknown) =>
      Array.isArray(g) &&
      (g.length === 2 || (g.length === 3 && g[2] === 1)) &&
      ok(g[0]) &&
      ok(g[1]) &&
      (g[1] as number) <= (g[0] as number);
    return v.every(grant) ? (v as Grant[]) : undefined;
  } catch {
    return undefined;
  }
}

/** The key of a record's trace: its positions (each line's, in order) and the budgets that shape it. */
export function traceKey(
  lineKeys: readonly string[][],
  budgets: { positionBudgetMs: number; recordBudgetMs: number; totalBudgetMs?: number },
): string {
  const h = createHash('sha256');
  h.update(`${TRACE_FORMAT}|${budgets.positionBudgetMs}|${budgets.recordBudgetMs}`);
  // a run's total budget cuts grants too: a trace made under one is replayed only under the same
  if (budgets.totalBudgetMs !== undefined) h.update(`|total ${budgets.totalBudgetMs}`);
  for (const keys of lineKeys) h.update(`|${keys.join(',')}`);
  return h.digest('hex');
}
