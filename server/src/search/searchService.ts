/**
 * Anytime background search for the language server. Each open document hands in its plan (the
 * board positions that need search, each record from its end backwards) and where its cursor is;
 * the service keeps the search threads busy with the most useful attempt (schedule.ts), merges
 * every answer into what is known (knowledge.ts: results never get worse), charges the CPU time
 * to the document's background budget, cancels work no document needs any more (edits), lets the
 * cursor's position jump the queue, and tells the server when a position's answer changed.
 *
 * Lookups never wait and never start work: they return what is proven now, marked 'pending'
 * while more work is planned for it, or 'unknown' with the reason once nothing more will be done.
 */
import { CpuOverhead } from './cpuOverhead';
import { join } from 'node:path';
import { availableParallelism } from 'node:os';
import type { BoardState } from '../engine/board/state';
import { nothingProven, type Evaluation } from '../engine/analysis/evaluation';
import type { NimSummary } from '../engine/analysis/nim';
import {
  DEFAULT_SOLVER_THREADS_MAX,
  NIM_BUDGET_WORKER,
  SEARCH_KNOWN_ENTRIES,
  STORE_READ_SLICE_MS,
} from '../engine/limits';
import {
  NOT_SOLVED_WITHIN_LIMITS,
  SEARCHING_IN_BACKGROUND,
  backgroundBudgetSpent,
  searchFailed,
  searchLimitReached,
} from '../engine/phrasebook';
import { deserializeEvaluation, type SearchJob, type WorkerMessage } from './messages';
import { betterNim, mergeEvaluations } from './knowledge';
import { playedMove, playedMoveFloor } from '../engine/analysis/prove';
import { attemptBudget, budgetLeft, pickJob, type DocumentPlan, type PickedJob, type PositionState } from './schedule';
import { WorkerPool } from './workerPool';

export interface SearchSettings {
  /** Longest single attempt at one position, ms (0 = no limit). */
  timeBudgetMs: number;
  /** Nodes per attempt (0 = no limit); with a node limit every position gets one attempt. */
  nodeBudget: number;
  /** CPU seconds of background search per document (0 = no limit). */
  backgroundBudgetSeconds: number;
  /**
   * Search workers (0 = automatic: half the cores, at least 1, at most 4, sharing the cores but
   * one between their solvers' threads, at most 2 each; N: N workers of one thread each).
   */
  threads: number;
  /** Transposition-table memory per search worker (shared by its solver threads), MiB (a change restarts idle workers). */
  tableMb: number;
}

/**
 * The persistent store of proofs (store/index.ts's ProofCache): consulted before a position is
 * searched, told every improved answer with the budget of the attempt that could not finish it,
 * and keeper of the Nimstring views the workers compute.
 */
export interface ProofStore {
  /** The stored proof, and the longest attempt (ms) that ended without the exact value. */
  lookup(state: BoardState): { evaluation: Evaluation; triedMs: number } | undefined;
  put(state: BoardState, evaluation: Evaluation, triedMs?: number): void;
  /** A stored Nimstring view that knows at least `atLeast` (nimKnowledge; default 1), if any (however it was computed). */
  storedNim(state: BoardState, atLeast?: number): NimSummary | undefined;
  /** Keep a view computed with `budget` regions; `cutMs`: cut short (0: when is not known). */
  keepNim(state: BoardState, budget: number, n: NimSummary, cutMs?: number): void;
}

/** One position a document wants searched. */
export interface PlanItem {
  state: BoardState;
  label: string;
  /** The record (entry) it belongs to. */
  group: number;
  /** The position after the move the record plays here: what is proven of it bounds this one from below. */
  next?: BoardState;
}

/** The move a record plays from a planned position: the next position's bounds give it a floor (playedMoveFloor). */
interface PlayedMove {
  nextKey: string;
  completes: number;
  again: boolean;
}

/** What the search is doing, for the progress report. */
export interface SearchActivity {
  running: (PickedJob & { startedAt: number })[];
  documents: { owner: string; proven: number; total: number; spentMs: number; budgetMs: number }[];
}

export interface SearchEvents {
  /** What is known about `key` changed: the documents in `owners` should be re-analysed. */
  onResult(key: string, owners: string[]): void;
  /** The set of running jobs or a document's budget changed (null: idle). */
  onActivity?(activity: SearchActivity | null): void;
}

