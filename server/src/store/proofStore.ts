/**
 * The persistent store of proofs: every exact value, proven bound and set of optimal moves, keyed by
 * the canonical position (symmetric positions share one record; lines are kept in the canonical
 * orientation and mapped back), with the best move found so far (an estimate, never proven) while
 * the optimal moves are not known. Shared by the CLI and the language server through one SQLite file.
 *
 * Writes are buffered and flushed at most every FLUSH_MS (and on close / process exit), one
 * transaction per flush: a killed process loses at most the results of its last FLUSH_MS. Every
 * record read is checked (proof.ts) before it is believed; one that fails is dropped. The size is bounded: when the live
 * data passes maxBytes, the cheapest records go first (eviction.ts). Export files: exportFile.ts.
 */
import {
  notStoringFailedProof,
  recordFault,
  storeDamagedEstimates,
  storeDamagedRecords,
  storeDamagedSetAside,
  storeLockedForNow,
  storeStaysLocked,
  storeDamagedTraces,
  storeDamagedViews,
  storedProofReplaced,
  storeFailed,
  storeReplaced,
  type StoreStats,
} from '../engine/phrasebook/store';
import { statfsSync } from 'node:fs';
import { dirname } from 'node:path';
import type { BoardState } from '../engine/board/state';
import { canonicalPosition } from '../engine/solver/symmetry';
import { MAX_TRACE_CHARS, StoreBusy, StoreDamaged, StoreFile } from './database';
import {
  checkProof,
  crc32,
  fromCanonical,
  fromStoredRow,
  toCanonical,
  toEstimateBoundRow,
  toEstimateRow,
  toRow,
  type Proof,
  type ProofRow,
} from './proof';
import { betterEstimate } from '../engine/analysis/evaluation';
import type { NimSummary } from '../engine/analysis/nim';
import { checkNimView, keptNim, nimAnswers, nimViewText, parseNimView, type NimRecord } from './nimView';
import { Eviction, NIM_NODES_PER_MS } from './eviction';
import {
  emptyImportReport,
  exportText,
  readExport,
  readExportRecords,
  rejectLine,
  writeExport,
  type ImportReport,
  type VerifyRecord,
} from './exportFile';

export const DEFAULT_MAX_BYTES = 256 * 1024 * 1024;
const FLUSH_MS = 500;
/** How often a store that was locked when opened is tried again (ms), and the results kept meanwhile. */
const RETRY_OPEN_MS = 30_000;
const MAX_WAITING = 100_000;
/** Records an export reads in one transaction. */
const EXPORT_CHUNK = 10_000;
/** Time eviction may take after a flush, and when the store is closed (ms). */
const EVICT_FLUSH_MS = 100;
const EVICT_CLOSE_MS = 2000;
const FLUSH_COUNT = 64;
/** A key found missing is not looked up again for this long (another process may add it). */
const MISS_TTL_MS = 5_000;
/** Records' traces kept at most (the oldest are dropped first): a trace is a few kB. */
export const MAX_TRACES = 2_000;
/** One record with its estimate and the estimate's bound, in one statement (one snapshot of the tables). */
const SELECT_RECORD = `SELECT p.*, e.line AS e_line, e.work AS e_work, e.crc AS e_crc,
  b.line AS b_line, b.lower AS b_lower, b.crc AS b_crc
  FROM proofs p LEFT JOIN estimates e ON e.key = p.key LEFT JOIN estimate_bounds b ON b.key = p.key`;

/** What is known about a position, in the position's own orientation. */
export type Knowledge = Proof;

export interface StoreOptions {
  maxBytes?: number;
  /** Told about files set aside, conflicts and an unusable store (default: nothing). */
  onWarning?: (message: string) => void;
  /**
   * A store another process keeps locked when it is opened is tried again every RETRY_OPEN_MS, its
   * results kept meanwhile (at most MAX_WAITING of them), instead of going without it for the whole
   * run or session (found by an audit: a language server started during another process's long
   * transaction never used the store). The cache commands, which need it now, do not wait.
   */
  retryWhenLocked?: boolean;
  /** RETRY_OPEN_MS, for the tests. */
  retryOpenMs?: number;
}

