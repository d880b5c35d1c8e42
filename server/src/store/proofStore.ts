/**
 * The persistent store of proofs: every exact value, proven bound and set of optimal moves, keyed by
 * the canonical position (symmetric positions share one record; lines are kept in the canonical
 * orientation and mapped back), with the best move found so far (an estimate, never proven) while
 * the optimal moves are not known. Shared by the CLI and the language server through one SQLite file.
 *
 * Writes are buffered and flushed at most every FLUSH_MS (and on close / process exit), one
 * transaction per flush: a killed process loses at most the results of its last FLUSH_MS. Every
 * record read is checked (proof.ts) before it is believed; one that fails is dropped. The size is bounded: when the live
 * data passes maxBytes, the cheapest records go first: proofs and Nimstring views on one scale of
 * search cost (NIM_REGION_NODES), budget traces by age.
 */
import {
  exportCannotBeWritten,
  exportNotRegularFile,
  exportNotWrittenOver,
  exportOfNewerDab,
  importCannotBeRead,
  importNotRegularFile,
  importTooLarge,
  notAProofExport,
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
  unknownExportVersion,
  type ExportClobber,
  type StoreStats,
} from '../engine/phrasebook/store';
import {
  closeSync,
  lstatSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  statfsSync,
  writeFileSync,
} from 'node:fs';
import { dirname } from 'node:path';
import type { BoardState } from '../engine/board/state';
import { canonicalPosition } from '../engine/solver/symmetry';
import { MAX_TRACE_CHARS, StoreBusy, StoreDamaged, StoreFile } from './database';
import {
  checkProof,
  crc32,
  fromCanonical,
  fromRow,
  fromStoredRow,
  toCanonical,
  toEstimateBoundRow,
  toEstimateRow,
  toRow,
  type Proof,
  type ProofRow,
} from './proof';
import type { Database } from 'node-sqlite3-wasm';
import { betterEstimate } from '../engine/analysis/evaluation';
import type { NimSummary } from '../engine/analysis/nim';
import { checkNimView, keptNim, nimAnswers, nimViewText, parseNimView, type NimRecord } from './nimView';

export const DEFAULT_MAX_BYTES = 256 * 1024 * 1024;
/** Solver nodes one region of the Nimstring engine costs, about (1.5M nodes/s against 50k regions/s): eviction's common scale. */
const NIM_REGION_NODES = 30;
/**
 * Solver nodes a millisecond of the Nimstring view's computation stands for (1.5M nodes/s): a view's
 * cost on eviction's scale, from the time it took. Without it (a view imported, or stored by a dab
 * that does not record it) a view ranks at its whole budget, NIM_REGION_NODES a region, and at the
 * CLI's 20,000 regions that put every view above nearly every proof (found by an audit: a 1 MB
 * bound kept 1 of 3,293 proofs and 2,206 of 4,701 views).
 */
const NIM_NODES_PER_MS = 1500;
/** A view's cost on eviction's scale, in SQL over `nims n LEFT JOIN nim_costs c`. */
const NIM_COST = `coalesce(c.cost, n.budget * ${NIM_REGION_NODES})`;
/** A row's bytes, about (eviction frees the share of them the file is over its bound). */
const PROOF_BYTES = 'length(key) + length(best) + length(moves) + 48';
/** A view row's bytes, about; `t`: the table's alias in the query, if any. */
const nimBytes = (t = ''): string => `length(${t}key) + length(${t}view) + 24`;
const FLUSH_MS = 500;
/** How often a store that was locked when opened is tried again (ms), and the results kept meanwhile. */
const RETRY_OPEN_MS = 30_000;
const MAX_WAITING = 100_000;
/** Records an export reads in one transaction. */
const EXPORT_CHUNK = 10_000;
/** Records one eviction transaction removes at most (about 30 ms each, so a reader waits that long at most). */
const EVICT_BATCH = 1000;
/**
 * Records one step of sizing reads (about 10 ms): before an eviction the records' bytes are summed
 * in steps of this many, one transaction each (found by an audit: one sum over 2.3 million proofs
 * held the language server 1.5 s).
 */
