/**
 * In-process search for the CLI: one solver and one cache for every position of every file, and
 * the budget that keeps a run bounded. Each record is proven from its end backwards (later
 * positions are cheap and fill the solver's table for the earlier ones), in two passes.
 *
 * The first pass proves results: each position gets a result-only search with at most the
 * per-position budget, a brief search of the margin when the result is proven, and a brief
 * Nimstring view, leaving NARROW_RESERVE per-position budgets of the record's for the second pass.
 * A position whose result stays unproven gets a second, result-only search with what the record's
 * budget has beyond the time kept for later work (extensionMs), so a larger --record-budget-ms
 * pushes the proven results further back. If that fails too, earlier positions (deeper still) get
 * only a short probe, and after a few such failures none: their bounds then come from earlier
 * proofs alone, and the report says why. (Results first: on the bench's plausible 5x5 records, a
 * full search of each position spent the record's budget on the margins of the late positions, and
 * the earliest proven result came one or two plies later on half of them.)
 *
 * Between the passes (viewLine), the positions whose result stays unproven, which the first pass
 * gave no Nimstring view, get a brief one each, from the end backwards, until two say nothing: where
 * no value is proven, who wins the chain fight is what a reader can still be told, and it is taken
 * from the second pass's share on purpose (results first, then the chain fight where nothing else
 * is known, then the margins of positions whose result is known; measured in viewLine's comment).
 *
 * The second pass (narrowLine), again from the end, narrows the margins of the positions whose
 * result is proven, searches the best move instead of a mistake played from an exact position
 * (briefly), and gives each position's Nimstring view more time. The optimal moves of the other
 * exact positions, and of mistakes whose moves were not found then, come last while the record's
 * budget lasts, mistakes first. The record's budget is a RecordClock (which also knows the run's
 * --total-budget-ms): a record whose budget cut a search keeps its trace in the store, and a run of
 * it with the same budgets replays that trace (recordClock.ts), so a warm run repeats the cold one at
 * once. For that, every ask of the clock depends on the budgets and on what is finally proven, never
 * on what the store held before.
 */
import type { BoardState } from '../engine/board/state';
import type { Evaluation } from '../engine/analysis/evaluation';
import { BATCH_TABLE_MB } from '../engine/solver';
import { completeMoves, createSolver, quickEvaluate, searchEvaluate } from '../engine/analysis/evaluatePosition';
import { allLines, type DabDocument, type LineModel } from '../engine/notation';
import { longChainFacts, nimSummary, type NimSummary } from '../engine/analysis/nim';
import { playedMove, playedMoveFloor, resultOf, scoreLead } from '../engine/analysis/prove';
import {
  CLI_POSITION_BUDGET_MS,
  CLI_RECORD_BUDGET_MS,
  CLI_SEARCH_CACHE_ENTRIES,
  NIM_BUDGET_CLI,
  NIM_BUDGET_CLI_PROBE,
} from '../engine/limits';
import { searchOnce, type ProofCache } from '../store';
import { solverThreads } from '../solverThreads';
import type { ProgressInfo } from './progress';
import { provenSoFarWords, type UnprovenReason } from '../engine/phrasebook/proofs';
import { parseTrace, RecordClock, traceKey } from './recordClock';

export interface SearchCache {
  lookup: (state: BoardState) => Evaluation;
  /** Nimstring view of positions that need no search (searched ones carry their own). */
  nim: (state: BoardState) => NimSummary;
  /** Prove one position with the given budget unless it is already exact (value only, no moves). */
  prove: (state: BoardState, budget: PositionBudget) => Evaluation;
  /** An exact position's optimal moves and move values, within the budget (ms). */
  completeMoves: (state: BoardState, ms: number) => Evaluation | undefined;
  /**
   * The Nimstring view of a position `prove` has searched, within `nimMs` ms, unless it has one that
   * says who wins the chain fight (one that does not is computed again, with the memo of the first).
   */
  nimView: (state: BoardState, nimBudget: number, nimMs: number) => NimSummary | undefined;
}

