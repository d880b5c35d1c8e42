/**
 * The solver's transposition table: a fixed-size array of entries keyed exactly by the canonical
 * drawn-line bit set (no hash collision can ever give a wrong value; the hash only picks the bucket).
 *
 * Entry layout: `keyWords + 2` Int32 words, interleaved in one Int32Array so that a probe touches
 * one cache line (a bucket of 4 entries of 4 words = 64 bytes up to 64 lines):
 *
 *   word 0 .. keyWords-1   KEY     the canonical drawn-line bit set
 *   word keyWords          BOUNDS  bits 0-15: lower bound (signed), bits 16-31: upper bound (signed)
 *   word keyWords + 1      MOVE    bits 0-15: best move in the canonical orientation (signed, -1 none),
 *                                  bits 16-31: replacement priority + 1 (0 = empty slot)
 *
 * Buckets of `bucket` consecutive entries (1, 2, 4 or 8); the hash's low bits pick the bucket. A new
 * position replaces the empty or lowest-priority entry of its bucket. The priority is the search
 * effort behind the entry (log2 of its subtree's nodes) or the number of undrawn lines; re-storing a
 * position keeps the larger of the old and new priorities when `keepMaxPriority`.
 */

/** BOUNDS word: lower bound in the low half. */
export const LO_MASK = 0xffff;
/** BOUNDS word: upper bound in the high half. */
export const HI_SHIFT = 16;
/** MOVE word: best move in the low half. */
export const MOVE_MASK = 0xffff;
/** MOVE word: priority + 1 in the high half (0 = empty). */
export const PRIORITY_SHIFT = 16;
/** Largest priority that fits (priorities are at most ~64 in practice). */
export const MAX_PRIORITY = 0xfffe;

/**
 * log2 of the most entries a table may have: 2^28 entries of 16 bytes (boards up to 64 lines) are
 * MAX_TABLE_MB, 4 GiB, the largest table a setting may ask for (tableBitsFor then never reaches the
 * cap on larger boards, whose entries are larger).
 */
export const MAX_TABLE_BITS = 28;

/** Table sizes are powers of two from 2^4 to 2^MAX_TABLE_BITS entries. */
function clampTableBits(bits: number): number {
  return Math.max(4, Math.min(MAX_TABLE_BITS, bits));
}

/** Bytes of one entry for `keyWords` key words. */
export function entryBytes(keyWords: number): number {
  return 4 * (keyWords + 2);
}

/** log2 of the entries that fit in `bytes` (at least 4, at most MAX_TABLE_BITS). */
export function tableBitsFor(bytes: number, keyWords: number): number {
  const bits = Math.floor(Math.log2(Math.max(1, bytes) / entryBytes(keyWords)));
  return clampTableBits(bits);
}

export class TranspositionTable {
  /** Key words per entry. */
  readonly nw: number;
  /** Words per entry. */
  readonly ew: number;
  readonly bits: number;
  /** Entries. */
  readonly size: number;
  readonly bucket: number;
  readonly tab: Int32Array;
  readonly keepMaxPriority: boolean;
  /** Entries in use. */
  used = 0;

  constructor(keyWords: number, bits: number, bucket: number, keepMaxPriority: boolean, buffer?: ArrayBufferLike) {
    this.nw = keyWords;
    this.ew = keyWords + 2;
    this.bits = clampTableBits(bits);
    this.size = 1 << this.bits;
    this.bucket = Math.min(bucket, this.size);
    this.keepMaxPriority = keepMaxPriority;
    this.tab = buffer ? new Int32Array(buffer, 0, this.size * this.ew) : new Int32Array(this.size * this.ew);
  }

  /** Bytes held by the entries. */
  get bytes(): number {
    return this.tab.byteLength;
  }

  clear(): void {
    this.tab.fill(0);
    this.used = 0;
  }

  /** After a successful probe(): the entry's lower and upper bounds and best move (canonical, -1 none). */
  lo = 0;
  hi = 0;
  mv = -1;

  /**
   * Slot of the entry whose key is key[off .. off + nw), or -1; h is the key's hash. On a hit the
   * entry's bounds and move are copied to lo, hi and mv (read those, not the slot: in a shared
   * table another thread may reuse the slot at any time).
   */
  probe(key: Uint32Array, off: number, h: number): number {
    const nw = this.nw,
      ew = this.ew,
      tab = this.tab,
      bk = this.bucket;
    let i = h & (this.size - bk);
    for (let k = 0; k < bk; k++, i++) {
      const e0 = i * ew;
      const data = tab[e0 + nw + 1];
      if (data >>> PRIORITY_SHIFT === 0) continue;
      let w = 0;
      while (w < nw && tab[e0 + w] === (key[off + w] | 0)) w++;
      if (w === nw) {
        const b = tab[e0 + nw];
        this.lo = (b << HI_SHIFT) >> HI_SHIFT;
        this.hi = b >> HI_SHIFT;
        this.mv = (data << PRIORITY_SHIFT) >> PRIORITY_SHIFT;
        return i;
      }
    }
    return -1;
  }