export type { StoreStats };

/** Combine two proofs of one position; 'conflict' when they contradict (one of them is wrong). */
export function mergeProofs(a: Proof, b: Proof): Proof | 'conflict' {
  const moves = new Map<number, number>(a.moves);
  for (const [l, v] of b.moves) {
    const old = moves.get(l);
    if (old !== undefined && old !== v) return 'conflict';
    moves.set(l, v);
  }
  const lower = Math.max(a.lower, b.lower),
    upper = Math.min(a.upper, b.upper);
  if (lower > upper) return 'conflict';
  const best = (lower === upper ? (b.best.length > 0 ? b.best : a.best) : []).filter(
    (l) => moves.get(l) === undefined || moves.get(l) === lower,
  );
  // the better estimate (betterEstimate: a proven bound first, then the search behind it; a's on a tie), while no move is proven optimal
  const estimate = best.length === 0 ? betterEstimate(a.estimate, b.estimate) : undefined;
  const merged: Proof = {
    lower,
    upper,
    best,
    moves: [...moves].sort((x, y) => x[0] - y[0]),
    work: Math.max(a.work, b.work),
    // exact: only a search for the optimal moves counts (a bound's search says nothing of them)
    tried:
      lower !== upper
        ? Math.max(a.tried, b.tried)
        : best.length > 0
          ? 0
          : Math.max(a.lower === a.upper ? a.tried : 0, b.lower === b.upper ? b.tried : 0),
    ...(estimate ? { estimate } : {}),
  };
  if (lower === upper && a.best.length > 0 && b.best.length > 0 && a.best.join() !== b.best.join()) return 'conflict';
  return merged;
}

export class ProofStore {
  private file: StoreFile | null;
  private readonly pending = new Map<string, Proof>();
  /** Views waiting for the next flush (of two for one position, the one keptNim keeps). */
  private readonly pendingNims = new Map<string, NimRecord>();
  /** What the pending views cost, in solver nodes (NIM_NODES_PER_MS), for eviction. */
  private readonly pendingNimCosts = new Map<string, number>();
  private readonly misses = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;
  private readonly maxBytes: number;
  private readonly eviction: Eviction;
  /** Tell the user `m`, once for each `kind` (default: the message itself). */
  private readonly warn: (m: string, kind?: string) => void;
  private flushes = 0;
  /** When the last flush wrote (Date.now()). */
  private lastFlush = 0;
  private readonly onExit = () => this.flush();
  /** When to try again to open a store that was locked (0: not waiting for it). */
  private retryOpenAt = 0;
  private readonly retryOpenMs: number;

  private constructor(
    readonly path: string,
    opts: StoreOptions,
  ) {
    this.maxBytes = opts.maxBytes ?? DEFAULT_MAX_BYTES;
    this.eviction = new Eviction(this.maxBytes);
    // each warning once (a damaged store or a full disk would say the same for every record met)
    const tell = opts.onWarning ?? (() => {});
    const told = new Set<string>();
    this.warn = (m, kind = m) => {
      if (told.has(kind)) return;
      told.add(kind);
      tell(m);
    };
    this.retryOpenMs = opts.retryOpenMs ?? RETRY_OPEN_MS;
    const r = StoreFile.open(path);
    if (r.busy && opts.retryWhenLocked) {
      this.retryOpenAt = Date.now() + this.retryOpenMs;
      this.warn(storeLockedForNow(path, this.retryOpenMs / 1000));
    } else r.warnings.forEach((w) => this.warn(w));
    this.file = r.db;
    process.once('exit', this.onExit);
  }

  /** Open the store at `path`; never throws (an unusable store answers nothing and keeps nothing). */
  static open(path: string, opts: StoreOptions = {}): ProofStore {
    return new ProofStore(path, opts);
  }

  get usable(): boolean {
    return this.file !== null;
  }

  /** Not open yet, because another process keeps it locked: it is tried again (retryWhenLocked). */
  get waiting(): boolean {
    return this.retryOpenAt > 0;
  }