/** Proven bounds from the store joined with a proven lower bound from elsewhere (both are proofs). */
function withFloor(
  state: BoardState,
  known: { lower: number; upper: number } | undefined,
  floor: number | undefined,
): { lower: number; upper: number } | undefined {
  if (floor === undefined) return known;
  const r = state.openBoxCount();
  const lower = Math.max(known?.lower ?? -r, floor),
    upper = known?.upper ?? r;
  return lower <= upper ? { lower, upper } : known;
}

function remember<V>(map: Map<string, V>, key: string, value: V): V {
  map.set(key, value);
  if (map.size > CLI_SEARCH_CACHE_ENTRIES) map.delete(map.keys().next().value!);
  return value;
}

export const DEFAULT_POSITION_BUDGET_MS = CLI_POSITION_BUDGET_MS;
export const DEFAULT_RECORD_BUDGET_MS = CLI_RECORD_BUDGET_MS;
/** After this many positions of a record whose result stayed unproven, earlier ones are not searched. */
const FAILURES_BEFORE_STOP = 3;
/** After a failure, earlier positions get this fraction of the per-position budget (result only; whole ms). */
const PROBE_FRACTION = 0.15;
/**
 * Per-position budgets of a record's budget that the first pass (results) leaves to the second
 * (margins, mistakes' best moves, Nimstring views). With 1, on the bench's ten plausible 5x5 records,
 * the first proven result came earlier on three and later on none, the medians of the first exact
 * value and the first chain-fight verdict stayed (README; other shares were not measured).
 */
const NARROW_RESERVE = 1;
/** A position's second search is at most this many per-position budgets. */
const EXTENSION_FACTOR = 4;
/**
 * Per-position budgets of a record's budget that second searches leave to what comes after them:
 * the second pass (NARROW_RESERVE, the same share) and the optimal moves of the exact positions.
 */
const EXTENSION_RESERVE = NARROW_RESERVE;
/**
 * The optimal moves of a position a mistake was played from are searched in the second pass, for
 * at most this fraction of the per-position budget (measured on the bench's plausible 5x5 records:
 * about 0.2 s for every such position from ply 22 on, 1-3.5 s at plies 19-20); those it does not
 * find wait for what the record's budget has left after both passes. Asked in whole ms,
 * as every ask is: the store keeps how long a search tried in whole ms, and a warm run must find
 * that it tried as long as it is asked to (else it would search again).
 */
const QUICK_MOVES_FRACTION = 0.2;
/** A second search shorter than this fraction of the per-position budget is not made. */
const EXTENSION_MIN_FRACTION = 0.15;
/** A proven result's margin is searched at once for this fraction of the per-position budget. */
const QUICK_MARGIN_FRACTION = 0.2;
/**
 * The first pass's Nimstring view of a position: this fraction of the per-position budget. (0.5,
 * on the bench's ten records: the first proven result later on two records, the first chain-fight
 * verdict earlier on one.)
 */
const QUICK_NIM_FRACTION = 0.3;
/**
 * Between the passes (viewLine), a Nimstring view of a position whose result is unproven: this
 * fraction of the per-position budget (0.3, on the bench's ten records: one record's earliest
 * chain-fight verdict 2 plies later, the rest the same, in two runs each).
 */
const VIEW_FRACTION = 0.2;
/**
 * After this many of those views fail to say who wins the chain fight, earlier ones get none (3 did
 * no better on the bench's ten records).
 */
const VIEW_FAILURES_BEFORE_STOP = 2;

/**
 * The second, result-only search a position gets when its first search left its result
 * unproven: what the record's budget has beyond EXTENSION_RESERVE per-position budgets, at most
 * EXTENSION_FACTOR of them (0: none). The solver's table still holds the first search's work, so
 * the second one goes on from it. Its ask depends on the options alone and goes through the
 * record's clock, so that a run with a warm store makes the same decisions as the cold run that
 * filled it: the second search's proofs are stored with both searches' budget, and the warm run,
 * meeting the position, reads them for both searches and continues exactly as the cold run did.
 */
function extensionMs(clock: RecordClock, o: Pick<ProveOptions, 'positionBudgetMs'>): number {
  const ms = clock.grant(EXTENSION_FACTOR * o.positionBudgetMs, EXTENSION_RESERVE * o.positionBudgetMs);
  return ms >= EXTENSION_MIN_FRACTION * o.positionBudgetMs ? ms : 0;
}

