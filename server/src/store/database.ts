/**
 * The proof store's file: SQLite (node-sqlite3-wasm: SQLite compiled to WebAssembly, so it runs in
 * VS Code's extension host and plain Node on every platform with nothing to compile or download).
 *
 * Two processes at once: SQLite's rollback journal makes every transaction atomic and durable; the
 * WebAssembly file layer locks the database by creating the directory `<file>.lock` (atomic on every
 * file system), and a second process gets SQLITE_BUSY, which we retry. A process killed inside a
 * transaction leaves that directory behind: we write our pid (and its start time) into it while we
 * hold it (every transaction, reads too; only VACUUM runs without), moved beside it while the
 * transaction ends (StoreFile.end), and a lock whose owner is dead, or that has no owner and is older
 * than STALE_LOCK_MS, is taken over in place (claimStaleLock), the journal the killed process left is
 * rolled back (journal.ts: SQLite's file layer cannot), and only then is the lock removed. A lock
 * whose owner lives is never broken, however old (found by audits: a lock broken after 120 s of a
 * long transaction, or 2 s into a stopped COMMIT, let two processes write at once).
 *
 * A file that is not a database, is damaged, or belongs to something else is renamed aside
 * (`<file>.corrupt-<time>` / `<file>.foreign-<time>`) and a fresh store is started; the caller gets
 * the message. A path named like a record (`.dab`) is never used. Nothing here throws to the
 * caller after open() except through its documented result.
 */
import { Database } from 'node-sqlite3-wasm';
import {
  accessSync,
  closeSync,
  constants,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { JOURNAL_DAMAGED, rollBackJournal } from './journal';
import { hostname } from 'node:os';
import {
  notAProofStore,
  storeIsRecord,
  storeCannotBeCreated,
  storeCannotBeOpened,
  storeDamagedSetAside,
  storeFileProblemWords,
  storeOfNewerDab,
  storeOfOlderFormat,
  storeStaysLocked,
} from '../engine/phrasebook/store';

export const STORE_FORMAT = 'dab-proof-store';
/**
 * 4: the table `estimates` (best moves found so far, not proven), and a Nimstring view cut short by
 * its time limit is kept with that limit (a field `cutMs` inside the view's JSON, nimView.ts; no new
 * column, so a version-3 dab that still has the file open goes on writing its rows). A version-3
 * store is migrated in place when it is opened (the table is added; its proofs and Nimstring views
 * are kept as they are, each view as one of its whole budget).
 */
export const STORE_VERSION = 4;
/**
 * The longest record trace kept (characters; a record of about 2,000 positions). A table without
 * rowids reads a long row whole whenever a lookup compares a key with it (found by an audit: one
 * 8 MB trace, from a record of 200,000 variations, made each later lookup take 7 ms); a longer
 * trace is not kept, and a warm run of its record times its own budget.
 */
export const MAX_TRACE_CHARS = 16_000;
/**
 * A lock directory without an owner file, and with no transaction ending beside it, older than this
 * is left over from a killed process: only VACUUM, and the instants between taking the lock and
 * writing the owner file, hold it without one.
 */
export const STALE_LOCK_MS = 2_000;
/**
 * A lock whose owner's pid is alive but cannot be told from a reused one (no start time: another
 * system, another host, or an older dab) is respected until it is this old.
 */
const ABANDONED_LOCK_MS = 30 * 60_000;

/** A process's start time (clock ticks since boot, /proc/PID/stat field 22), or '' where there is no /proc. */
function startTimeOf(pid: number | 'self'): string {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? '';
  } catch {
    return '';
  }
}
/** What a lock's owner file says: `pid host start` (start '' where unknown). */
const OWNER = `${process.pid} ${hostname()} ${startTimeOf('self')}`.trimEnd();

/** Added by version 4 (proof.ts describes the row). */
const ESTIMATES = `CREATE TABLE IF NOT EXISTS estimates (
  key TEXT PRIMARY KEY, line INTEGER NOT NULL, work REAL NOT NULL, crc INTEGER NOT NULL
) WITHOUT ROWID;`;

/**
 * Traces by age, for dropping the oldest without reading the rows. Added to a store that lacks it
 * when it is opened; a dab that does not know it keeps it up to date all the same (SQLite does).
 */
const TRACES_BY_AGE = 'CREATE INDEX IF NOT EXISTS traces_by_age ON traces (at);';