interface Known {
  state: BoardState;
  evaluation?: Evaluation;
  level: number;
  settled: boolean;
  /** Why it is settled without an exact value. */
  reason?: string;
  /** Longest finished attempt, ms. */
  longestMs: number;
  /** The proof store has not been read for it yet (storeReads): it is read before it is searched. */
  storeUnread?: boolean;
  /** It waits in storeReads. */
  storeQueued?: boolean;
}

interface Running {
  job: SearchJob;
  pick: PickedJob;
  startedAt: number;
  cancelled?: boolean;
}

interface Doc extends DocumentPlan {
  /** Per planned position, the move the record plays there. */
  played: Map<string, PlayedMove>;
  everPlanned: Set<string>;
  /** The keys of `positions`. */
  keys: Set<string>;
  /** The budget ran out: the document's unknown positions say so. */
  spentNotified: boolean;
}

/**
 * Nimstring regions evaluated after an attempt at `level` (until the position's Nimstring view has
 * its value and winning moves): grows with the attempts like the search time, up to
 * NIM_BUDGET_WORKER (its cost is said there).
 */
function nimBudget(level: number): number {
  return Math.min(NIM_BUDGET_WORKER, 500 * 4 ** level);
}

/**
 * Nothing more to search: the exact value and the optimal moves are known. An exact value whose
 * moves an attempt's budget did not reach gets further attempts, like an unknown value.
 */
function complete(e: Evaluation | undefined): boolean {
  return e?.status === 'exact' && e.best.length > 0;
}

export function defaultThreads(): number {
  return Math.max(1, Math.min(4, Math.floor(availableParallelism() / 2)));
}

export class SearchService {
  private readonly known = new Map<string, Known>();
  private readonly docs = new Map<string, Doc>();
  private readonly running = new Map<number, Running>();
  private readonly pool: WorkerPool;
  private nextId = 1;
  private clock = 0;
  private disposed = false;
  /**
   * Positions whose store records are still to be read, in the order they became known. Read a
   * slice at a time between the server's requests: read all at once, the 9,000 positions of a large
   * document kept every request waiting 5-23 s (found by an audit).
   */
  private storeReads: string[] = [];
  private storeReadsAt = 0;
  private storeReadsScheduled = false;
  private proofStore: ProofStore | undefined;
  /** The process's CPU the workers' own clocks miss (garbage collection, bookkeeping), shared out. */
  private readonly overhead = new CpuOverhead();

  constructor(
    private settings: SearchSettings,
    private readonly events: SearchEvents,
    workerPath = join(__dirname, 'worker.js'),
  ) {
    this.pool = new WorkerPool(
      this.threadCount(),
      workerPath,
      (m) => this.onMessage(m),
      settings.tableMb,
      this.solverThreadCount(),
    );
  }

  /** The store to read and write (a server reads its settings after the first documents may be open). */
  useProofStore(store: ProofStore | undefined): void {
    this.proofStore = store;
    if (!store) return;
    for (const [key, k] of this.known) if (!k.settled) this.queueStoreRead(key, k);
    this.pump();
  }

  private queueStoreRead(key: string, k: Known): void {
    k.storeUnread = true;
    if (k.storeQueued) return;
    k.storeQueued = true;
    this.storeReads.push(key);
    if (this.storeReadsScheduled) return;
    this.storeReadsScheduled = true;
    setImmediate(() => this.readQueuedStore());
  }

  /** Reads queued store records for at most STORE_READ_SLICE_MS, then lets requests in and goes on. */
  private readQueuedStore(): void {
    this.storeReadsScheduled = false;
    if (this.disposed) return;
    const until = Date.now() + STORE_READ_SLICE_MS;
    while (this.storeReadsAt < this.storeReads.length && Date.now() < until) {
      const key = this.storeReads[this.storeReadsAt++];
      const k = this.known.get(key);
      if (!k) continue;
      k.storeQueued = false;
      if (k.storeUnread) this.readUnread(key, k);
    }
    if (this.storeReadsAt < this.storeReads.length) {
      this.storeReadsScheduled = true;
      setImmediate(() => this.readQueuedStore());
    } else {
      this.storeReads = [];
      this.storeReadsAt = 0;
    }
    this.pump();
  }

  private readUnread(key: string, k: Known): void {
    k.storeUnread = false;
    const before = k.evaluation;
    this.readStore(k);
    if (k.evaluation !== before) this.events.onResult(key, this.ownersOf(key));
  }