export interface PositionBudget {
  /** The position's search time, an earlier search of it included (searchMs): what the store records. */
  ms: number;
  /**
   * This search's own time when it goes on from an earlier search of the position in the same
   * solver (its table holds that one's work); default ms.
   */
  searchMs?: number;
  /** A guess of the value, to order the window tests. */
  guess?: number;
  resultOnly?: boolean;
  /** Also the optimal moves and move values of an exact position (default true). */
  moveValues?: boolean;
  /** A proven lower bound on the value (from the move played here and the next position). */
  floor?: number;
}

export function createSearchCache(
  budget: {
    timeBudgetMs: number;
    nodeBudget?: number;
    tableMb?: number;
    /** Solver threads (undefined: every core). */
    threads?: number;
  },
  proofs?: ProofCache,
): SearchCache {
  const solver = createSolver(budget.tableMb ?? BATCH_TABLE_MB, solverThreads(budget.threads));
  const cache = new Map<string, Evaluation>();
  const nims = new Map<string, NimSummary>();
  /** How long the optimal moves of an exact position were searched for in this run without being found (ms). */
  const movesTried = new Map<string, number>();
  // the proof store first: an exact stored value is the answer; stored bounds join what the search proves
  // `nimBudget`: regions of a Nimstring view with no time limit (0: none; the record's schedule
  // asks for its views by nimView, within its budget)
  const run = (state: BoardState, b: PositionBudget, nimBudget: number): Evaluation => {
    const e = searchOnce(
      proofs,
      state,
      (known) =>
        searchEvaluate(solver, state, {
          known: withFloor(state, known, b.floor),
          timeBudgetMs: b.searchMs ?? b.ms,
          nodeBudget: budget.nodeBudget,
          nimBudget: 0, // the Nimstring view comes from the store, or is computed once below
          guess: b.guess,
          resultOnly: b.resultOnly,
          moveValues: b.moveValues,
        }),
      b.ms,
    );
    if (nimBudget > 0) e.nim ??= storedOrComputed(state, nimBudget);
    return e;
  };
  /**
   * The store's Nimstring view for `nimBudget` regions within `nimMs` ms (undefined: no limit), else a
   * new one, stored with the limit when the limit cut it short (store/nimView.ts says when a stored
   * view answers: one cut at `nimMs` answers the same request again, so a warm run shows what the
   * cold run showed).
   */
  const storedOrComputed = (state: BoardState, nimBudget: number, nimMs?: number): NimSummary => {
    // no whole-board search (analysis/nim.ts): within the record's share of time it decided nothing
    // more on the bench's ten records, and the time it took left later positions no view at all
    const compute = () => nimSummary(state, nimBudget, true, { timeBudgetMs: nimMs });
    return proofs ? proofs.nim(state, nimBudget, compute, nimMs) : compute();
  };
  return {
    nim(state) {
      const key = state.key();
      let n = nims.get(key);
      // (positions the record's loop does not search, endgames mostly: the smaller budget, no time limit)
      if (!n) n = remember(nims, key, storedOrComputed(state, NIM_BUDGET_CLI_PROBE));
      return n;
    },
    lookup(state) {
      const key = state.key();
      let e = cache.get(key);
      if (!e) e = remember(cache, key, run(state, { ms: budget.timeBudgetMs }, NIM_BUDGET_CLI));
      return e;
    },
    prove(state, b) {
      const key = state.key();
      const old = cache.get(key);
      if (old && (old.status === 'exact' || b.ms <= (old.ms ?? 0))) return old;
      let e = run(state, b, 0);
      // a second search of a position (extensionMs) shows what the store now holds for it: both
      // searches' proofs, merged as a warm run will read them back
      const kept = old ? proofs?.get(state) : undefined;
      if (kept) e = { ...kept, ms: e.ms };
      // (the view nimView gave the position stays with it)
      if (old?.nim) e = { ...e, nim: old.nim };
      // a later, shorter search can only add proofs: keep the tighter bounds of the two
      if (old && old.status !== 'exact' && e.status !== 'exact') {
        e.lower = Math.max(e.lower, old.lower);
        e.upper = Math.min(e.upper, old.upper);
      }
      return remember(cache, key, e);
    },
    nimView(state, nimBudget, nimMs) {
      const e = cache.get(state.key());
      if (!e || (e.nim && (e.nim.moverWinsChainFight !== undefined || nimMs === 0))) return e?.nim;
      // no time left for it (the record's or the run's budget is spent): only a view the store holds.
      // Even a computation given 0 ms costs: it notices its deadline only after some regions, which
      // on a 12x12 board took the whole run past --total-budget-ms (found by an audit).
      // (the long chain facts need no search: a position given no time still gets them)
      e.nim =
        nimMs === 0 ? (proofs?.storedNim(state) ?? longChainFacts(state)) : storedOrComputed(state, nimBudget, nimMs);
      return e.nim;
    },
    completeMoves(state, ms) {
      const key = state.key();
      const old = cache.get(key);
      if (!old || old.status !== 'exact' || old.best.length > 0) return old;
      // this run or an earlier one searched for them as long and found none: the same search again would not
      if (Math.max(movesTried.get(key) ?? 0, proofs?.lookup(state)?.triedMs ?? 0) >= ms) return old;
      const done = completeMoves(solver, state, old, { timeBudgetMs: ms });
      if (done.best.length === 0) remember(movesTried, key, ms);
      proofs?.put(state, done, ms);
      return remember(cache, key, done);
    },
  };
}

