/**
 * Rolling back a hot journal: what SQLite does when it opens a database whose last writer was killed
 * inside a transaction, done here because SQLite's WebAssembly file layer cannot: its lock is one
 * directory for every lock level, and asked whether another connection holds a reserved lock it
 * answers yes whenever the directory exists, which it does then (it is the opener's own shared
 * lock). So SQLite never takes the journal for hot: it read the half-written file ("malformed": the
 * store was set aside) and its next transaction overwrote the journal, the only copy of the pages
 * the killed writer had changed (found by an audit: a kill during a long transaction lost every proof).
 *
 * The caller must hold the store's lock (database.ts), so no other process reads or writes the file.
 *
 * The rollback journal's layout (sqlite.org/fileformat.html, "The Rollback Journal"), integers big-endian:
 *   header, at offset 0 and again at each multiple of the sector size where a new one begins:
 *     0  8  magic d9 d5 05 f9 20 a1 63 d7
 *     8  4  records in this segment (0xffffffff: as many as fit before the file's end)
 *    12  4  checksum nonce
 *    16  4  the database's size in pages before the transaction (the first header's is used)
 *    20  4  sector size (first header only; the header takes one sector)
 *    24  4  page size (first header only)
 *   record: page number (4), the page as it was (page size), checksum (4): the nonce plus every
 *     200th byte of the page, from page size - 200 down to above 0, summed modulo 2^32.
 * As SQLite's pager does for a hot journal: the database is cut back to its original size, then
 * every record is written back in order, until a segment's records end, a header is not one, a
 * record is cut short, its checksum is wrong, or its page is 0 or the lock-byte page (the rest was
 * never synced, so the database was not yet changed there); pages past the original size are left
 * out. A journal without a valid first header changed nothing. The journal is then deleted.
 */
import { closeSync, fstatSync, fsyncSync, ftruncateSync, openSync, readSync, unlinkSync, writeSync } from 'node:fs';

const MAGIC = Buffer.from([0xd9, 0xd5, 0x05, 0xf9, 0x20, 0xa1, 0x63, 0xd7]);
/** SQLite's pending byte: the page that holds it is never a database page. */
const PENDING_BYTE = 0x40000000;
const ALL_THAT_FIT = 0xffffffff;
/** Read as damage by database.ts (isDamage): the store is set aside, its journal with it. */
export const JOURNAL_DAMAGED = 'the journal of an unfinished transaction is corrupt';

const powerOfTwo = (n: number, lo: number, hi: number) => n >= lo && n <= hi && (n & (n - 1)) === 0;

/**
 * Roll the journal of the database at `dbPath` back into it, if there is one: 'none' (no journal),
 * 'empty' (a journal that changed nothing, deleted) or the number of pages written back.
 */
export function rollBackJournal(dbPath: string): 'none' | 'empty' | number {
  const journalPath = `${dbPath}-journal`;
  let jfd: number;
  try {
    jfd = openSync(journalPath, 'r');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return 'none';
    throw e;
  }
  let restored = 0;
  try {
    const size = fstatSync(jfd).size;
    const read = (at: number, n: number): Buffer | null => {
      if (at + n > size) return null;
      const b = Buffer.alloc(n);
      return readSync(jfd, b, 0, n, at) === n ? b : null;
    };
    const first = read(0, 28);
    if (first && first.subarray(0, 8).equals(MAGIC)) {
      const sector = first.readUInt32BE(20);
      const page = first.readUInt32BE(24);
      // a journal SQLite would call corrupt is kept (the store is then set aside with it)
      if (!powerOfTwo(page, 512, 65536) || !powerOfTwo(sector, 32, 65536)) throw new Error(JOURNAL_DAMAGED);
      {
        const dbSize = first.readUInt32BE(16);
        const lockPage = Math.floor(PENDING_BYTE / page) + 1;
        const dfd = openSync(dbPath, 'r+');
        try {
          ftruncateSync(dfd, dbSize * page);
          let off = 0;
          segments: for (;;) {
            const h = read(off, 28);
            if (!h || !h.subarray(0, 8).equals(MAGIC)) break;
            const nonce = h.readUInt32BE(12);
            let records = h.readUInt32BE(8);
            off += sector;
            if (records === ALL_THAT_FIT) records = Math.floor((size - off) / (page + 8));
            for (let r = 0; r < records; r++) {
              const rec = read(off, page + 8);
              if (!rec) break segments;
              off += page + 8;
              const pgno = rec.readUInt32BE(0);
              if (pgno === 0 || pgno === lockPage) break segments;
              if (pgno > dbSize) continue;
              const data = rec.subarray(4, 4 + page);
              let sum = nonce;
              for (let i = page - 200; i > 0; i -= 200) sum = (sum + data[i]) >>> 0;
              if (sum !== rec.readUInt32BE(4 + page)) break segments;
              writeSync(dfd, data, 0, page, (pgno - 1) * page);
              restored++;
            }
            // the next header starts at the next sector boundary
            off = Math.ceil(off / sector) * sector;
          }
          fsyncSync(dfd);
        } finally {
          closeSync(dfd);
        }
      }
    }
  } finally {
    closeSync(jfd);
  }
  unlinkSync(journalPath);
  return restored > 0 ? restored : 'empty';
}