/**
 * Records' budget traces (cli/recordClock.ts): created by any version-4 dab that knows it, when it
 * opens the store (a version-4 dab that does not know it never reads it: no new version). A row is
 * a key, the trace's text, when it was written (the oldest go first beyond MAX_TRACES) and a checksum.
 */
const TRACES = `CREATE TABLE IF NOT EXISTS traces (
  key TEXT PRIMARY KEY, trace TEXT NOT NULL, at REAL NOT NULL, crc INTEGER NOT NULL
) WITHOUT ROWID;
${TRACES_BY_AGE}`;

/**
 * What each Nimstring view cost to compute, in solver nodes (its time at NIM_NODES_PER_MS): eviction
 * ranks views by it beside the proofs' work (a view with no row ranks at its budget). Created like
 * `traces`, by any version-4 dab that knows it, so a dab that does not still writes its views; a
 * cost only orders eviction, never an answer.
 */
const NIM_COSTS = `CREATE TABLE IF NOT EXISTS nim_costs (key TEXT PRIMARY KEY, cost REAL NOT NULL) WITHOUT ROWID;`;

/**
 * Proven bounds of estimates (proof.ts describes the row): created like `traces`, by any version-4
 * dab that knows it. A row is a fact about a position and one of its moves (the move is worth at
 * least `lower`), read only beside an estimate of that same move; a dab that does not know the
 * table may replace the estimate, and the row then no longer applies, which is never wrong.
 */