  /**
   * What the proof store knows about k's position joins what is known: its proof (settled when it
   * is complete), the attempts that ended without the exact value (not repeated with the same
   * budget), and its Nimstring view (the workers need not compute it again).
   */
  private readStore(k: Known): void {
    const stored = this.proofStore?.lookup(k.state);
    if (stored) {
      k.evaluation = mergeEvaluations(k.evaluation, stored.evaluation);
      k.settled = complete(k.evaluation);
      if (k.evaluation.status !== 'exact') this.skipTriedLevels(k, stored.triedMs);
    }
    // any stored view, one that knows nothing too: it holds the position's place on a line, so a
    // verdict carried along the line (analysis/nim.ts chainFightAlongLine) shows again when the
    // document is opened again, as it showed when the view was computed
    const nim = this.proofStore?.storedNim(k.state, 0);
    if (nim) {
      const base: Evaluation = k.evaluation ?? nothingProven(k.state);
      // the stored view joins only when it knows more than the one in memory
      if (betterNim(base.nim, nim) !== base.nim) k.evaluation = { ...base, nim };
    }
  }

  configure(settings: SearchSettings): void {
    const old = this.settings;
    this.settings = settings;
    if (settings.timeBudgetMs !== old.timeBudgetMs || settings.nodeBudget !== old.nodeBudget) {
      // Positions given up under the old limits may be solvable under the new ones: attempts
      // resume at the first level longer than the longest that failed.
      for (const k of this.known.values()) {
        if (complete(k.evaluation)) continue;
        k.settled = false;
        k.reason = undefined;
        k.level = 0;
        this.skipTriedLevels(k, k.longestMs);
      }
    }
    for (const d of this.docs.values()) {
      d.budgetMs = this.docBudgetMs();
      d.spentNotified = false;
    }
    this.pool.resize(this.threadCount(), this.solverThreadCount(), settings.tableMb);
    this.pump();
  }

  /** Count `ms` of CPU spent for `owner`'s background work outside the search workers. */
  charge(owner: string, ms: number): void {
    const d = this.docs.get(owner);
    if (!d) return;
    d.spentMs += ms;
    this.overhead.charge(owner, ms);
  }

  /** `ms` of this thread's time went to work for an edit, not to background work. */
  foreground(ms: number): void {
    this.overhead.foreground(ms);
  }

  /** The positions `owner` wants searched, most useful first (replaces its previous plan). */
  setPlan(owner: string, items: PlanItem[]): void {
    let d = this.docs.get(owner);
    if (!d) {
      d = {
        owner,
        positions: [],
        spentMs: 0,
        budgetMs: this.docBudgetMs(),
        lastActive: ++this.clock,
        everPlanned: new Set(),
        keys: new Set(),
        played: new Map(),
        spentNotified: false,
      };
      this.docs.set(owner, d);
    }
    const positions = [];
    const seen = new Set<string>();
    let fresh = 0;
    for (const it of items) {
      const key = it.state.key();
      if (seen.has(key)) continue;
      seen.add(key);
      positions.push({ key, label: it.label, group: it.group });
      if (it.next) {
        d.played.set(key, { nextKey: it.next.key(), ...playedMove(it.state, it.next) });
      }
      this.entry(key, it.state);
      if (!d.everPlanned.has(key)) {
        d.everPlanned.add(key);
        fresh++;
      }
    }
    d.positions = positions;
    d.keys = seen;
    for (const key of d.played.keys()) if (!seen.has(key)) d.played.delete(key);
    // New positions earn their share of the background budget back (one new move of a 60-move
    // record: 1/60 of it), so that editing never restarts the whole budget. What was spent beyond the
    // budget (the last search's tail, the process's overhead shared out after it) is not a debt that
    // would swallow the share: a new move is always searched for its share.
    if (fresh > 0 && positions.length > 0) {
      d.spentMs = Math.max(0, Math.min(d.spentMs, d.budgetMs) - (d.budgetMs * fresh) / positions.length);
      d.spentNotified = false;
    }
    this.dropStaleWork();
    this.preempt();
    this.evictKnown();
    this.pump();
  }

  /** The position under `owner`'s cursor (undefined: none); the document becomes the most recent. */
  setCursor(owner: string, key: string | undefined): void {
    const d = this.docs.get(owner);
    if (!d) return;
    d.cursorKey = key;
    d.lastActive = ++this.clock;
    this.preempt();
    this.pump();
  }