export interface RecordProof {
  /** Entry index in the document. */
  entry: number;
  ms: number;
  budgetMs: number;
  /** Main-line positions, exact ones, ones with the result proven. */
  positions: number;
  exact: number;
  resultProven: number;
  /** Main line: earliest ply with a proven result / an exact value (null when none). */
  firstResultPly: number | null;
  firstExactPly: number | null;
  /** Main-line positions not proven exactly, with why (searched plies carry the time spent). */
  unproven: { ply: number; reason: UnprovenReason; ms: number; resultProven: boolean }[];
  /** Positions of the record's variations (their starts, which are their parents', aside): how many, exact, with the result proven (from the report: reconcileProof). */
  variationPositions: number;
  variationExact: number;
  variationResultProven: number;
}

export interface ProveOptions {
  /** Search time per position (ms). */
  positionBudgetMs: number;
  /** Search time per record (ms). */
  recordBudgetMs: number;
  /** Absolute deadline (Date.now() ms) of the whole run, if any. */
  deadline?: number;
  /** The run's total budget that set the deadline (ms): part of a record trace's key. */
  totalBudgetMs?: number;
  /** Called before each position and after each finished search (for a progress line). */
  onProgress?: (p: ProgressInfo) => void;
  /** Where records' traces are kept (recordClock.ts: a warm run replays the cold run's budget). */
  traces?: Pick<ProofCache, 'trace' | 'keepTrace'>;
}

/**
 * Prove the positions of each record of the document from the last to the first, within the
 * budgets. Returns what was proven and what was not, per record (entries with board positions).
 */
export function proveDocument(cache: SearchCache, doc: DabDocument, o: ProveOptions): RecordProof[] {
  const out: RecordProof[] = [];
  doc.models.forEach((m, entry) => {
    if (m.states.length === 0 || m.leftOut) return;
    const t0 = Date.now();
    const lines = [...allLines(m)];
    const key = traceKey(
      lines.map((l) => l.states.map((s) => s.key())),
      o,
    );
    const clock = new RecordClock(o.recordBudgetMs, parseTrace(o.traces?.trace(key)), t0, o.deadline);
    const stats: RecordProof = {
      entry,
      ms: 0,
      budgetMs: o.recordBudgetMs,
      positions: m.states.length,
      exact: 0,
      resultProven: 0,
      firstResultPly: null,
      firstExactPly: null,
      unproven: [],
      variationPositions: 0,
      variationExact: 0,
      variationResultProven: 0,
    };
    // the main line first, then the variations, each from its end backwards, in the record's budget
    const passes = lines.map((line, k) => proveLine(cache, line, k === 0, stats, clock, o, doc.models.length));
    const proven = passes.map((p) => p.proven);
    // the chain fight where the results stay unknown, before the margins of the known ones
    lines.forEach((line, i) => viewLine(cache, line, passes[i], clock, o));
    lines.forEach((line, i) => narrowLine(cache, line, passes[i], i === 0, stats, clock, o));
    // then, while the record's budget lasts, the optimal moves of the exact positions: first those a
    // mistake was played from (the review names the best move instead), then the others; each line
    // from its end (cheaper positions first). Asked for whether the store already holds them or not,
    // as every ask is (recordClock.ts): the asks depend on what is proven, never on what is stored.
    for (const fromMistake of [true, false])
      lines.forEach((line, i) => {
        for (let k = line.states.length - 1; k >= 0; k--) {
          if (!movesWanted(proven[i][k]) || mistakePlayedFrom(line, proven[i], k) !== fromMistake) continue;
          const ms = clock.grant(o.positionBudgetMs);
          if (ms <= 0) break;
          cache.completeMoves(line.states[k], ms);
        }
      });
    if (clock.cut) o.traces?.keepTrace(key, clock.trace());
    stats.unproven.reverse();
    stats.ms = Date.now() - t0;
    out.push(stats);
  });
  return out;
}