  /** Whether the entry at `slot` is in use and holds the key key[off .. off + nw). */
  holds(slot: number, key: Uint32Array, off: number): boolean {
    const e0 = slot * this.ew,
      tab = this.tab;
    if (tab[e0 + this.nw + 1] >>> PRIORITY_SHIFT === 0) return false;
    for (let w = 0; w < this.nw; w++) if (tab[e0 + w] !== (key[off + w] | 0)) return false;
    return true;
  }

  /**
   * Store bounds and a best move (already in the canonical orientation) for the key; `slot` is the
   * key's slot from probe() or -1 for a new entry (which replaces the bucket's least valuable one).
   */
  store(
    key: Uint32Array,
    off: number,
    h: number,
    slot: number,
    lo: number,
    hi: number,
    move: number,
    priority: number,
  ): void {
    const nw = this.nw,
      ew = this.ew;
    let i = slot;
    if (i < 0) {
      const j = h & (this.size - this.bucket);
      i = j;
      let pmin = this.priority(j);
      for (let k = 1; k < this.bucket && pmin !== 0; k++) {
        const p = this.priority(j + k);
        if (p < pmin) {
          pmin = p;
          i = j + k;
        }
      }
      if (pmin === 0) this.used++;
      for (let w = 0; w < nw; w++) this.put(i * ew + w, key[off + w] | 0);
    } else if (this.keepMaxPriority) {
      const p0 = this.priority(i) - 1;
      if (p0 > priority) priority = p0;
    }
    if (priority > MAX_PRIORITY) priority = MAX_PRIORITY;
    const e0 = i * ew + nw;
    this.put(e0, (lo & LO_MASK) | (hi << HI_SHIFT));
    this.put(e0 + 1, (move & MOVE_MASK) | ((priority + 1) << PRIORITY_SHIFT));
  }

  /** Writes one word of the entries (the shared table writes through Atomics). */
  protected put(index: number, value: number): void {
    this.tab[index] = value;
  }

  /** Priority + 1 (0 = empty). */
  priority(slot: number): number {
    return this.tab[slot * this.ew + this.nw + 1] >>> PRIORITY_SHIFT;
  }
}

/**
 * The memory of a table that several threads share (SharedTable): the entries, the version words
 * and the moves being searched (SearchingNow), created once by the thread that owns the table and
 * sent to the others.
 */
export interface SharedTableMemory {
  keyWords: number;
  bits: number;
  bucket: number;
  keepMaxPriority: boolean;
  entries: SharedArrayBuffer;
  versions: SharedArrayBuffer;
  /** The moves being searched now, by any thread (SearchingNow). */
  searching: SharedArrayBuffer;
}

/** Version words of a shared table (a power of two): bucket i is under version i mod VERSION_WORDS. */
const VERSION_WORDS = 1 << 14;

export function sharedTableMemory(
  keyWords: number,
  bits: number,
  bucket: number,
  keepMaxPriority: boolean,
): SharedTableMemory {
  bits = clampTableBits(bits);
  const size = 1 << bits;
  bucket = Math.min(bucket, size);
  return {
    keyWords,
    bits,
    bucket,
    keepMaxPriority,
    entries: new SharedArrayBuffer(size * (keyWords + 2) * 4),
    versions: new SharedArrayBuffer(Math.min(size / bucket, VERSION_WORDS) * 4),
    searching: new SharedArrayBuffer(SEARCHING_WORDS * 4),
  };
}

/**
 * A transposition table in shared memory, read and written by several search threads at once.
 * Each bucket has a version word, a sequence lock (bucket i the word i mod VERSION_WORDS: a few
 * buckets share one, so the words stay in cache): a writer makes it odd (compare-and-swap, so
 * writers exclude each other), writes the entry, and makes it even again; a reader reads the
 * version, the entry and the version again, and counts the probe as a miss when the version was
 * odd or changed. Those accesses are Atomics, which the JavaScript memory model orders
 * sequentially, so a reader never takes a torn entry (one position's key with another's bounds): a
 * probe gives bounds stored for that exact key or nothing, as in the one-thread table. Only the
 * search for the candidate slot in a bucket reads plainly (Atomics on every word of a missed
 * bucket cost two threads about 4%): what it finds is read again under the lock. Every thread's
 * stores are proven bounds, so sharing them is exact.
 */
export class SharedTable extends TranspositionTable {
  private readonly ver: Int32Array;
  private readonly shift: number;
  private readonly vmask: number;

  constructor(mem: SharedTableMemory) {
    super(mem.keyWords, mem.bits, mem.bucket, mem.keepMaxPriority, mem.entries);
    this.ver = new Int32Array(mem.versions);
    this.shift = 31 - Math.clz32(this.bucket);
    this.vmask = this.ver.length - 1;
  }