const ESTIMATE_BOUNDS = `CREATE TABLE IF NOT EXISTS estimate_bounds (
  key TEXT PRIMARY KEY, line INTEGER NOT NULL, lower INTEGER NOT NULL, crc INTEGER NOT NULL
) WITHOUT ROWID;`;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS proofs (
  key TEXT PRIMARY KEY, lower INTEGER NOT NULL, upper INTEGER NOT NULL,
  best TEXT NOT NULL, moves TEXT NOT NULL, work REAL NOT NULL, tried INTEGER NOT NULL, crc INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS proofs_by_work ON proofs (work);
CREATE TABLE IF NOT EXISTS nims (key TEXT PRIMARY KEY, budget INTEGER NOT NULL, view TEXT NOT NULL, crc INTEGER NOT NULL) WITHOUT ROWID;
${ESTIMATES}
${TRACES}
${NIM_COSTS}
${ESTIMATE_BOUNDS}`;

/** The columns of each table of a version-4 store, in order (SCHEMA): a file with other ones is not ours. */
const COLUMNS: [string, string][] = [
  ['meta', 'name,value'],
  ['proofs', 'key,lower,upper,best,moves,work,tried,crc'],
  ['nims', 'key,budget,view,crc'],
  ['estimates', 'key,line,work,crc'],
  ['traces', 'key,trace,at,crc'],
  ['nim_costs', 'key,cost'],
  ['estimate_bounds', 'key,line,lower,crc'],
];

export class StoreBusy extends Error {}
/** Owner files moved beside the lock by this process (StoreFile.end): each gets its own name. */
let committing = 0;
export class StoreDamaged extends Error {
  /** `setAsideAs`: the name the file was already set aside as (with its journal), if it was. */
  constructor(
    message: string,
    readonly setAsideAs?: string,
  ) {
    super(message);
  }
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));
function sleep(ms: number): void {
  Atomics.wait(sleeper, 0, 0, ms);
}

function isBusy(e: unknown): boolean {
  return /database is locked|SQLITE_BUSY|busy/i.test(String((e as Error)?.message ?? e));
}
function isDamage(e: unknown): boolean {
  return /malformed|not a database|corrupt|disk image|file is encrypted/i.test(String((e as Error)?.message ?? e));
}

function stamp(): string {
  return new Date().toISOString().replace(/[:.]/g, '-');
}

/**
 * mkdir -p, one level at a time: Node 20's recursive mkdirSync loops for ever under /proc (a
 * directory there that does not exist is never created and never reported), so a store path
 * there would hang the caller.
 */
function makeDirectories(dir: string): void {
  const missing: string[] = [];
  for (let d = dir; !existsSync(d); d = dirname(d)) {
    if (dirname(d) === d) break;
    missing.push(d);
  }
  for (const d of missing.reverse()) mkdirSync(d);
}

/**
 * Why the store's file cannot be opened, in words: SQLite's WebAssembly build says only "Could not
 * open the database" (found by an audit: a read-only file, a folder and a link loop all read alike).
 */
function whyNotOpened(path: string, e: unknown): string {
  const said = (e as Error)?.message ?? String(e);
  try {
    const st = statSync(path);
    if (st.isDirectory()) return storeFileProblemWords('folder');
    if (!st.isFile()) return storeFileProblemWords('not a file');
    accessSync(path, constants.R_OK | constants.W_OK);
    accessSync(dirname(path), constants.W_OK); // the lock and the journal are made beside it
  } catch (why) {
    const code = (why as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') return storeFileProblemWords('links loop');
    if (code === 'ENOTDIR') return storeFileProblemWords('path through a file');
    if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') return storeFileProblemWords('read-only');
    if (code === 'ENOENT') {
      try {
        accessSync(dirname(path), constants.W_OK);
      } catch {
        return storeFileProblemWords('folder read-only');
      }
    }
  }
  return said;
}

/** Rename a file (and its journal) aside; returns the new name. */
function setAside(path: string, why: 'corrupt' | 'foreign' | 'old'): string {
  const to = `${path}.${why}-${stamp()}`;
  renameSync(path, to);
  for (const side of ['-journal']) if (existsSync(path + side)) renameSync(path + side, to + side);
  return to;
}

export interface OpenResult {
  db: StoreFile | null;
  /** What the user should be told (a file set aside, a store of a newer dab, an unusable location). */
  warnings: string[];
  /** Not opened because another process kept it locked (warnings say so). */
  busy?: boolean;
}

/** One open store file with retrying, self-healing transactions. */
export class StoreFile {
  private ino = 0;
  private constructor(
    readonly path: string,
    private db: Database,
  ) {
    this.ino = statSync(path).ino;
  }

  private get lockDir(): string {
    return `${this.path}.lock`;
  }

  /** Open (creating) the store at `path`; damaged or foreign files are set aside. */
  static open(path: string): OpenResult {
    const warnings: string[] = [];
    try {
      makeDirectories(dirname(path));
    } catch (e) {
      return { db: null, warnings: [storeCannotBeCreated(path, whyNotOpened(path, e))] };
    }
    // a .dab name is a record's, never a store's: never set aside, taken over or made (found by an
    // audit: `--store games.dab` renamed the record aside and made a store of its name; a store named
    // so would be read as a record by dab check)
    if (/\.dab$/i.test(path)) return { db: null, warnings: [storeIsRecord(path)] };
    removeDeadEndingOwners(`${path}.lock`);
    for (let attempt = 0; attempt < 3; attempt++) {
      let db: Database | null = null;
      try {
        const aside = rollBackUnlocked(path);
        if (aside) warnings.push(storeDamagedSetAside(path, JOURNAL_DAMAGED, aside));
        db = new Database(path);
        const f = new StoreFile(path, db);
        const verdict = f.initialise();
        if (verdict === 'ok') return { db: f, warnings };
        f.closeQuietly();
        if (verdict === 'newer') {
          warnings.push(storeOfNewerDab(path));
          return { db: null, warnings };
        }
        const to = setAside(path, verdict === 'older' ? 'old' : 'foreign');
        warnings.push(verdict === 'older' ? storeOfOlderFormat(path, to) : notAProofStore(path, to));
      } catch (e) {
        try {
          db?.close();
        } catch {
          /* already unusable */
        }
        if (e instanceof StoreDamaged && e.setAsideAs) {
          warnings.push(storeDamagedSetAside(path, e.message, e.setAsideAs));
          continue;
        }
        if (e instanceof StoreBusy) {
          warnings.push(storeStaysLocked(path));
          return { db: null, warnings, busy: true };
        }
        if (!isDamage(e) || !existsSync(path)) {
          warnings.push(storeCannotBeOpened(path, whyNotOpened(path, e)));
          return { db: null, warnings };
        }
        const to = setAside(path, 'corrupt');
        warnings.push(storeDamagedSetAside(path, (e as Error).message, to));
      }
    }
    return { db: null, warnings };
  }

  /** Create the schema or check it is ours. */
  private initialise(): 'ok' | 'foreign' | 'newer' | 'older' {
    return this.write(() => {
      const tables = this.db.all("SELECT name FROM sqlite_master WHERE type = 'table'").map((r) => String(r.name));
      if (tables.length > 0) {
        if (!tables.includes('meta') || !tables.includes('proofs')) return 'foreign';
        // a file with our tables' names is ours only if its meta says so (found by an audit: another
        // program's `meta` and `proofs` were called a store of an older format)
        if (this.columnsOf('meta') !== 'name,value') return 'foreign';
        const meta = new Map(this.db.all('SELECT name, value FROM meta').map((r) => [String(r.name), String(r.value)]));
        // every dab store has written its format there since the first
        if (meta.get('format') !== STORE_FORMAT) return 'foreign';
        const v = Number(meta.get('version'));
        if (!Number.isInteger(v)) return 'foreign';
        if (v > STORE_VERSION) return 'newer';
        // every version from 3 on has the views' table: one without it is not what it says it is
        if (!tables.includes('nims')) return v < 3 ? 'older' : 'foreign';
        if (v === 3) {
          // version 3 -> 4: one table more; every proof and view stays (old rows need no change)
          this.db.exec(ESTIMATES);
          this.db.exec(TRACES);
          this.db.exec(NIM_COSTS);
          this.db.exec(ESTIMATE_BOUNDS);
          this.db.run("UPDATE meta SET value = ? WHERE name = 'version'", [String(STORE_VERSION)]);
          return 'ok';
        }
        if (v < STORE_VERSION) return 'older';
        if (!tables.includes('estimates')) return 'foreign';
        // tables of our names with other columns: a look-alike, which every query would fail on
        for (const [table, columns] of COLUMNS)
          if (tables.includes(table) && this.columnsOf(table) !== columns) return 'foreign';
        if (!tables.includes('traces')) this.db.exec(TRACES);
        else if (
          this.db.all("SELECT name FROM sqlite_master WHERE type = 'index' AND name = 'traces_by_age'").length === 0
        ) {
          this.db.exec(TRACES_BY_AGE);
          // and, once, the traces a dab before it kept however long: every lookup that passed one read it whole
          this.db.run('DELETE FROM traces WHERE length(trace) > ?', [MAX_TRACE_CHARS]);
        }
        if (!tables.includes('nim_costs')) this.db.exec(NIM_COSTS);
        if (!tables.includes('estimate_bounds')) this.db.exec(ESTIMATE_BOUNDS);
        return 'ok';
      }
      this.db.exec(SCHEMA);
      this.db.run('INSERT INTO meta VALUES (?, ?), (?, ?)', ['format', STORE_FORMAT, 'version', String(STORE_VERSION)]);
      return 'ok';
    });
  }

  /** A table's column names in order, comma-separated. */
  private columnsOf(table: string): string {
    return this.db
      .all(`SELECT name FROM pragma_table_info(?)`, [table])
      .map((r) => String(r.name))
      .join(',');
  }

  /** The file at our path was replaced (set aside by another process): reopen it. */
  replaced(): boolean {
    try {
      return statSync(this.path).ino !== this.ino;
    } catch {
      return true;
    }
  }

  /** Run `fn` inside a write transaction, retrying while another process holds the lock. */
  write<T>(fn: () => T, waitMs = 3000): T {
    return this.retry(() => this.owned('BEGIN IMMEDIATE', fn), waitMs);
  }

  /**
   * Run reads, retrying while another process holds the lock: inside a transaction that shows its
   * owner (a reader holds the one lock directory too, and one stopped there, say by Ctrl-Z, must not
   * be taken for dead); inside a write, as part of it.
   */
  read<T>(fn: (db: Database) => T, waitMs = 500): T {
    if (this.db.inTransaction) return this.retry(() => fn(this.db), waitMs);
    return this.retry(() => this.owned('BEGIN', () => fn(this.db)), waitMs);
  }

  /** A statement that cannot be inside a transaction (VACUUM), retried while the store is locked. */
  alone<T>(fn: (db: Database) => T, waitMs = 500): T {
    return this.retry(() => fn(this.db), waitMs);
  }

  /**
   * `fn` inside a transaction begun by `begin`, the lock's owner file written while it is held. At
   * its end SQLite removes the lock directory, which it can only do when it is empty: the owner file
   * is moved out beside it first (`<lock>.committing-…`, one rename: the owner is never unnamed) and
   * removed after (found by an audit: with the file deleted before COMMIT, a writer stopped in its
   * COMMIT for 2 s was taken for dead, its journal rolled back under it, and the store corrupted).
   */
  private owned<T>(begin: string, fn: () => T): T {
    this.db.exec(begin);
    let out: T;
    // whether the lock is ours: until then the owner file in it is another process's, never touched
    let held = false;
    try {
      // a deferred transaction takes the lock at its first read
      if (begin === 'BEGIN') this.db.get('SELECT 1 FROM sqlite_master LIMIT 1');
      held = true;
      this.markOwner();
      out = fn();
      this.end('COMMIT', held);
    } catch (e) {
      this.end('ROLLBACK', held);
      throw e;
    }
    return out;
  }

  /** COMMIT or ROLLBACK with the owner file moved beside the lock meanwhile (owned). */
  private end(how: 'COMMIT' | 'ROLLBACK', held: boolean): void {
    const aside = `${this.lockDir}.committing-${process.pid}-${++committing}`;
    let moved = false;
    if (held)
      try {
        renameSync(join(this.lockDir, 'owner'), aside);
        moved = true;
      } catch {
        /* no owner file (it could not be written) */
      }
    try {
      this.db.exec(how);
    } catch (e) {
      if (how === 'COMMIT') throw e;
      /* no transaction left to roll back */
    } finally {
      if (moved) rmSync(aside, { force: true });
    }
  }

  private retry<T>(fn: () => T, waitMs: number): T {
    const start = Date.now();
    for (let pause = 1; ; pause = Math.min(pause * 2, 50)) {
      try {
        return fn();
      } catch (e) {
        if (isDamage(e)) throw new StoreDamaged(String((e as Error).message));
        if (!isBusy(e)) throw e;
        if (this.breakStaleLock()) continue;
        if (Date.now() - start > waitMs) throw new StoreBusy(`proof store busy: ${this.path}`);
        sleep(pause);
      }
    }
  }

  private markOwner(): void {
    try {
      writeFileSync(join(this.lockDir, 'owner'), OWNER);
    } catch {
      /* the lock works without it; only stale-lock detection is slower */
    }
  }

  /**
   * Free the lock of a dead process: take it over, roll its journal back, remove it. True when the
   * lock is free (the caller tries again), false when it is alive or another process took it over.
   */
  private breakStaleLock(): boolean {
    // a regular file where the lock directory goes is no lock of any dab (they are directories): a
    // stray file, which would keep the store locked for good; set aside, never deleted (found by an audit)
    try {
      if (statSync(this.lockDir).isFile()) {
        renameSync(this.lockDir, `${this.lockDir}.stray-${Date.now()}`);
        return true;
      }
    } catch {
      /* no lock, or it went meanwhile: the checks below say so */
    }
    const owner = staleOwner(this.lockDir);
    if (owner === undefined || !claimStaleLock(this.lockDir, owner)) return false;
    const aside = releaseAfterRollBack(this.path, this.lockDir);
    if (aside) throw new StoreDamaged(JOURNAL_DAMAGED, aside);
    return true;
  }

  /** Give up on a damaged file: close it and rename it aside (unless another process already did). */
  setAsideDamaged(): string | null {
    this.closeQuietly();
    if (this.replaced()) return null;
    try {
      return setAside(this.path, 'corrupt');
    } catch {
      return null;
    }
  }

  fileBytes(): number {
    try {
      return statSync(this.path).size;
    } catch {
      return 0;
    }
  }

  closeQuietly(): void {
    try {
      if (this.db.isOpen) this.db.close();
    } catch {
      /* closing a broken handle */
    }
  }
}

/** An owner file's text read: pid, host, start time ('' when not written); null when it is not one. */
function parseOwner(owner: string): { pid: number; host: string; start: string } | null {
  const [pidText, host, start = ''] = owner.split(' ');
  const pid = Number(pidText);
  return Number.isInteger(pid) && pid > 0 && host ? { pid, host, start } : null;
}

/**
 * Whether the process an owner file's text names is alive: true, false (no such process, or its pid
 * is another process's now: the start time differs), undefined when that cannot be told (no
 * owner's shape, another host, no start time to compare).
 */
function ownerAlive(owner: string): boolean | undefined {
  const o = parseOwner(owner);
  if (!o || o.host !== hostname()) return undefined;
  if (o.pid === process.pid) return true;
  try {
    process.kill(o.pid, 0);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ESRCH') return false;
  }
  const now = o.start ? startTimeOf(o.pid) : '';
  return now !== '' ? now === o.start : undefined;
}

/** The owner files moved beside the lock `dir` while their transactions end (StoreFile.end). */
function endingOwnerFiles(dir: string): string[] {
  const prefix = `${basename(dir)}.committing-`;
  try {
    return readdirSync(dirname(dir))
      .filter((f) => f.startsWith(prefix))
      .map((f) => join(dirname(dir), f));
  } catch {
    return [];
  }
}

/**
 * Remove the owner files of dead processes moved beside the lock `dir` while they ended a
 * transaction (a process killed between its COMMIT and their removal leaves one; found by an audit:
 * they stayed for good). Only those whose process is proven dead: a live one's shows it is ending.
 */
function removeDeadEndingOwners(dir: string): void {
  for (const file of endingOwnerFiles(dir)) {
    const text = textOf(file);
    if (text !== undefined && ownerAlive(text) === false) rmSync(file, { force: true });
  }
}

/** A file's text, or undefined when it is gone (an owner file beside the lock whose transaction ended). */
function textOf(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * The lock directory `dir`, when it is stale: its owner file's text (null: it has none), else
 * undefined (alive, or not there). Stale: the owner process is dead (no such pid on this host, or
 * the pid is another process's: its start time differs); or its owner cannot be checked (another
 * host, no start time) and it is older than ABANDONED_LOCK_MS; or it has no owner file, no process
 * that is ending a transaction shows itself beside it, and it is older than STALE_LOCK_MS.
 */
function staleOwner(dir: string): string | null | undefined {
  try {
    const age = Date.now() - statSync(dir).mtimeMs;
    let owner: string | null;
    try {
      owner = readFileSync(join(dir, 'owner'), 'utf8');
    } catch {
      owner = null;
    }
    if (owner !== null && parseOwner(owner)) {
      const alive = ownerAlive(owner);
      if (alive !== undefined) return alive ? undefined : owner;
      return age > ABANDONED_LOCK_MS ? owner : undefined;
    }
    // no owner, or one cut short by a kill while it was written: a transaction ending shows itself
    // beside the lock; else only the age tells
    const ending = endingOwnerFiles(dir)
      .map(textOf)
      .filter((t) => t !== undefined)
      .map(ownerAlive);
    if (ending.includes(true)) return undefined;
    if (ending.includes(undefined)) return age > ABANDONED_LOCK_MS ? owner : undefined;
    return age > STALE_LOCK_MS ? owner : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Take over the stale lock `dir` (its owner file's text `owner`, null for none) without ever letting
 * it go: the owner file is moved aside (atomic: one process only succeeds), checked to be the one
 * judged stale, and ours is created in its place (exclusive). Of two processes that judged it stale
 * at once, one takes it over and the other gets false. The lock never disappears meanwhile, so no
 * process reads the file before its journal is rolled back.
 */
function claimStaleLock(dir: string, owner: string | null): boolean {
  const ownerFile = join(dir, 'owner');
  if (owner !== null) {
    const moved = join(dir, `stale-${process.pid}-${Date.now()}`);
    try {
      renameSync(ownerFile, moved);
    } catch {
      return false; // taken over meanwhile
    }
    let was: string | null = null;
    try {
      was = readFileSync(moved, 'utf8');
    } catch {
      /* gone: not ours to judge */
    }
    if (was !== owner) {
      try {
        renameSync(moved, ownerFile);
      } catch {
        /* the one that took it over wrote its own */
      }
      return false;
    }
  }
  try {
    writeFileSync(ownerFile, OWNER, { flag: 'wx' });
    return true;
  } catch {
    return false;
  }
}

/**
 * With the lock `dir` held (taken over, or made here): roll back the journal a killed writer left,
 * then remove the lock. A journal that cannot be rolled back (SQLite would call it corrupt) is not
 * left for SQLite, which would read the half-written file and overwrite the journal: the file is
 * set aside with its journal (found by an audit); returns the name it was set aside as.
 */
function releaseAfterRollBack(path: string, dir: string): string | undefined {
  let to: string | undefined;
  try {
    rollBackJournal(path);
  } catch {
    try {
      to = setAside(path, 'corrupt');
    } catch {
      /* left as it is: the opener finds it damaged */
    }
  }
  removeDeadEndingOwners(dir);
  try {
    rmSync(dir, { recursive: true, force: true });
  } catch {
    /* a later opener finds it stale again */
  }
  return to;
}

/**
 * Before SQLite opens the file: a journal with no lock beside it (a lock removed by hand, or broken
 * by a dab before this one) is rolled back under a lock of our own, as SQLite would if it could.
 */
function rollBackUnlocked(path: string): string | undefined {
  const dir = `${path}.lock`;
  if (!existsSync(`${path}-journal`) || existsSync(dir)) return undefined;
  try {
    mkdirSync(dir);
  } catch {
    return undefined; // another process holds it: its journal is not left over
  }
  try {
    writeFileSync(join(dir, 'owner'), OWNER, { flag: 'wx' });
  } catch {
    /* the lock works without it */
  }
  return releaseAfterRollBack(path, dir);
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