  /** Whether the file is open: opened now when it was locked and its time to try again has come. */
  private opened(): boolean {
    if (this.file) return true;
    if (this.retryOpenAt === 0 || Date.now() < this.retryOpenAt) return false;
    const r = StoreFile.open(this.path);
    this.retryOpenAt = r.busy ? Date.now() + this.retryOpenMs : 0;
    if (!r.busy) r.warnings.forEach((w) => this.warn(w));
    this.file = r.db;
    return this.file !== null;
  }

  /** What the store knows about `state` (pending writes included), mapped to its orientation. */
  get(state: BoardState): Knowledge | undefined {
    const c = canonicalPosition(state.geometry, state.drawn);
    // what waits for the flush, joined with what is stored (by this process before, or by another)
    const pending = this.pending.get(c.key);
    const stored = this.fetch(c.key);
    const joined = pending && stored ? mergeProofs(stored, pending) : undefined;
    const p = joined && joined !== 'conflict' ? joined : (pending ?? stored);
    if (!p) return undefined;
    const g = state.geometry;
    const back = (l: number) => fromCanonical(g, c.symmetry, l);
    return {
      ...p,
      best: p.best.map(back).sort((x, y) => x - y),
      moves: p.moves.map(([l, v]) => [back(l), v] as [number, number]).sort((x, y) => x[0] - y[0]),
      ...(p.estimate ? { estimate: { ...p.estimate, move: back(p.estimate.move) } } : {}),
    };
  }

  /** Keep what was proven about `state` (merged with what is known); written at the next flush. */
  put(state: BoardState, k: Knowledge): void {
    if (!this.opened() && (this.retryOpenAt === 0 || this.pending.size >= MAX_WAITING)) return;
    const c = canonicalPosition(state.geometry, state.drawn);
    const g = state.geometry;
    const to = (l: number) => toCanonical(g, c.symmetry, l);
    const proof: Proof = tighten({
      ...k,
      best: k.best.map(to).sort((x, y) => x - y),
      moves: k.moves.map(([l, v]) => [to(l), v] as [number, number]).sort((x, y) => x[0] - y[0]),
      ...(k.estimate ? { estimate: { ...k.estimate, move: to(k.estimate.move) } } : {}),
    });
    const why = checkProof(c.key, proof);
    if (why) {
      this.warn(notStoringFailedProof(why, c.key));
      return;
    }
    const old = this.pending.get(c.key);
    const merged = old ? mergeProofs(old, proof) : proof;
    this.pending.set(c.key, merged === 'conflict' ? proof : merged);
    this.misses.delete(c.key);
    this.written(this.pending.size);
  }

  /**
   * After a result joined the pending ones (`count` of its kind now): flush when there are enough,
   * or when the last flush is FLUSH_MS old (so a result after a long search is written at once). The
   * clock is read here as well as by a timer, because a caller that searches on this thread (the
   * CLI) keeps the event loop, and so the timer, from running: only a burst's last FLUSH_MS waits.
   */
  private written(count: number): void {
    if (count >= FLUSH_COUNT || Date.now() - this.lastFlush >= FLUSH_MS) this.flush();
    else if (!this.timer) {
      this.timer = setTimeout(() => this.flush(), FLUSH_MS);
      this.timer.unref?.();
    }
  }

