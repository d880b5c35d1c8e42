/**
 * The store's bounded size: when the live data passes its bound, the cheapest records go. Proofs
 * and Nimstring views are ranked on one scale of search cost (solver nodes: a proof's work, a
 * view's time or budget converted by NIM_NODES_PER_MS / NIM_REGION_NODES), budget traces by age.
 *
 * Everything happens in short transactions (found by an audit: a 400 MB store over a 256 MB bound
 * was cut in one transaction of minutes, which froze the language server, was broken into by
 * another process, and lost the store when killed): the records' bytes are first summed in steps of
 * SIZE_STEP records, then removed in batches of at most EVICT_BATCH, each step within the caller's
 * time budget; an eviction a budget ended goes on at the next call.
 */
import type { Database } from 'node-sqlite3-wasm';
import type { StoreFile } from './database';

/** Solver nodes one region of the Nimstring engine costs, about (1.5M nodes/s against 50k regions/s): eviction's common scale. */
const NIM_REGION_NODES = 30;
/**
 * Solver nodes a millisecond of the Nimstring view's computation stands for (1.5M nodes/s): a view's
 * cost on eviction's scale, from the time it took. Without it (a view imported, or stored by a dab
 * that does not record it) a view ranks at its whole budget, NIM_REGION_NODES a region, and at the
 * CLI's 20,000 regions that put every view above nearly every proof (found by an audit: a 1 MB
 * bound kept 1 of 3,293 proofs and 2,206 of 4,701 views).
 */
export const NIM_NODES_PER_MS = 1500;
/** A view's cost on eviction's scale, in SQL over `nims n LEFT JOIN nim_costs c`. */
const NIM_COST = `coalesce(c.cost, n.budget * ${NIM_REGION_NODES})`;
/** A row's bytes, about (eviction frees the share of them the file is over its bound). */
const PROOF_BYTES = 'length(key) + length(best) + length(moves) + 48';
/** A view row's bytes, about; `t`: the table's alias in the query, if any. */
const nimBytes = (t = ''): string => `length(${t}key) + length(${t}view) + 24`;
/** Records one eviction transaction removes at most (about 30 ms each, so a reader waits that long at most). */
const EVICT_BATCH = 1000;
/**
 * Records one step of sizing reads (about 10 ms): before an eviction the records' bytes are summed
 * in steps of this many, one transaction each (found by an audit: one sum over 2.3 million proofs
 * held the language server 1.5 s).
 */
const SIZE_STEP = 20_000;

/** The records' bytes summed so far, before an eviction: the share to free, table, last key read, bytes. */
interface Sizing {
  share: number;
  table: 'proofs' | 'nims';
  after: string;
  bytes: number;
  done: boolean;
}

/** One store's eviction in progress (the sums and the bytes still to free carry over between calls). */
export class Eviction {
  /** Row bytes an eviction begun still has to free. */
  private debt = 0;
  private sizing: Sizing | null = null;

  constructor(private readonly maxBytes: number) {}

  /**
   * Over the bound, free the share of the records' bytes by which the file is over 80% of its bound
   * (budget traces by age, the same share, when it starts), for at most `budgetMs`. The records'
   * bytes are summed first, in short steps too (the sum only sets how much goes; records added
   * meanwhile may be counted or not), except when the store is closed (`sizeWhole`). Throws what
   * the database throws (the store's guard handles it).
   */
  run(f: StoreFile, budgetMs: number, sizeWhole: boolean): void {
    const t0 = Date.now();
    if (this.debt <= 0) {
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
      do sizeStep(f, sizing);
      while (!sizing.done && (sizeWhole || Date.now() - t0 < budgetMs));
      if (!sizing.done) return;
      const { share, bytes } = sizing;
      this.sizing = null;
      this.debt = Math.ceil(bytes * share);
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
    if (this.debt > 0)
      do {
        const freed = f.write(() => f.read((db) => evictBatch(db, this.debt)));
        this.debt = freed > 0 ? this.debt - freed : 0;
      } while (this.debt > 0 && Date.now() - t0 < budgetMs);
  }
}

/** Sums the bytes of the next SIZE_STEP records (by key) of the table being sized, in one transaction. */
function sizeStep(f: StoreFile, sizing: Sizing): void {
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