  forgetOwner(owner: string): void {
    this.docs.delete(owner);
    // no document open: the queued store reads are for nobody (each is queued again when wanted)
    if (this.docs.size === 0) {
      for (let i = this.storeReadsAt; i < this.storeReads.length; i++) {
        const k = this.known.get(this.storeReads[i]);
        if (k) k.storeQueued = false;
      }
      this.storeReads = [];
      this.storeReadsAt = 0;
    }
    this.dropStaleWork();
    this.pump();
  }

  /**
   * What is proven about a position, for `owner`'s analysis: exact; or bounds marked 'pending'
   * (more work planned) or 'unknown' (with the reason no more will be done); undefined while
   * nothing is known and work is planned. Never starts work.
   */
  lookup(state: BoardState, owner: string): Evaluation | undefined {
    const key = state.key();
    const k = this.entry(key, state);
    const e = k.evaluation;
    if (e?.status === 'exact') return e;
    const d = this.docs.get(owner);
    const budgetSpent = d !== undefined && budgetLeft(d) <= 0;
    if (!k.settled && !budgetSpent) {
      return e ? { ...e, status: 'pending', value: null, best: [], note: SEARCHING_IN_BACKGROUND } : undefined;
    }
    const open = state.openBoxCount();
    const why = k.settled ? (k.reason ?? NOT_SOLVED_WITHIN_LIMITS) : backgroundBudgetSpent(d!.spentMs);
    return {
      status: 'unknown',
      method: 'search',
      value: null,
      lower: e?.lower ?? -open,
      upper: e?.upper ?? open,
      best: [],
      moveValues: e?.moveValues,
      nodes: e?.nodes,
      nim: e?.nim,
      note: why,
    };
  }

  /** The evaluation if already known (exact or bounds); never queues work. */
  peek(state: BoardState): Evaluation | undefined {
    return this.known.get(state.key())?.evaluation;
  }

  isBusy(): boolean {
    return this.running.size > 0;
  }

  activity(): SearchActivity | null {
    // a job for a position its document no longer has (an edit replaced it; the job is being
    // stopped) is not shown: its label is the old text's (found by an audit: the new document's
    // counts beside the old record's name)
    const running = [...this.running.values()].filter((r) =>
      this.docs.get(r.pick.owner)?.positions.some((p) => p.key === r.pick.key),
    );
    if (running.length === 0) return null;
    return {
      running: running.map((r) => ({ ...r.pick, startedAt: r.startedAt })),
      documents: [...this.docs.values()].map((d) => ({
        owner: d.owner,
        proven: d.positions.filter((p) => this.known.get(p.key)?.evaluation?.status === 'exact').length,
        total: d.positions.length,
        spentMs: d.spentMs,
        budgetMs: d.budgetMs,
      })),
    };
  }

  /** CPU charged to `owner`'s background budget (spent since it was opened, less what new positions earned back). */
  spentMs(owner: string): number {
    return this.docs.get(owner)?.spentMs ?? 0;
  }

  dispose(): void {
    this.disposed = true;
    this.pool.dispose();
    this.running.clear();
  }

  // -------------------------------------------------------------------------------------------

  /**
   * Threads of each worker's solver: with the automatic setting, the cores but one (the editor's
   * own, so that typing never waits) shared between the workers, at most DEFAULT_SOLVER_THREADS_MAX
   * each; with an explicit number of workers, one each.
   */
  private solverThreadCount(): number {
    if (this.settings.threads > 0) return 1;
    const share = Math.floor((availableParallelism() - 1) / this.threadCount());
    return Math.max(1, Math.min(DEFAULT_SOLVER_THREADS_MAX, share));
  }

  private threadCount(): number {
    // no more workers than cores: each holds a table and a thread, and more would only share them
    const asked = this.settings.threads;
    return asked > 0 ? Math.min(Math.floor(asked), availableParallelism()) : defaultThreads();
  }

  private docBudgetMs(): number {
    return Math.max(0, this.settings.backgroundBudgetSeconds) * 1000;
  }

  private entry(key: string, state: BoardState): Known {
    let k = this.known.get(key);
    if (!k) {
      k = { state: state.clone(), level: 0, settled: false, longestMs: 0 };
      this.known.set(key, k);
      if (this.proofStore) this.queueStoreRead(key, k);
    } else if (k.storeUnread) this.queueStoreRead(key, k);
    return k;
  }