/** The evaluation with a proven lower bound from elsewhere (the move played from it) joined in. */
function joinFloor(e: Evaluation, floor: number | undefined): Evaluation {
  return floor !== undefined && e.status !== 'exact' && floor > e.lower && floor <= e.upper
    ? { ...e, lower: floor }
    : e;
}

/** A position proven exact by search, whose optimal moves the search has left for later (completeMoves). */
function movesWanted(e: Evaluation | undefined): boolean {
  return e?.status === 'exact' && e.method === 'search';
}

/**
 * Whether the move played from a line's position k is proven to lose value: that position is
 * searched and exact (movesWanted), and the next one's bounds prove the move worth less (as the
 * review finds mistakes: "gives away at least N boxes" needs no exact value after the move).
 * `proven`: proveLine's evaluations of the line.
 */
function mistakePlayedFrom(line: LineModel, proven: readonly Evaluation[], k: number): boolean {
  const e = proven[k],
    next = proven[k + 1];
  if (!movesWanted(e) || next === undefined) return false;
  const { completes, again } = playedMove(line.states[k], line.states[k + 1]);
  // the move's most: completes + v(next) when its player moves again, completes - v(next) when not
  const most = again ? completes + next.upper : completes - next.lower;
  return most < e.value!;
}

function resultProven(state: BoardState, e: Evaluation): boolean {
  return resultOf(e.lower, e.upper, scoreLead(state)) !== null;
}

