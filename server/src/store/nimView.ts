/**
 * Stored Nimstring views: how one is kept, checked, answered and replaced.
 *
 * Row layout (table `nims`, one row per position; views are not part of `dab cache export`):
 *   key    TEXT     the position's own drawn lines (no symmetry): `WxH:` + hex words, most significant first
 *   budget INTEGER  the regions the computation was allowed
 *   view   TEXT     the NimSummary as JSON; when a time limit cut the computation short, one more field
 *                   at the end, `cutMs`: that limit (ms, a finite number >= 0). No `cutMs`: the
 *                   computation had its whole budget (every view of a version-3 store reads so).
 *   crc    INTEGER  CRC-32 of `key|budget|view` (so it covers `cutMs` too)
 * A view is checked for shape, for agreement with itself and for lines and boxes that exist on the
 * board before it is used; a `cutMs` that is not a finite number >= 0 makes the row unusable. Its
 * long chain fields are not taken from the row: they need no search and are counted again from the
 * position (so a view written before the count took opened chains as they stand reads as new).
 *
 * Why a field inside the JSON and not a column: a dab of store version 3 that still has the file
 * open while a newer one migrates it (it checked the version when it opened the file) writes its
 * views with `INSERT ... VALUES (?, ?, ?, ?)`, which a fifth column would make fail (and with it the
 * transaction that writes its proofs). The field it does not know is ignored by its reader: it takes
 * a cut view as one of its whole budget (still true — every view is true as far as it goes — only
 * less complete than a new computation could be; such a dab also shows the field in its JSON). What
 * it writes has no `cutMs` and reads as a view of its whole budget, which it is: the last builds of
 * version 3 kept no view cut short (the first ones did, as whole-budget views; those read so too).
 *
 * What a row stands for (its "resources"): a computation given `budget` regions and, when cut,
 * `cutMs` ms (else no time limit) found no more than the view knows (nimKnowledge). The editor's
 * background views have no time limit; one its search cancelled is kept as cut at 0 ms (how long
 * it ran is not known), which the editor itself reads (it takes any stored view, one that knows
 * nothing too: it holds the position's place for a verdict carried along the line) but a request
 * with a time limit above 0 does not.
 *
 * Rule of use (nimAnswers): a request for a view of `b` regions within `ms` ms (`ms` undefined: no
 * time limit) takes the stored view when
 *   - it knows everything (the value and the winning moves: no computation could add to it), or
 *   - `budget >= b`, and it was not cut, or it was cut and the request has a limit `ms <= cutMs`.
 * A request that asks for no more than the stored computation had would, but for memo warmth and
 * load, end as it did: taking the stored view is what makes a warm run show what the cold run showed.
 * Otherwise (more regions, or cut and asked with no limit or a longer one) the view is computed again.
 *
 * Rule of keeping (keptNim; in a process's pending views, and at a flush inside the write
 * transaction against the row another process may have written meanwhile):
 *   - the view kept is the one that knows more (nimKnowledge); on a tie, the stored one if its
 *     resources cover the new one's, else the new one;
 *   - the resources kept are the larger of the two when one covers the other (the view kept knows at
 *     least as much as either computation found, so it answers whatever either would have), else
 *     the kept view's own (the other's are dropped: a request only they covered computes again).
 *   Resources cover others when `budget` is at least theirs and they were not cut, or both were cut
 *   and `cutMs` is at least theirs.
 * So a view that knows less never replaces one that knows more; a view computed again that knows no
 * more (it was asked for with more time than the stored one had) only raises what the row stands
 * for, and the same request is answered from the store next time.
 */
import type { BoardState } from '../engine/board/state';
import { nimKnowledge, type NimSummary } from '../engine/analysis/nim';
import { longChainRuleOf } from '../engine/nimstring';

const isNimber = (v: unknown) => v === 'loony' || v === 'unknown' || (Number.isInteger(v) && (v as number) >= 0);
const isCount = (v: unknown) => Number.isInteger(v) && (v as number) >= 0;

/** A stored view with what its computation had: `budget` regions, and `cutMs` ms when a time limit cut it. */
export interface NimRecord {
  budget: number;
  /** The time limit (ms) that cut the computation short; undefined: it had its whole budget. */
  cutMs?: number;
  view: NimSummary;
}

/** The stored text of a view (the view's JSON, with `cutMs` last when it was cut). */
export function nimViewText(view: NimSummary, cutMs?: number): string {
  return JSON.stringify(cutMs === undefined ? view : { ...view, cutMs });
}