  private stateOf = (key: string): PositionState => {
    const k = this.known.get(key);
    return k ? { level: k.level, settled: k.settled } : { level: 0, settled: false };
  };

  private ownersOf(key: string): string[] {
    return [...this.docs.values()].filter((d) => d.keys.has(key)).map((d) => d.owner);
  }

  private wantedKeys(): Set<string> {
    const wanted = new Set<string>();
    for (const d of this.docs.values()) for (const k of d.keys) wanted.add(k);
    return wanted;
  }

  /** Cancel running jobs no document wants any more. */
  private dropStaleWork(): void {
    const wanted = this.wantedKeys();
    for (const r of this.running.values()) if (!wanted.has(r.pick.key)) this.pool.cancel(r.job.id);
  }

  /**
   * Every thread is busy and the job the scheduler would start now outranks a running one (the
   * cursor's position over a record job, a more recently used document over an older one): stop
   * that one. Its proven bounds are kept; the attempt is not counted, so it is tried again.
   */
  private preempt(): void {
    if (this.pool.hasFreeSlot() || this.running.size === 0) return;
    const busy = new Set([...this.running.values()].map((r) => r.pick.key));
    const want = pickJob([...this.docs.values()], this.stateOf, busy, this.settings.timeBudgetMs);
    if (!want) return;
    const rank = (owner: string) => this.docs.get(owner)?.lastActive ?? -1;
    const victim = [...this.running.values()]
      .filter(
        (r) =>
          rank(r.pick.owner) < rank(want.owner) ||
          (r.pick.owner === want.owner && want.reason === 'cursor' && r.pick.reason === 'record'),
      )
      .sort((a, b) => rank(a.pick.owner) - rank(b.pick.owner))[0];
    if (victim && !victim.cancelled) {
      victim.cancelled = true;
      this.pool.cancel(victim.job.id);
    }
  }

  private evictKnown(): void {
    if (this.known.size <= SEARCH_KNOWN_ENTRIES) return;
    const wanted = this.wantedKeys();
    for (const key of this.known.keys()) {
      if (this.known.size <= SEARCH_KNOWN_ENTRIES) break;
      if (!wanted.has(key)) this.known.delete(key);
    }
  }

  private onMessage(m: WorkerMessage): void {
    const r = this.running.get(m.id);
    if (!r) return;
    const k = this.known.get(m.key);
    if (m.type === 'progress') {
      // Bounds proven so far by the running search: show them at once.
      if (k && (!k.evaluation || m.lower > k.evaluation.lower || m.upper < k.evaluation.upper)) {
        const open = k.state.openBoxCount();
        k.evaluation = mergeEvaluations(k.evaluation, {
          status: 'unknown',
          method: 'search',
          value: null,
          lower: Math.max(m.lower, -open),
          upper: Math.min(m.upper, open),
          best: [],
        });
        this.events.onResult(m.key, this.ownersOf(m.key));
      }
      return;
    }
    this.running.delete(m.id);
    const d = this.docs.get(r.pick.owner);
    this.charge(r.pick.owner, m.cpuMs);
    for (const [owner, ms] of this.overhead.settle()) {
      const o = this.docs.get(owner);
      if (o) o.spentMs += ms;
    }
    if (k) {
      if (m.type === 'result') {
        const e = deserializeEvaluation(m.evaluation);
        k.evaluation = mergeEvaluations(k.evaluation, e);
        if (complete(k.evaluation)) k.settled = true;
        else if (!m.cancelled) this.attemptFailed(k, r.pick);
        const tried = k.evaluation.status !== 'exact' && !m.cancelled ? r.job.timeBudgetMs : 0;
        if (e.status === 'exact' || !m.cancelled) this.proofStore?.put(k.state, k.evaluation, tried);
        // A cancelled view did not run its budget: kept only when it knows something, and as cut
        // short at 0 ms (how long it ran is not known), so only a request that allows no time takes it
        // in place of a computation (the editor itself takes any stored view that knows something).
        if (e.nim && r.job.nimBudget > 0 && (!m.cancelled || e.nim.moverWinsChainFight !== undefined))
          this.proofStore?.keepNim(k.state, r.job.nimBudget, e.nim, m.cancelled ? 0 : undefined);
      } else if (m.message !== 'cancelled') {
        k.settled = true;
        k.reason = searchFailed(m.message);
      }
      this.events.onResult(m.key, this.ownersOf(m.key));
    }
    if (d && budgetLeft(d) <= 0 && !d.spentNotified) {
      d.spentNotified = true;
      // Every unknown position of the document now says why it stays unknown.
      for (const p of d.positions) if (p.key !== m.key) this.events.onResult(p.key, [d.owner]);
    }
    this.pump();
  }