  /** Write the pending proofs in one transaction (merged with what other processes wrote). */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (!this.opened() || (this.pending.size === 0 && this.pendingNims.size === 0)) return;
    const batch = [...this.pending];
    const nims = [...this.pendingNims];
    const costs = [...this.pendingNimCosts];
    const ok: boolean = this.guard<boolean>(
      (f) =>
        f.write(() => {
          for (const [key, proof] of batch) this.writeMerged(f, key, proof, 'replace');
          for (const [key, n] of nims)
            f.read((db) => {
              // joined with what another process (or an earlier flush) stored meanwhile (nimView.ts: keptNim)
              const row = db.get('SELECT budget, view, crc FROM nims WHERE key = ?', [key]);
              const stored = row ? nimRecordOf(key, row) : undefined;
              const next = stored ? keptNim(stored, n) : n;
              const text = nimViewText(next.view, next.cutMs);
              if (stored && Number(row!.budget) === next.budget && String(row!.view) === text) return;
              db.run('INSERT OR REPLACE INTO nims VALUES (?, ?, ?, ?)', [
                key,
                next.budget,
                text,
                nimCrc(key, next.budget, text),
              ]);
            });
          for (const [key, cost] of costs)
            f.read((db) =>
              db.run(
                'INSERT INTO nim_costs VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET cost = max(cost, excluded.cost)',
                [key, cost],
              ),
            );
          return true;
        }),
      false,
    );
    if (ok === false) return; // busy: keep them pending for the next flush
    this.pending.clear();
    this.pendingNims.clear();
    this.pendingNimCosts.clear();
    this.lastFlush = Date.now();
    if (++this.flushes % 4 === 1) this.evictIfNeeded(EVICT_FLUSH_MS);
  }

  stats(): StoreStats {
    this.flush();
    const counts = this.guard(
      (f) => f.write(() => f.read((db) => db.get('SELECT count(*) AS n, sum(lower = upper) AS exact FROM proofs'))),
      null,
    );
    const n = Number(counts?.n ?? 0),
      exact = Number(counts?.exact ?? 0);
    return {
      path: this.path,
      records: n,
      exact,
      bounds: n - exact,
      fileBytes: this.file?.fileBytes() ?? 0,
      maxBytes: this.maxBytes,
    };
  }

  /**
   * The stored Nimstring view of `state` (exactly this orientation) that answers a request for
   * `budget` regions within `ms` ms (undefined: no time limit), by the rule of nimView.ts
   * (nimAnswers); else undefined.
   */
  getNim(state: BoardState, budget: number, ms?: number): NimSummary | undefined {
    const r = this.nimRecord(state);
    return r && nimAnswers(r, budget, ms) ? r.view : undefined;
  }

  /**
   * The Nimstring view of `state` with what its computation had (budget, the time limit that cut
   * it), stored or waiting for a flush (the two joined by keptNim), checked against the board.
   */
  nimRecord(state: BoardState): NimRecord | undefined {
    const key = rawKey(state);
    const row = this.guard(
      (f) => f.read((db) => db.get('SELECT budget, view, crc FROM nims WHERE key = ?', [key])),
      null,
    );
    const stored = row ? nimRecordOf(key, row, state) : undefined;
    if (row && !stored) {
      // said once, as for damaged proofs and traces (found by an audit: views were dropped silently)
      this.warn(storeDamagedViews(this.path), 'damaged view');
      this.guard((f) => f.write(() => f.read((db) => db.run('DELETE FROM nims WHERE key = ?', [key]))), undefined);
    }
    const p = this.pendingNims.get(key);
    // a copy (the caller may change what it gets), checked like a stored one
    const pending = p ? nimRecordOf(key, textRow(key, p), state) : undefined;
    return stored && pending ? keptNim(stored, pending) : (pending ?? stored);
  }

  /**
   * Keep a Nimstring view of `state` computed with `budget` regions, cut short by the time limit
   * `cutMs` if given; joined with what is stored by keptNim at the next flush.
   */
  putNim(state: BoardState, budget: number, n: NimSummary, cutMs?: number, spentMs?: number): void {
    if (!this.opened() && (this.retryOpenAt === 0 || this.pendingNims.size >= MAX_WAITING)) return;
    const key = rawKey(state);
    if (spentMs !== undefined && Number.isFinite(spentMs) && spentMs >= 0)
      this.pendingNimCosts.set(key, Math.max(this.pendingNimCosts.get(key) ?? 0, spentMs * NIM_NODES_PER_MS));
    // a copy, as it will be written (the caller may change its object later)
    const view = JSON.parse(nimViewText(n)) as NimSummary;
    const fresh: NimRecord = { budget, ...(cutMs !== undefined ? { cutMs } : {}), view };
    const pending = this.pendingNims.get(key);
    this.pendingNims.set(key, pending ? keptNim(pending, fresh) : fresh);
    this.written(this.pendingNims.size);
  }

  /**
   * The trace kept under `key` (cli/recordClock.ts), or undefined; one whose checksum fails is
   * dropped. Traces are budgets, not proofs: they are neither exported nor imported.
   */
  trace(key: string): string | undefined {
    const row = this.guard((f) => f.read((db) => db.get('SELECT trace, crc FROM traces WHERE key = ?', [key])), null);
    if (!row) return undefined;
    const text = String(row.trace);
    if (Number(row.crc) === traceCrc(key, text)) return text;
    this.warn(storeDamagedTraces(this.path), 'damaged trace');
    this.guard((f) => f.write(() => f.read((db) => db.run('DELETE FROM traces WHERE key = ?', [key]))), undefined);
    return undefined;
  }

  /** Keep a record's trace under `key` at once (one per record; none longer than MAX_TRACE_CHARS), the oldest beyond MAX_TRACES dropped. */
  putTrace(key: string, text: string): void {
    if (text.length > MAX_TRACE_CHARS) return;
    this.guard(
      (f) =>
        f.write(() =>
          f.read((db) => {
            db.run('INSERT OR REPLACE INTO traces VALUES (?, ?, ?, ?)', [key, text, Date.now(), traceCrc(key, text)]);
            db.run('DELETE FROM traces WHERE key IN (SELECT key FROM traces ORDER BY at DESC LIMIT -1 OFFSET ?)', [
              MAX_TRACES,
            ]);
          }),
        ),
      undefined,
    );
  }

  /** Forget every proof. */
  clear(): number {
    this.pending.clear();
    this.pendingNims.clear();
    this.pendingNimCosts.clear();
    this.guard(
      (f) =>
        f.write(() =>
          f.read((db) => {
            db.run('DELETE FROM nims');
            db.run('DELETE FROM nim_costs');
            db.run('DELETE FROM estimates');
            db.run('DELETE FROM estimate_bounds');
            db.run('DELETE FROM traces');
          }),
        ),
      undefined,
    );
    this.misses.clear();
    const n = this.guard((f) => f.write(() => Number(f.read((db) => db.run('DELETE FROM proofs')).changes)), 0);
    this.guard((f) => f.alone((db) => db.exec('VACUUM'), 10_000), undefined);
    return n;
  }

  /**
   * Write every proof to `file` as an export (exportFile.ts; '-': standard output). Returns the
   * number of records.
   */
  exportTo(file: string): number {
    this.flush();
    // A chunk of records at a time, each read in a transaction of its own, so that no other process
    // waits for the whole export (found by an audit: 52 s for 1.75 million records, during which an
    // analyze went without the store and the editor's hovers waited seconds)
    const rows: Record<string, unknown>[] = [];
    for (let after = ''; ;) {
      const chunk = this.guard(
        (f) =>
          f.read(
            (db) => db.all(`${SELECT_RECORD} WHERE p.key > ? ORDER BY p.key LIMIT ?`, [after, EXPORT_CHUNK]),
            10_000,
          ),
        null,
      );
      // a store that stays locked mid-export: an error, never a file that looks whole
      if (chunk === null) throw new Error(storeStaysLocked(this.path));
      rows.push(...chunk);
      if (chunk.length < EXPORT_CHUNK) break;
      after = String(chunk[chunk.length - 1].key);
    }
    const { text, count } = exportText(rows);
    writeExport(file, text, this.path);
    return count;
  }

  /** Read an export file (exportFile.ts: readExport) and import it (importText). */
  importFrom(file: string, verify?: VerifyRecord): ImportReport {
    return this.importText(readExport(file), file, verify);
  }

  /**
   * Import an export's text (`name` says where it came from in messages): the records that pass the
   * checks and `verify` (exportFile.ts: readExportRecords) are merged with what is stored; one that
   * contradicts a stored proof is rejected.
   */
  importText(text: string, name: string, verify?: VerifyRecord): ImportReport {
    const report = emptyImportReport();
    const good = readExportRecords(text, name, report, verify);
    this.flush();
    for (let i = 0; i < good.length; i += 500) {
      const chunk = good.slice(i, i + 500);
      this.guard(
        (f) =>
          f.write(() => {
            for (const [key, proof] of chunk) {
              const outcome = this.writeMerged(f, key, proof, 'keep');
              if (outcome === 'conflict') rejectLine(report, { line: 0, reason: recordFault.contradictsStored(key) });
              else report[outcome]++;
            }
          }, 10_000),
        undefined,
      );
    }
    return report;
  }

  /** `evictMs`: the time eviction may take now (0 for a command that only reads, as `cache stats`). */
  close(evictMs = EVICT_CLOSE_MS): void {
    this.flush();
    // the sizing whole: begun again by each process, one that stops before it ends would never evict
    if (evictMs > 0) this.evictIfNeeded(evictMs, true);
    process.removeListener('exit', this.onExit);
    this.file?.closeQuietly();
    this.file = null;
  }

  private fetch(key: string): Proof | undefined {
    if (!this.opened()) return undefined;
    const missed = this.misses.get(key);
    if (missed !== undefined && Date.now() - missed < MISS_TTL_MS) return undefined;
    const raw = this.guard((f) => f.read((db) => db.get(`${SELECT_RECORD} WHERE p.key = ?`, [key])), null);
    if (!raw) {
      this.misses.set(key, Date.now());
      if (this.misses.size > 100_000) this.misses.clear();
      return undefined;
    }
    const r = fromStoredRow(raw);
    if (typeof r === 'string' || r.key !== key) {
      this.warn(storeDamagedRecords(this.path, typeof r === 'string' ? r : recordFault.wrongKey), 'damaged record');
      this.forget(key, true);
      return undefined;
    }
    if (r.dropped) {
      // the proof stands; only its estimate is not believed
      this.warn(storeDamagedEstimates(this.path, r.dropped), 'damaged estimate');
      this.forget(key, false);
    }
    return r.proof;
  }

  /** Delete a key's estimate and its bound, and (`proof`) its proof: rows not to be believed. */
  private forget(key: string, proof: boolean): void {
    this.guard(
      (f) =>
        f.write(() =>
          f.read((db) => {
            if (proof) db.run('DELETE FROM proofs WHERE key = ?', [key]);
            db.run('DELETE FROM estimates WHERE key = ?', [key]);
            db.run('DELETE FROM estimate_bounds WHERE key = ?', [key]);
          }),
        ),
      undefined,
    );
  }

  /** Merge `proof` into the stored record of `key` (inside a write transaction). */
  private writeMerged(
    f: StoreFile,
    key: string,
    proof: Proof,
    onConflict: 'replace' | 'keep',
  ): 'added' | 'improved' | 'unchanged' | 'conflict' {
    const raw = f.read((db) => db.get(`${SELECT_RECORD} WHERE p.key = ?`, [key]));
    const old = raw ? fromStoredRow(raw) : undefined;
    let next = proof;
    let outcome: 'added' | 'improved' | 'unchanged' | 'conflict' = 'added';
    if (old && typeof old !== 'string') {
      const m = mergeProofs(old.proof, proof);
      if (m === 'conflict') {
        if (onConflict === 'keep') return 'conflict';
        this.warn(storedProofReplaced(key));
      } else next = tighten(m);
      const row = toRow(key, next),
        was = toRow(key, old.proof);
      outcome = row.crc === was.crc ? 'unchanged' : 'improved';
      if (outcome === 'unchanged') return outcome;
    }
    if (checkProof(key, next)) return 'conflict';
    const r: ProofRow = toRow(key, { ...next, estimate: undefined });
    f.read((db) => {
      db.run('INSERT OR REPLACE INTO proofs VALUES (?, ?, ?, ?, ?, ?, ?, ?)', [
        r.key,
        r.lower,
        r.upper,
        r.best,
        r.moves,
        r.work,
        r.tried,
        r.crc,
      ]);
      if (!next.estimate) db.run('DELETE FROM estimates WHERE key = ?', [key]);
      else {
        const e = toEstimateRow(key, next.estimate);
        db.run('INSERT OR REPLACE INTO estimates (key, line, work, crc) VALUES (?, ?, ?, ?)', [
          e.key,
          e.line,
          e.work,
          e.crc,
        ]);
      }
      const b = next.estimate && toEstimateBoundRow(key, next.estimate);
      if (!b) db.run('DELETE FROM estimate_bounds WHERE key = ?', [key]);
      else
        db.run('INSERT OR REPLACE INTO estimate_bounds (key, line, lower, crc) VALUES (?, ?, ?, ?)', [
          b.key,
          b.line,
          b.lower,
          b.crc,
        ]);
    });
    return outcome;
  }

  /** Over the bound, the cheapest records go, for at most `budgetMs` (eviction.ts). */
  private evictIfNeeded(budgetMs: number, sizeWhole = false): void {
    this.guard((f) => this.eviction.run(f, budgetMs, sizeWhole), undefined);
  }

  /** The store's file system has (almost) no room left. */
  private diskFull(): boolean {
    try {
      const fs = statfsSync(dirname(this.path));
      return fs.bavail * fs.bsize < 1024 * 1024;
    } catch {
      return false;
    }
  }

  /**
   * Run a database step; a busy store gives `fallback`, a damaged one is set aside and replaced
   * by a fresh store (the warning says so). Never throws.
   */
  private guard<T>(fn: (f: StoreFile) => T, fallback: T): T {
    const f = this.file;
    if (!f) return fallback;
    try {
      if (f.replaced()) {
        this.reopen();
        return this.file ? fn(this.file) : fallback;
      }
      return fn(f);
    } catch (e) {
      if (e instanceof StoreBusy) return fallback;
      if (e instanceof StoreDamaged) {
        const to = e.setAsideAs ?? f.setAsideDamaged();
        this.warn(to ? storeDamagedSetAside(this.path, e.message, to) : storeReplaced(this.path));
        this.reopen();
        return fallback;
      }
      this.warn(storeFailed(this.path, (e as Error).message, this.diskFull()));
      return fallback;
    }
  }

  private reopen(): void {
    this.file?.closeQuietly();
    this.misses.clear();
    const r = StoreFile.open(this.path);
    r.warnings.forEach((w) => this.warn(w));
    this.file = r.db;
  }
}