function proveLine(
  cache: SearchCache,
  line: LineModel,
  main: boolean,
  stats: RecordProof,
  clock: RecordClock,
  o: ProveOptions,
  entries: number,
): LinePass {
  const proven: Evaluation[] = [];
  const searched: LinePass['searched'] = [];
  let failures = 0;
  let last = '';
  let guess: number | undefined;
  /** A proven lower bound on the next (earlier) position's value: it is worth at least the move played from it. */
  let floor: number | undefined;
  for (let k = line.states.length - 1; k >= 0; k--) {
    const state = line.states[k];
    const ply = line.startPly + k;
    const quick = quickEvaluate(state);
    let e: Evaluation;
    let reason: UnprovenReason | undefined;
    let total = 0;
    if (quick) e = quick.evaluation;
    else {
      let ms = o.positionBudgetMs;
      reason = 'budget';
      if (failures >= FAILURES_BEFORE_STOP) [ms, reason] = [0, 'skipped'];
      else if (failures > 0) [ms, reason] = [Math.min(ms, Math.max(20, Math.round(ms * PROBE_FRACTION))), 'probe'];
      const granted = clock.grant(ms, NARROW_RESERVE * o.positionBudgetMs);
      if (granted < ms) [ms, reason] = [granted, clock.cutByTotal ? 'total-budget' : 'record-budget'];
      o.onProgress?.({
        entry: stats.entry,
        entries,
        ply,
        plies: line.startPly + line.states.length - 1,
        proven: last,
        msLeft: Math.max(0, clock.left()),
      });
      // ms = 0: no search, only the bounds the solver's table already holds
      e = cache.prove(state, {
        ms,
        floor,
        moveValues: false,
        guess,
        resultOnly: true,
      });
      total = ms;
      // a full search that left the result unproven: a second one when the record's budget allows;
      // asked for whether it is needed or not: a warm run's first search reads the second one's
      // proofs, and its clock must be asked what the cold run's was (recordClock.ts)
      const offered = reason === 'budget' ? extensionMs(clock, o) : 0;
      if (offered > 0 && !resultProven(state, joinFloor(e, floor))) {
        e = cache.prove(state, {
          ms: ms + offered,
          searchMs: offered,
          floor,
          moveValues: false,
          guess,
          resultOnly: true,
        });
        total = ms + offered;
        // one whose result it proves reads as searched with the whole budget: a warm run, reading
        // the proof, makes no second search there
        if (!resultProven(state, joinFloor(e, floor))) reason = 'extended';
      }
    }
    if (reason === 'budget') {
      // a proven result's margin at once, briefly (the late ones take a fraction of a second), and
      // a first Nimstring view; asked for whether needed or not, as the second search is
      const keep = NARROW_RESERVE * o.positionBudgetMs;
      const mg = clock.grant(Math.round(QUICK_MARGIN_FRACTION * o.positionBudgetMs), keep);
      if (mg > 0 && e.status !== 'exact' && resultProven(state, joinFloor(e, floor))) {
        e = cache.prove(state, { ms: total + mg, searchMs: mg, floor, guess, moveValues: false });
        total += mg;
      }
      cache.nimView(state, NIM_BUDGET_CLI, clock.grant(Math.round(QUICK_NIM_FRACTION * o.positionBudgetMs), keep));
    }
    if (!quick) searched[k] = { ms: total, guess, reason: reason! };
    // the played move's lower bound joins what the search proved (as the review does)
    e = joinFloor(e, floor);
    proven[k] = e;
    const result = resultOf(e.lower, e.upper, scoreLead(state));
    if (result === null && !quick) failures++;
    last = provenSoFarWords(ply, e, result);
    if (main) {
      if (result !== null) {
        stats.resultProven++;
        stats.firstResultPly = ply;
      }
      if (e.status === 'exact') {
        stats.exact++;
        stats.firstExactPly = ply;
      } else stats.unproven.push({ ply, reason: reason ?? 'budget', ms: e.ms ?? 0, resultProven: result !== null });
    }
    // the next (earlier) position's value, seen by its mover, is close to this one's
    // (a result-only proof's bounds are one-sided: the value is likely near the bound it proved)
    const R = state.openBoxCount();
    const mid =
      e.status === 'exact'
        ? e.value!
        : e.lower > -R && e.upper === R
          ? e.lower
          : e.upper < R && e.lower === -R
            ? e.upper
            : Math.round((e.lower + e.upper) / 2);
    const prev = k > 0 ? line.states[k - 1] : undefined;
    if (prev) {
      const { completes, again } = playedMove(prev, state);
      guess = again ? completes + mid : -mid;
      floor = playedMoveFloor(completes, again, e.status === 'exact' ? { lower: e.value!, upper: e.value! } : e);
    }
  }
  return { proven, searched };
}

interface LinePass {
  proven: Evaluation[];
  /** Per searched position: its search time so far (ms), the guess it was searched with, and why it may stay unproven. */
  searched: ({ ms: number; guess: number | undefined; reason: UnprovenReason } | undefined)[];
}

/**
 * Between the passes: the Nimstring views of the positions whose result the first pass left
 * unproven (it gave them none), from the line's end backwards, each for VIEW_FRACTION of the
 * per-position budget, until VIEW_FAILURES_BEFORE_STOP of them do not say who wins the chain fight.
 * Where no value is proven, the chain fight's winner is what the reader can be told, and the views
 * of the later positions have filled the memo that the earlier ones start from. Every ask depends
 * on the budgets and on what is finally proven (a view's verdict is stored with its limit and read
 * back the same by a warm run), as the passes' asks do.
 *
 * Measured on the bench's ten plausible 5x5 records (`dab analyze --json`, fresh store; two runs
 * against two of the build before): the earliest chain-fight verdict came 1-4 plies earlier on five
 * records and 2 plies later on one (median ply 18, 19-19.5 before); the earliest proven results were
 * the same; the earliest exact value came a ply later on three or four records and one earlier
 * (median 19 both), since the second pass's margins get what these views leave. Keeping one more
 * per-position budget from the first pass for these views instead made the earliest result later on
 * two to four records; capping all of a record's views at one per-position budget, the verdict's
 * median was 18.5.
 */