  /**
   * An earlier session's attempt of `triedMs` ended without the exact value: start at the first
   * level with a longer budget (the same search again would end the same way), or settle the
   * position when no level allows more. Only with time limits (a node limit gives one attempt).
   */
  private skipTriedLevels(k: Known, triedMs: number): void {
    if (triedMs <= 0 || this.settings.nodeBudget > 0) return;
    k.longestMs = Math.max(k.longestMs, triedMs);
    for (;;) {
      const { ms, last } = attemptBudget(k.level, this.settings.timeBudgetMs);
      if (ms > triedMs) return;
      k.level++;
      if (last) {
        k.settled = true;
        k.reason = searchLimitReached({ ms: triedMs }, k.level);
        return;
      }
    }
  }

  /**
   * What a job starts from: the bounds proven so far, and the floor the played move gives (the
   * position is worth at least that move: its captures plus, or minus, the next position's value).
   */
  private knownBounds(k: Known, played: PlayedMove | undefined): { known?: { lower: number; upper: number } } {
    const open = k.state.openBoxCount();
    let lower = -open,
      upper = open;
    if (k.evaluation && k.evaluation.status !== 'pending') {
      lower = Math.max(lower, k.evaluation.lower);
      upper = Math.min(upper, k.evaluation.upper);
    }
    const next = played && this.known.get(played.nextKey)?.evaluation;
    if (played && next && next.status !== 'pending') {
      const floor = playedMoveFloor(played.completes, played.again, next);
      if (floor > lower && floor <= upper) lower = floor;
    }
    return lower > -open || upper < open ? { known: { lower, upper } } : {};
  }

  private attemptFailed(k: Known, pick: PickedJob): void {
    k.longestMs = Math.max(k.longestMs, pick.budgetMs);
    const { ms, last } = attemptBudget(pick.level, this.settings.timeBudgetMs);
    k.level = pick.level + 1;
    if (last || this.settings.nodeBudget > 0) {
      k.settled = true;
      const limit = this.settings.nodeBudget > 0 ? { nodes: this.settings.nodeBudget } : { ms: k.longestMs };
      k.reason = searchLimitReached(limit, k.level, ms);
    }
  }

  private pump(): void {
    if (this.disposed) return;
    let readUntil = 0;
    while (this.pool.hasFreeSlot()) {
      const busy = new Set([...this.running.values()].map((r) => r.pick.key));
      const pick = pickJob([...this.docs.values()], this.stateOf, busy, this.settings.timeBudgetMs);
      if (!pick) break;
      const k = this.known.get(pick.key)!;
      // never searched before the store is asked: it may hold the answer (then pick again). At most
      // a slice of reads here: with a warm store every pick may be settled by its record, and
      // reading the whole plan at once kept requests waiting (found by a review: 9,000 in 15 s)
      if (k.storeUnread) {
        if (readUntil === 0) readUntil = Date.now() + STORE_READ_SLICE_MS;
        else if (Date.now() > readUntil) {
          this.queueStoreRead(pick.key, k); // the slices go on, and pump after each
          break;
        }
        this.readUnread(pick.key, k);
        continue;
      }
      const job: SearchJob = {
        id: this.nextId++,
        key: pick.key,
        width: k.state.geometry.width,
        height: k.state.geometry.height,
        drawn: new Uint8Array(k.state.drawn),
        nodeBudget: this.settings.nodeBudget,
        timeBudgetMs: Math.max(1, Math.round(pick.budgetMs)),
        nimBudget: k.evaluation?.nim?.winningMoves ? 0 : nimBudget(pick.level),
        ...this.knownBounds(k, this.docs.get(pick.owner)?.played.get(pick.key)),
        lead: k.state.score[k.state.toMove] - k.state.score[1 - k.state.toMove],
      };
      this.running.set(job.id, { job, pick, startedAt: Date.now() });
      this.pool.start(job);
    }
    this.events.onActivity?.(this.activity());
  }
}