/** A proven move value is a lower bound on the position; all move values known give the value. */
function tighten(p: Proof): Proof {
  if (p.moves.length === 0) return p;
  const max = Math.max(...p.moves.map(([, v]) => v));
  const lower = Math.max(p.lower, max);
  return lower === p.lower ? p : { ...p, lower, best: lower === p.upper ? p.best : [] };
}

function traceCrc(key: string, text: string): number {
  return crc32(`${key}|${text}`);
}

function nimCrc(key: string, budget: number, view: string): number {
  return crc32(`${key}|${budget}|${view}`);
}

/** A record as the row it is written as. */
function textRow(key: string, r: NimRecord): { budget: number; view: string; crc: number } {
  const view = nimViewText(r.view, r.cutMs);
  return { budget: r.budget, view, crc: nimCrc(key, r.budget, view) };
}

/**
 * A `nims` row as a record when its checksum and its view check out (against the board when `state`
 * is given; a flush has only the key); else undefined.
 */
function nimRecordOf(key: string, row: Record<string, unknown>, state?: BoardState): NimRecord | undefined {
  const budget = Number(row.budget),
    text = String(row.view);
  if (!Number.isInteger(budget) || budget < 0 || Number(row.crc) !== nimCrc(key, budget, text)) return undefined;
  const r = state ? checkNimView(state, text) : parseNimView(text);
  return r ? { budget, ...r } : undefined;
}

/** The drawn lines of `state` as they are (no symmetry): `WxH:` + hex words, most significant first. */
function rawKey(state: BoardState): string {
  const g = state.geometry;
  const nw = (g.lineCount + 31) >>> 5;
  const words = new Uint32Array(nw);
  for (let l = 0; l < g.lineCount; l++) if (state.drawn[l]) words[l >>> 5] |= 1 << (l & 31);
  let hex = '';
  for (let w = nw - 1; w >= 0; w--) hex += words[w].toString(16).padStart(8, '0');
  return `${g.width}x${g.height}:${hex}`;
}