function viewLine(cache: SearchCache, line: LineModel, pass: LinePass, clock: RecordClock, o: ProveOptions): void {
  let failures = 0;
  for (let k = line.states.length - 1; k >= 0 && failures < VIEW_FAILURES_BEFORE_STOP; k--) {
    const s = pass.searched[k];
    // (a position searched with its whole budget had its first view in the first pass)
    if (!s || s.reason === 'budget') continue;
    const ms = clock.grant(Math.round(VIEW_FRACTION * o.positionBudgetMs));
    if (cache.nimView(line.states[k], NIM_BUDGET_CLI, ms)?.moverWinsChainFight === undefined) failures++;
  }
}

/**
 * The second pass over a line, from its end backwards, with what the first left of the record's
 * budget: the margin of each position whose result is proven and value not (until a few such
 * searches fail), the best move instead of a mistake played from an exact position (briefly: most
 * are cheap), and each position's Nimstring view, again with more time where the first pass's did
 * not say who wins the chain fight. Every ask of the record's clock depends on what is proven at
 * the end, never on what this run had proven by then, so a warm run, which reads the final proofs
 * from the store in its first pass, asks the clock exactly what the cold run asked (recordClock.ts).
 */
function narrowLine(
  cache: SearchCache,
  line: LineModel,
  pass: LinePass,
  main: boolean,
  stats: RecordProof,
  clock: RecordClock,
  o: ProveOptions,
): void {
  let failures = 0,
    nimFailures = 0;
  for (let k = line.states.length - 1; k >= 0; k--) {
    const s = pass.searched[k];
    if (!s) continue;
    const state = line.states[k];
    // the floor the next position's final bounds give (the first pass saw them before this pass)
    const next = pass.proven[k + 1];
    let floor: number | undefined;
    if (next) {
      const { completes, again } = playedMove(state, line.states[k + 1]);
      floor = playedMoveFloor(completes, again, next);
    }
    let e = joinFloor(pass.proven[k], floor);
    // asked for whether needed or not (a warm run's first pass has read the margin this one proves)
    const ask = s.reason === 'budget' && failures < FAILURES_BEFORE_STOP ? o.positionBudgetMs : 0;
    const ms = ask > 0 ? clock.grant(ask) : 0;
    const wanted = e.status !== 'exact' && resultProven(state, e);
    if (wanted && ms > 0)
      e = joinFloor(
        cache.prove(state, { ms: s.ms + ms, searchMs: ms, floor, guess: s.guess, moveValues: false }),
        floor,
      );
    if (ask > 0 && wanted && e.status !== 'exact') failures++;
    const u = main && e.status !== 'exact' ? stats.unproven.find((x) => x.ply === line.startPly + k) : undefined;
    if (u) {
      u.ms = e.ms ?? 0;
      // a margin the record's budget left no time for says so
      if (wanted && ms < ask) u.reason = clock.cutByTotal ? 'total-budget' : 'record-budget';
      // one given only the first pass's brief margin search, after later margins failed
      else if (wanted && ask === 0 && u.reason === 'budget') u.reason = 'margin-probe';
    }
    pass.proven[k] = e;
    // the best move instead of a mistake played from here, at once when it is cheap (most are)
    if (mistakePlayedFrom(line, pass.proven, k)) {
      const mm = clock.grant(Math.round(QUICK_MOVES_FRACTION * o.positionBudgetMs));
      if (mm > 0) cache.completeMoves(state, mm);
    }
    const n = cache.nimView(
      state,
      nimFailures > 0 ? NIM_BUDGET_CLI_PROBE : NIM_BUDGET_CLI,
      clock.grant(o.positionBudgetMs),
    );
    if (n && n.moverWinsChainFight === undefined) nimFailures++;
  }
}