const SIZE_STEP = 20_000;
/** Time eviction may take after a flush, and when the store is closed (ms). */
const EVICT_FLUSH_MS = 100;
const EVICT_CLOSE_MS = 2000;
const FLUSH_COUNT = 64;
/** A key found missing is not looked up again for this long (another process may add it). */
const MISS_TTL_MS = 5_000;
/** Records' traces kept at most (the oldest are dropped first): a trace is a few kB. */
export const MAX_TRACES = 2_000;
export const EXPORT_FORMAT = 'dab-proofs';
/**
 * 2: a line may carry the estimate (fields estimate, estimateWork); 3: and its proven bound
 * (estimateLower). Files of earlier versions are read as before.
 */
export const EXPORT_VERSION = 3;
/** One record with its estimate and the estimate's bound, in one statement (one snapshot of the tables). */
const SELECT_RECORD = `SELECT p.*, e.line AS e_line, e.work AS e_work, e.crc AS e_crc,
  b.line AS b_line, b.lower AS b_lower, b.crc AS b_crc
  FROM proofs p LEFT JOIN estimates e ON e.key = p.key LEFT JOIN estimate_bounds b ON b.key = p.key`;

/** What is known about a position, in the position's own orientation. */
export type Knowledge = Proof;

/**
 * One eviction transaction: of the EVICT_BATCH cheapest records (proofs and Nimstring views on one
 * scale, in the order cost, key), the first ones whose row bytes reach `need`, or all of them.
 * Returns the row bytes freed (0: nothing left to evict).
 */
function evictBatch(db: Database, need: number): number {
  const cut = db.get(
    `WITH candidates AS (
       SELECT * FROM (SELECT work AS cost, key, ${PROOF_BYTES} AS bytes FROM proofs ORDER BY work, key LIMIT ?1)
       UNION ALL
       SELECT * FROM (SELECT ${NIM_COST} AS cost, n.key AS key, ${nimBytes('n.')} AS bytes
                      FROM nims n LEFT JOIN nim_costs c ON c.key = n.key ORDER BY 1, 2 LIMIT ?1)),
     cheapest AS (SELECT * FROM candidates ORDER BY cost, key LIMIT ?1),
     running AS (SELECT cost, key, sum(bytes) OVER (ORDER BY cost, key ROWS UNBOUNDED PRECEDING) AS freed FROM cheapest)
     SELECT cost, key, freed FROM running ORDER BY (freed >= ?2) DESC, (CASE WHEN freed >= ?2 THEN freed END) ASC, freed DESC LIMIT 1`,
    [EVICT_BATCH, Math.ceil(need)],
  );
  if (!cut) return 0;
  // everything up to the cut, in the order (cost, key): ties at the cut cost go one by one; an
  // estimate and its bound go with their proof
  const at = [Number(cut.cost), Number(cut.cost), String(cut.key)];
  const proofs = 'SELECT key FROM proofs WHERE work < ? OR (work = ? AND key <= ?)';
  db.run(`DELETE FROM estimates WHERE key IN (${proofs})`, at);
  db.run(`DELETE FROM estimate_bounds WHERE key IN (${proofs})`, at);
  db.run('DELETE FROM proofs WHERE work < ? OR (work = ? AND key <= ?)', at);
  db.run(
    `DELETE FROM nims WHERE key IN (SELECT n.key FROM nims n LEFT JOIN nim_costs c ON c.key = n.key
       WHERE ${NIM_COST} < ? OR (${NIM_COST} = ? AND n.key <= ?))`,
    at,
  );
  db.run('DELETE FROM nim_costs WHERE key NOT IN (SELECT key FROM nims)');
  return Math.max(1, Number(cut.freed));
}

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