  override clear(): void {
    for (let i = 0; i < this.ver.length; i++) this.lock(i);
    this.tab.fill(0);
    for (let i = 0; i < this.ver.length; i++) Atomics.add(this.ver, i, 1);
    this.used = 0;
  }

  private lock(v: number): number {
    const ver = this.ver;
    for (;;) {
      const x = Atomics.load(ver, v);
      if ((x & 1) === 0 && Atomics.compareExchange(ver, v, x, x + 1) === x) return x;
    }
  }

  override probe(key: Uint32Array, off: number, h: number): number {
    const nw = this.nw,
      ew = this.ew,
      tab = this.tab,
      bk = this.bucket;
    const first = h & (this.size - bk);
    // 1. find the candidate slot with plain reads: racy, so only a hint (a plain read of an aligned
    // Int32 gives some value once written, never a torn word); a miss here is always safe (the node
    // is searched), and a hit is taken only after step 2 reads it again under the sequence lock
    let i = first;
    for (let k = 0; ; k++, i++) {
      if (k === bk) return -1;
      const e0 = i * ew;
      if (tab[e0 + nw + 1] >>> PRIORITY_SHIFT === 0) continue;
      let w = 0;
      while (w < nw && tab[e0 + w] === (key[off + w] | 0)) w++;
      if (w === nw) break;
    }
    // 2. the candidate read through Atomics between two reads of the bucket's version: its key,
    // bounds and move are one writer's, whole, or the probe counts as a miss
    const v = (first >>> this.shift) & this.vmask;
    const v1 = Atomics.load(this.ver, v);
    if ((v1 & 1) !== 0) return -1;
    const e0 = i * ew;
    const data = Atomics.load(tab, e0 + nw + 1);
    if (data >>> PRIORITY_SHIFT === 0) return -1;
    for (let w = 0; w < nw; w++) if (Atomics.load(tab, e0 + w) !== (key[off + w] | 0)) return -1;
    const b = Atomics.load(tab, e0 + nw);
    if (Atomics.load(this.ver, v) !== v1) return -1;
    this.lo = (b << HI_SHIFT) >> HI_SHIFT;
    this.hi = b >> HI_SHIFT;
    this.mv = (data << PRIORITY_SHIFT) >> PRIORITY_SHIFT;
    return i;
  }

  /** As TranspositionTable.store, under the bucket's lock; the slot hint is ignored (it may be stale). */
  override store(
    key: Uint32Array,
    off: number,
    h: number,
    _slot: number,
    lo: number,
    hi: number,
    move: number,
    priority: number,
  ): void {
    const v = ((h & (this.size - this.bucket)) >>> this.shift) & this.vmask;
    const x = this.lock(v);
    // the key's slot, by the one-thread probe under the lock (only lock holders write; the bounds it
    // copies to lo, hi and mv are not read after a store)
    const slot = super.probe(key, off, h);
    super.store(key, off, h, slot, lo, hi, move, priority);
    Atomics.store(this.ver, v, x + 2);
  }

  protected override put(index: number, value: number): void {
    Atomics.store(this.tab, index, value);
  }
}

/** Slots of the shared "searching now" table (a power of two; 128 KiB, it stays in a core's cache). */
const SEARCHING_WORDS = 1 << 15;

/**
 * Which (position, move) pairs some thread is searching right now: a hash of each pair in a small
 * shared table, written when a thread starts a move's search and cleared when it ends. A thread
 * that meets a move another thread is searching searches it last (simplified ABDADA: Weill's
 * ABDADA, as Kerrigan simplified it), so threads spread over a node's moves instead of searching
 * the same ones; by then the other thread has usually stored its bound in the table. Only the
 * order of moves depends on it, never a value: slots are overwritten freely (a lost or stale mark
 * only changes which move comes first). So the slots are read and written plainly, not through
 * Atomics: a racy read of an aligned Int32 gives some value once written (never a torn word), and
 * any value is a sound hint. (Atomics here, a fence at every start and end, made two threads about 8%
 * slower in all: three paired runs of eight 5x5 positions, stop 52.)
 */
export class SearchingNow {
  private readonly slots: Int32Array;
  private readonly mask: number;

  constructor(mem: SharedTableMemory) {
    this.slots = new Int32Array(mem.searching);
    this.mask = this.slots.length - 1;
  }

  /** The mark of move `move` (canonical orientation) of the position whose table hash is h: never 0. */
  static mark(h: number, move: number): number {
    const x = Math.imul(h ^ Math.imul(move + 1, 0x9e3779b1), 0x85ebca6b);
    return (x ^ (x >>> 15)) | 1;
  }

  /** Is another thread searching the move with this mark? */
  busy(mark: number): boolean {
    return this.slots[mark & this.mask] === mark;
  }

  start(mark: number): void {
    this.slots[mark & this.mask] = mark;
  }

  /** Clears the mark unless another move's mark has replaced it since (a race loses only a hint). */
  end(mark: number): void {
    const i = mark & this.mask;
    if (this.slots[i] === mark) this.slots[i] = 0;
  }
}