/** A stored view's text checked against the position it belongs to (see the header); else undefined. */
export function checkNimView(state: BoardState, text: string): { view: NimSummary; cutMs?: number } | undefined {
  const r = parseNimView(text);
  if (!r) return undefined;
  const n = r.view;
  const g = state.geometry;
  for (const x of n.regions)
    if (!x.boxes.every((b) => Number.isInteger(b) && b >= 0 && b < g.boxCount)) return undefined;
  if (n.winningMoves !== undefined) {
    if (!Array.isArray(n.winningMoves)) return undefined;
    if (!n.winningMoves.every((l) => Number.isInteger(l) && l >= 0 && l < g.lineCount && !state.drawn[l]))
      return undefined;
  }
  // the long chain rule needs no search: counted again from the position, never taken from the row
  // (a view written before the count took opened chains and loops as they stand reads as new)
  const rule = longChainRuleOf(state);
  return {
    ...r,
    view: {
      ...n,
      longChains: rule.currentLongChains,
      loops: rule.currentLoops,
      wantsLongChains: rule.wantsLongChains,
      currentFavoursPlayerToMove: rule.currentFavoursPlayerToMove,
    },
  };
}

/**
 * A view's text, checked for shape and for agreement with itself (everything but the board): the
 * view without `cutMs`, and `cutMs`; else undefined.
 */
export function parseNimView(text: string): { view: NimSummary; cutMs?: number } | undefined {
  let raw: NimSummary & { cutMs?: unknown };
  try {
    raw = JSON.parse(text) as NimSummary & { cutMs?: unknown };
  } catch {
    return undefined;
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return undefined;
  const { cutMs, ...n } = raw;
  if (cutMs !== undefined && !(typeof cutMs === 'number' && Number.isFinite(cutMs) && cutMs >= 0)) return undefined;
  if (!isNimber(n.nimber)) return undefined;
  if (!isCount(n.longChains) || !isCount(n.loops)) return undefined;
  if (n.wantsLongChains !== 'even' && n.wantsLongChains !== 'odd') return undefined;
  if (typeof n.currentFavoursPlayerToMove !== 'boolean' || !Array.isArray(n.regions)) return undefined;
  // the chain fight, when given, is a boolean that agrees with a known nim-value
  if (n.moverWinsChainFight !== undefined) {
    if (typeof n.moverWinsChainFight !== 'boolean') return undefined;
    if (n.nimber !== 'unknown' && n.moverWinsChainFight !== (n.nimber !== 0)) return undefined;
  }
  for (const r of n.regions)
    if (typeof r !== 'object' || r === null || !isNimber(r.nimber) || !Array.isArray(r.boxes)) return undefined;
  // regions whose values are all known add up (nim-sum) to the position's value and decide the fight
  if (n.regions.every((r) => typeof r.nimber === 'number')) {
    const sum = n.regions.reduce((x, r) => x ^ (r.nimber as number), 0);
    if (typeof n.nimber === 'number' && n.nimber !== sum) return undefined;
    if (n.moverWinsChainFight !== undefined && n.moverWinsChainFight !== (sum !== 0)) return undefined;
  }
  return { view: n, ...(cutMs !== undefined ? { cutMs } : {}) };
}

/**
 * What a stored view knows (nimKnowledge), read from its text without the position; -1 when the
 * text is not a view, or one that contradicts itself (a view the reader would refuse blocks nothing).
 */
export function storedNimKnowledge(text: string): number {
  const r = parseNimView(text);
  return r ? nimKnowledge(r.view) : -1;
}

/** `a`'s resources cover `b`'s: at least its regions, and no cut, or a cut at least as late (header). */
export function covers(a: Omit<NimRecord, 'view'>, b: Omit<NimRecord, 'view'>): boolean {
  if (a.budget < b.budget) return false;
  if (a.cutMs === undefined) return true;
  return b.cutMs !== undefined && a.cutMs >= b.cutMs;
}

/**
 * The stored view answers a request for `budget` regions within `ms` ms (undefined: no time limit):
 * the rule of use of the header.
 */
export function nimAnswers(stored: NimRecord, budget: number, ms?: number): boolean {
  if (nimKnowledge(stored.view) === 3) return true;
  return covers(stored, { budget, ...(ms !== undefined ? { cutMs: ms } : {}) });
}

/** Of a stored record and a new one of the same position, what is kept: the rule of keeping of the header. */
export function keptNim(stored: NimRecord, fresh: NimRecord): NimRecord {
  const ks = nimKnowledge(stored.view),
    kf = nimKnowledge(fresh.view);
  const own = ks > kf || (ks === kf && covers(stored, fresh)) ? stored : fresh;
  const resources = covers(stored, fresh) ? stored : covers(fresh, stored) ? fresh : own;
  return {
    budget: resources.budget,
    ...(resources.cutMs !== undefined ? { cutMs: resources.cutMs } : {}),
    view: own.view,
  };
}