export interface ImportReport {
  read: number;
  added: number;
  improved: number;
  unchanged: number;
  /** The first MAX_REJECTED_LISTED rejected lines (a 100 MB file of bad lines must not keep them all). */
  rejected: { line: number; reason: string }[];
  /** Every rejected line. */
  rejectedCount: number;
}

/**
 * Throws, saying why, unless `firstLine` is the header of an export this dab reads (`name` says
 * where it came from in the message).
 */
export function checkExportHeader(firstLine: string, name: string): void {
  let header: unknown;
  try {
    header = JSON.parse(firstLine);
  } catch {
    header = undefined;
  }
  const h = header as { format?: unknown; version?: unknown } | undefined;
  if (!h || h.format !== EXPORT_FORMAT) throw new Error(notAProofExport(name));
  if (typeof h.version !== 'number' || !Number.isInteger(h.version) || h.version < 1)
    throw new Error(unknownExportVersion(name, versionAsWritten(firstLine, h)));
  if (h.version > EXPORT_VERSION) throw new Error(exportOfNewerDab(name, h.version));
}

/** An export's header line is read from at most this many bytes (it is a short JSON object). */
const EXPORT_HEADER_BYTES = 64 * 1024;

const MAX_REJECTED_LISTED = 1000;
/** An import file's size at most: about 2 million records. */
export const MAX_IMPORT_BYTES = 1024 * 1024 * 1024;

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
  /** Row bytes an eviction begun still has to free (evictIfNeeded). */
  private evictDebt = 0;
  /** The records' bytes summed so far, before an eviction (evictIfNeeded): table, last key read, bytes. */
  private sizing: { share: number; table: 'proofs' | 'nims'; after: string; bytes: number; done: boolean } | null =
    null;
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
   * Write every proof to `file` as JSON lines: a header line, then one record per line (the row
   * layout of proof.ts, with its estimate). Returns the number of records.
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
    const records: string[] = [];
    for (const raw of rows) {
      const r = fromStoredRow(raw);
      if (typeof r === 'string') continue; // a damaged record is not passed on (nor a damaged estimate)
      // a failed attempt's record (trivial bounds) says something only with its tried time, which an
      // import does not take: it would be rejected there, so it is not passed on (found by an audit)
      if (checkProof(r.key, { ...r.proof, tried: 0 }) !== undefined) continue;
      records.push(JSON.stringify(toRow(r.key, r.proof)));
    }
    const n = records.length;
    const header = JSON.stringify({ format: EXPORT_FORMAT, version: EXPORT_VERSION, records: n });
    const text = [header, ...records].join('\n') + '\n';
    if (file === '-') {
      writeFileSync(1, text);
      return n;
    }
    // a new file, or a regular file replaced whole (never a device, a directory or a link's target)
    let target;
    try {
      target = lstatSync(file);
    } catch {
      target = null;
    }
    if (target && !target.isFile()) throw new Error(exportNotRegularFile(file));
    // an export replaces only an earlier export (or an empty file): never the store itself, another
    // SQLite file (found by an audit: `export S --store S` lost S), nor a record (`export k.dab`)
    const clobbered: ExportClobber | null = !target
      ? null
      : sameFile(file, this.path)
        ? 'the store'
        : isSqliteFile(file)
          ? 'sqlite'
          : !isExportOrEmpty(file)
            ? 'not an export'
            : null;
    if (clobbered) throw new Error(exportNotWrittenOver(file, clobbered));
    const tmp = `${file}.tmp-${process.pid}`;
    try {
      writeFileSync(tmp, text);
      renameSync(tmp, file);
    } catch (e) {
      rmSync(tmp, { force: true });
      throw new Error(exportCannotBeWritten(file, (e as Error).message));
    }
    return n;
  }

  /**
   * Read an export file (a regular file of at most MAX_IMPORT_BYTES, not /dev/zero, which never
   * ends) and import it (importText).
   */
  importFrom(file: string, verify?: (key: string, proof: Proof) => Proof | string): ImportReport {
    let st;
    try {
      st = statSync(file);
    } catch (e) {
      throw new Error(importCannotBeRead(file, e));
    }
    if (!st.isFile()) throw new Error(importNotRegularFile(file));
    // the header first: a file that is no export is not read on (it may be a gigabyte)
    let head = '';
    try {
      const fd = openSync(file, 'r');
      try {
        const buf = Buffer.alloc(Math.min(EXPORT_HEADER_BYTES, st.size));
        head = buf.subarray(0, readSync(fd, buf, 0, buf.length, 0)).toString('utf8');
      } finally {
        closeSync(fd);
      }
    } catch (e) {
      throw new Error(importCannotBeRead(file, e));
    }
    checkExportHeader(head.split('\n')[0], file);
    if (st.size > MAX_IMPORT_BYTES) throw new Error(importTooLarge(file, st.size, MAX_IMPORT_BYTES));
    return this.importText(readFileSync(file, 'utf8'), file, verify);
  }

  /**
   * Import an export's text (`name` says where it came from in messages): every record is checked,
   * and merged with what is stored. `verify` re-proves each record that passes the checks
   * (cli/cache.ts): it returns the record to keep, or why not. A checksum only catches damage, not a
   * forged or mistaken record, so a record is never believed because a file says so.
   */
  importText(text: string, name: string, verify?: (key: string, proof: Proof) => Proof | string): ImportReport {
    const report: ImportReport = { read: 0, added: 0, improved: 0, unchanged: 0, rejected: [], rejectedCount: 0 };
    const reject = (r: { line: number; reason: string }) => {
      if (report.rejectedCount++ < MAX_REJECTED_LISTED) report.rejected.push(r);
    };
    const lines = text.split('\n');
    checkExportHeader(lines[0], name);
    const good: [string, Proof][] = [];
    for (let i = 1; i < lines.length; i++) {
      if (lines[i].trim() === '') continue;
      report.read++;
      let raw: unknown;
      try {
        raw = JSON.parse(lines[i]);
      } catch {
        reject({ line: i + 1, reason: recordFault.notJson });
        continue;
      }
      if (typeof raw !== 'object' || raw === null) {
        reject({ line: i + 1, reason: recordFault.notARecord });
        continue;
      }
      const r = fromRow(raw as Record<string, unknown>);
      if (typeof r === 'string') {
        reject({ line: i + 1, reason: r });
        continue;
      }
      const verified = verify ? verify(r.key, r.proof) : r.proof;
      // what verify keeps is checked again: without the file's tried time, trivial bounds say nothing
      const kept = typeof verified === 'string' ? verified : (checkProof(r.key, verified) ?? verified);
      if (typeof kept === 'string') reject({ line: i + 1, reason: kept });
      else good.push([r.key, kept]);
    }
    this.flush();
    for (let i = 0; i < good.length; i += 500) {
      const chunk = good.slice(i, i + 500);
      this.guard(
        (f) =>
          f.write(() => {
            for (const [key, proof] of chunk) {
              const outcome = this.writeMerged(f, key, proof, 'keep');
              if (outcome === 'conflict') reject({ line: 0, reason: recordFault.contradictsStored(key) });
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

  /**
   * Over the bound, the cheapest records go, in short transactions of at most EVICT_BATCH records
   * each, for at most `budgetMs` (found by an audit: a 400 MB store over a 256 MB bound was cut in
   * one transaction of minutes, which froze the language server, was broken into by another process,
   * and lost the store when killed). An eviction frees the share of the records' bytes by which the
   * file is over 80% of its bound (budget traces by age, the same share, when it starts), and goes on
   * at the next call where a budget ended it. The records' bytes are summed first, in short steps
   * too (the sum only sets how much goes; records added meanwhile may be counted or not), except
   * when the store is closed (`sizeWhole`).
   */
  private evictIfNeeded(budgetMs: number, sizeWhole = false): void {
    const t0 = Date.now();
    this.guard((f) => {
      if (this.evictDebt <= 0) {
        if (!this.sizing) {
          const used = f.write(() =>
            f.read((db) => {
              const page = Number(db.get('PRAGMA page_size')?.page_size ?? 4096);
              const count = Number(db.get('PRAGMA page_count')?.page_count ?? 0);
              const free = Number(db.get('PRAGMA freelist_count')?.freelist_count ?? 0);
              return (count - free) * page;
            }),
          );
          if (used <= this.maxBytes) return;
          const share = 1 - (0.8 * this.maxBytes) / used;
          this.sizing = { share, table: 'proofs', after: '', bytes: 0, done: false };
        }
        const sizing = this.sizing;
        // one step at least, so that every call makes progress
        do this.sizeStep(f, sizing);
        while (!sizing.done && (sizeWhole || Date.now() - t0 < budgetMs));
        if (!sizing.done) return;
        const { share, bytes } = sizing;
        this.sizing = null;
        this.evictDebt = Math.ceil(bytes * share);
        f.write(() =>
          f.read((db) => {
            const traces = Number(db.get('SELECT count(*) AS n FROM traces')?.n ?? 0);
            if (traces > 0)
              db.run('DELETE FROM traces WHERE key IN (SELECT key FROM traces ORDER BY at ASC LIMIT ?)', [
                Math.ceil(traces * share),
              ]);
          }),
        );
      }
      // one step at least, so that every call makes progress
      if (this.evictDebt > 0)
        do {
          const freed = f.write(() => f.read((db) => evictBatch(db, this.evictDebt)));
          this.evictDebt = freed > 0 ? this.evictDebt - freed : 0;
        } while (this.evictDebt > 0 && Date.now() - t0 < budgetMs);
    }, undefined);
  }

  /** Sums the bytes of the next SIZE_STEP records (by key) of the table being sized, in one transaction. */
  private sizeStep(f: StoreFile, sizing: NonNullable<ProofStore['sizing']>): void {
    const bytes = sizing.table === 'proofs' ? PROOF_BYTES : nimBytes();
    const row = f.write(() =>
      f.read((db) =>
        db.get(
          `SELECT count(*) AS n, max(key) AS last, coalesce(sum(b), 0) AS b
           FROM (SELECT key, ${bytes} AS b FROM ${sizing.table} WHERE key > ?1 ORDER BY key LIMIT ?2)`,
          [sizing.after, SIZE_STEP],
        ),
      ),
    );
    sizing.bytes += Number(row?.b ?? 0);
    if (Number(row?.n ?? 0) === SIZE_STEP) sizing.after = String(row?.last);
    else if (sizing.table === 'proofs') [sizing.table, sizing.after] = ['nims', ''];
    else sizing.done = true;
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

/**
 * The text of line 1's version field as written, e.g. `1e400` (which JSON.parse reads as Infinity,
 * and JSON.stringify writes as null), for the message; undefined when the header has no version.
 */
function versionAsWritten(line: string, header: { version?: unknown }): string | undefined {
  if (!('version' in header)) return undefined;
  return /"version"\s*:\s*([^,}]*)/.exec(line)?.[1].trim() ?? JSON.stringify(header.version);
}

/** Two paths name one file (links followed); false when either cannot be read. */
function sameFile(a: string, b: string): boolean {
  try {
    const x = statSync(a),
      y = statSync(b);
    return x.dev === y.dev && x.ino === y.ino;
  } catch {
    return false;
  }
}

/** The file begins with SQLite's header ("SQLite format 3\0"). */
export function isSqliteFile(file: string): boolean {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const head = Buffer.alloc(16);
    return readSync(fd, head, 0, 16, 0) === 16 && head.toString('latin1') === 'SQLite format 3\0';
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Whether a file is empty or begins as an export does (its header line), so that writing over it loses nothing. */
function isExportOrEmpty(file: string): boolean {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const want = `{"format":${JSON.stringify(EXPORT_FORMAT)}`;
    const head = Buffer.alloc(want.length);
    const n = readSync(fd, head, 0, want.length, 0);
    return n === 0 || (n === want.length && head.toString('utf8') === want);
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
