/**
 * The proof store in words: its file that cannot be opened or was set aside, records not believed
 * (why a stored record is dropped, why an imported one is rejected), export and import files, and
 * the `dab cache` command's usage, reports and errors.
 */
import { bytesWords, fileErrorWords } from './files';
import { plural } from './grammar';

// ---- the store's file (store/database.ts, store/proofStore.ts) ----

/** What is wrong with the store's file, found on the file system (SQLite says only "Could not open the database"). */
export type StoreFileProblem =
  'folder' | 'not a file' | 'links loop' | 'path through a file' | 'read-only' | 'folder read-only';

/** Why the store's file cannot be opened, in words: "it is a folder", "its folder is read-only or missing". */
export function storeFileProblemWords(problem: StoreFileProblem): string {
  switch (problem) {
    case 'folder':
      return fileErrorWords({ code: 'EISDIR' });
    case 'not a file':
      return 'it is not a regular file';
    case 'links loop':
      return fileErrorWords({ code: 'ELOOP' });
    case 'path through a file':
      return fileErrorWords({ code: 'ENOTDIR' });
    case 'read-only':
      return 'it or its folder is read-only (the store writes a lock and a journal beside the file)';
    case 'folder read-only':
      return 'its folder is read-only or missing';
  }
}

/** The store's folder cannot be made: "the proof store P cannot be created: its folder is read-only or missing". */
export function storeCannotBeCreated(path: string, why: string): string {
  return `the proof store ${path} cannot be created: ${why}`;
}

/** The store's file cannot be opened: "the proof store P cannot be opened: it is a folder". */
export function storeCannotBeOpened(path: string, why: string): string {
  return `the proof store ${path} cannot be opened: ${why}`;
}

/** A store of a newer format: left alone, and not used. */
export function storeOfNewerDab(path: string): string {
  return `the proof store ${path} was written by a newer dab; it is not used (use --store or DAB_STORE for another)`;
}

/** A store of an older format that is not migrated: set aside as `to`. */
export function storeOfOlderFormat(path: string, to: string): string {
  return `the proof store ${path} is of an older format; it was set aside as ${to} and a new store started`;
}

/** A file at the store's path that is not a dab proof store: set aside as `to`. */
export function notAProofStore(path: string, to: string): string {
  return `${path} is not a dab proof store; it was set aside as ${to} and a new store started`;
}

/** The store's path is named like a record: left as it is, and no store used. */
export function storeIsRecord(path: string): string {
  return `the proof store cannot be ${path}: a .dab file is a record; it is left as it is and no proofs are kept this time (name another file with --store, DAB_STORE or the dab.store.path setting)`;
}

/** Another process holds the store's lock for longer than the wait. */
export function storeStaysLocked(path: string): string {
  return `the proof store ${path} stays locked by another process; it is not used this time`;
}

/** A store locked by another process when it was opened: tried again every `seconds`. */
export function storeLockedForNow(path: string, seconds: number): string {
  return `the proof store ${path} is locked by another process; dab goes on without it and tries it again every ${seconds} s`;
}

/** A damaged store (SQLite's words `why`): set aside as `to`. */
export function storeDamagedSetAside(path: string, why: string, to: string): string {
  return `the proof store ${path} is damaged (${why}); it was set aside as ${to} and a new store started`;
}

/** A damaged store that another process set aside first. */
export function storeReplaced(path: string): string {
  return `the proof store ${path} was replaced by another process`;
}

/** A step of the store failed (`message`: the database's words); `diskFull` when its disk has no room left. */
export function storeFailed(path: string, message: string, diskFull: boolean): string {
  return `the proof store ${path} failed: ${message}${diskFull ? ' (its disk is full)' : ''}`;
}

/** Stored records that fail their checks (`first`: why the first one met does). */
export function storeDamagedRecords(path: string, first: string): string {
  return `the proof store ${path} has damaged records: each is dropped when met (the first: ${first})`;
}

/** Stored estimates that fail their checks (their proofs stand). */
export function storeDamagedEstimates(path: string, first: string): string {
  return `the proof store ${path} has damaged estimates: each is dropped when met (the first: ${first})`;
}

/** Stored budget traces of records whose checksum fails. */
export function storeDamagedTraces(path: string): string {
  return `the proof store ${path} has damaged record traces: each is dropped when met`;
}

/** Stored Nimstring views that fail their checks. */
export function storeDamagedViews(path: string): string {
  return `the proof store ${path} has damaged Nimstring views: each is dropped when met`;
}

/** A search produced a proof that fails its own check (`why`): it is not kept. */
export function notStoringFailedProof(why: string, key: string): string {
  return `not storing a proof that fails its own check (${why}) for ${key}`;
}

/** Two proofs of one position disagree; the newer search's is kept. */
export function storedProofReplaced(key: string): string {
  return `a stored proof of ${key} contradicts a new one; the new one replaces it`;
}

/** The note of an unknown value whose proven bounds were read from the store, not searched in this run. */
export const BOUNDS_FROM_STORE = 'bounds from the proof store';

// ---- why a record is not believed (store/proof.ts, store/proofStore.ts) ----

/**
 * Why a stored record is dropped or an imported one rejected: shown after "rejected: " and in the
 * store's warnings about damaged records.
 */
export const recordFault = {
  /** A field is missing or not of its type. */
  wrongTypes: 'fields of the wrong type',
  /** The estimate's fields are missing (one of the two) or not numbers. */
  estimateWrongTypes: 'estimate fields of the wrong type',
  /** The record's bytes changed since its checksum was written. */
  checksum: 'checksum mismatch',
  /** The estimate's bytes changed since its checksum was written. */
  estimateChecksum: 'estimate checksum mismatch',
  /** A stored record found under another position's key. */
  wrongKey: 'wrong key',
  /** An import line that is not JSON. */
  notJson: 'not JSON',
  /** An import line that is JSON but not an object. */
  notARecord: 'not a record',
  /** `best` has an entry that is not a line number. */
  badBestMove: (text: string) => `bad best move '${text}'`,
  /** `moves` has an entry that is not `line:value`. */
  badMoveValue: (text: string) => `bad move value '${text}'`,
  /** The key is not `WxH:` and hex digits. */
  malformedKey: 'malformed key',
  /** The key's board is smaller than 1x1 or larger than dab's largest. */
  boardSizeOutOfRange: 'board size out of range',
  /** The key has too few or too many hex digits for its board. */
  keyLengthWrong: 'key length does not match the board',
  /** The key draws lines the board does not have. */
  keyLinesOffBoard: 'key has lines off the board',
  /** The key is not the canonical one of its position. */
  keyNotCanonical: 'key is not in canonical form',
  /** Lower above upper, or not whole numbers. */
  boundsOutOfOrder: 'bounds out of order',
  /** A bound beyond the boxes left. */
  boundsOutsideBoxes: 'bounds outside the boxes left',
  /** The tried time is not a whole number >= 0. */
  badTried: 'bad tried figure',
  /** Trivial bounds (±`boxesLeft`) with nothing else: the record says nothing. */
  saysNothing: (boxesLeft: number) => `says nothing proven: its bounds are ±${boxesLeft}, the boxes left`,
  /** An exact value that the boxes left cannot add up to. */
  wrongParity: 'exact value of the wrong parity',
  /** The work is not a finite number >= 0. */
  badWork: 'bad work figure',
  /** A move value for a drawn line, or out of order. */
  moveNotUndrawn: (line: number) => `move ${line} is not an undrawn line in order`,
  /** A move value the boxes left cannot add up to. */
  moveImpossible: (line: number) => `move ${line} has an impossible value`,
  /** A move worth more than the position can be. */
  moveAboveUpper: (line: number) => `move ${line} is worth more than the upper bound`,
  /** A proven move value above the lower bound. */
  moveAboveLower: 'a move value beats the lower bound (bounds not tight to the moves)',
  /** An optimal move that is a drawn line, or out of order. */
  bestNotUndrawn: (line: number) => `best move ${line} is not an undrawn line in order`,
  /** Optimal moves for a position whose value is not exact. */
  bestWithoutValue: 'best moves without an exact value',
  /** An optimal move whose proven value is not the position's. */
  bestWrongValue: (line: number) => `best move ${line} does not have the value`,
  /** Every move valued, and the best of them is not the value. */
  movesDisagreeWithValue: 'move values disagree with the value',
  /** Every move valued, and the optimal ones are not those listed. */
  bestDisagreesWithMoves: 'best moves disagree with the move values',
  /** The estimated move is a drawn line. */
  estimateNotUndrawn: (line: number) => `estimated move ${line} is not an undrawn line`,
  /** The estimate's work is not a finite number >= 0. */
  badEstimateWork: 'bad estimate work figure',
  /** The estimate's proven bound is no integer, or one no move of the position can have. */
  estimateBoundImpossible: (lower: unknown) => `estimated move's proven bound ${String(lower)} is impossible here`,
  /** The estimate's proven bound is a field of the wrong type, or given without an estimate. */
  estimateBoundWrongTypes: 'estimate bound field of the wrong type, or without an estimate',
  /** An estimate kept although the optimal moves are proven. */
  estimateBesideBest: 'an estimate beside proven optimal moves',
  /** An imported record that contradicts the stored one of its position (which stays). */
  contradictsStored: (key: string) => `contradicts the stored proof of ${key}`,
} as const;

// ---- export and import files (store/exportFile.ts, store/proofStore.ts) ----

/** What an export will not write over: the store, another SQLite file, a file that is not an export. */
export type ExportClobber = 'the store' | 'sqlite' | 'not an export';

/** An export to something that is not a regular file (a folder, a device, a link). */
export function exportNotRegularFile(file: string): string {
  return `${file} is not a regular file: not written`;
}

/** An export to a file it would destroy. */
export function exportNotWrittenOver(file: string, what: ExportClobber): string {
  const words =
    what === 'the store' ? 'the proof store itself' : what === 'sqlite' ? 'an SQLite database' : 'not a proof export';
  return `${file} is ${words}: not written over (give a new file, e.g. proofs.jsonl)`;
}

/** An export that failed while it was written (`message`: the system's words). */
export function exportCannotBeWritten(file: string, message: string): string {
  return `${file} cannot be written: ${message}`;
}

/** An import file that cannot be read: "proofs.jsonl: no such file". */
export function importCannotBeRead(file: string, e: unknown): string {
  return `${file}: ${fileErrorWords(e)}`;
}

/** An import file that is not a regular file. */
export function importNotRegularFile(file: string): string {
  return `${file} is not a regular file`;
}

/** An import file over the size an import reads: "f.jsonl is 2,100,000,000 bytes: an import reads files up to 1,073,741,824 bytes (1 GiB)". */
export function importTooLarge(file: string, bytes: number, max: number): string {
  return `${file} is ${bytes.toLocaleString('en-US')} bytes: an import reads files up to ${bytesWords(max)}`;
}

/** An import whose first line is not an export's header. */
export function notAProofExport(name: string): string {
  return `${name} is not a dab proof export (line 1)`;
}

/**
 * An export header without a version dab knows: what line 1 says for it (`raw`, its text as
 * written, at most 20 characters), or undefined when line 1 has no version at all.
 */
export function unknownExportVersion(name: string, raw: string | undefined): string {
  if (raw === undefined) return `${name}: line 1 has no format version`;
  return `${name}: line 1 has no format version dab knows (${Array.from(raw).slice(0, 20).join('')})`;
}

/** An export of a newer format than this dab reads. */
export function exportOfNewerDab(name: string, version: number): string {
  return `${name} was written by a newer dab (format version ${version})`;
}

// ---- the `dab cache` command (cli/cache.ts) ----

/** The `dab cache` usage (`verifyMs`: the default of --verify-ms). */
export function cacheUsage(verifyMs: number, verifyTotalMs: number): string {
  return `usage:
  dab cache stats            where the proof store is and what it holds
  dab cache clear            forget every stored proof
  dab cache export FILE      write every proof to FILE (JSON lines, portable; - for standard output)
  dab cache import FILE      check every record of FILE (- for standard input), prove it again,
                             and add it to the store
  --verify-ms N              import: time to prove each record again (default ${verifyMs}); a record
                             not proven within it is rejected
  --verify-total-ms N        import: time to prove the file's records again (default ${verifyTotalMs}); the
                             records left when it runs out are rejected (import again to go on)
  --store PATH               use the store at PATH (default: $DAB_STORE, else the user's cache directory)`;
}

/** --verify-ms (or --verify-total-ms) with no number, or one that is not a whole number >= 1. */
export function verifyNeedsNumber(flag: string): string {
  return `${flag} needs a whole number of milliseconds, at least 1`;
}

/** --verify-ms (or --verify-total-ms) given to a cache command other than import. */
export function verifyOnlyForImport(flag: string): string {
  return `${flag} is for dab cache import`;
}

/** A record not checked because the import's whole time to check records ran out. */
export function importTimeRanOut(totalMs: number): string {
  return `not checked: the import's ${totalMs} ms to prove records again ran out (--verify-total-ms); import the file again to go on`;
}

/** A cache command that is not one of stats, clear, export FILE, import FILE (`words`: what was given). */
export function badCacheCommand(words: string): string {
  return `bad cache command '${words}'`;
}

/** `dab cache` with the store turned off. */
export const STORE_IS_OFF = 'the proof store is off (--no-store or DAB_STORE=off)';

/** `dab cache export` where there is no store file. */
export function noStoreToExport(path: string): string {
  return `no proof store at ${path}: nothing to export`;
}

/** `dab cache stats` or `clear` where there is no store file yet. */
export function noStoreYet(path: string): string {
  return `no proof store at ${path} (nothing stored there yet)`;
}

/** The store could not be opened (its warnings said why). */
export function storeCannotBeUsed(path: string): string {
  return `the proof store ${path} cannot be used`;
}

/** The name of standard input in the import's messages ('-'). */
export const STANDARD_INPUT = 'standard input';

/** The name of standard output in the export's report ('-'). */
export const STANDARD_OUTPUT = 'standard output';

/** A size in MiB: "3.2 MB". */
function mb(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** What `dab cache stats` tells of a store (ProofStore.stats). */
export interface StoreStats {
  path: string;
  records: number;
  exact: number;
  bounds: number;
  fileBytes: number;
  maxBytes: number;
}

/** `dab cache stats`: where the store is, what it holds and its size, one line each. */
export function storeStatsLines(s: StoreStats): string[] {
  return [
    `proof store: ${s.path}`,
    `records: ${s.records} (${plural(s.exact, 'exact value')}, ${plural(s.bounds, 'bound')})`,
    `file size: ${mb(s.fileBytes)} (limit ${mb(s.maxBytes)}; the cheapest proofs are evicted beyond it)`,
  ];
}

/** `dab cache clear`: "removed 12 proofs from P". */
export function proofsRemoved(count: number, path: string): string {
  return `removed ${plural(count, 'proof')} from ${path}`;
}

/** `dab cache export`: "exported 12 proofs to F" (`to`: the file, or STANDARD_OUTPUT). */
export function proofsExported(count: number, to: string): string {
  return `exported ${plural(count, 'proof')} to ${to}`;
}

/** `dab cache import`'s report: what was read, and what became of it. */
export function importReport(
  name: string,
  r: { read: number; added: number; improved: number; unchanged: number; rejectedCount: number },
): string {
  return `imported ${name}: ${r.read} records, ${r.added} added, ${r.improved} improved, ${r.unchanged} already known, ${r.rejectedCount} rejected`;
}

/** One rejected record: "proofs.jsonl:12: rejected: checksum mismatch" (`line` 0: no line, a record that contradicts the store). */
export function recordRejected(name: string, line: number, reason: string): string {
  return `${name}${line ? `:${line}` : ''}: rejected: ${reason}`;
}

/** The rejected records not listed one by one. */
export function moreRejected(count: number): string {
  return `… and ${count} more rejected`;
}

/** One claim of an imported record, as proving it again names it ("its lower bound 3 is false …"). */
export const recordClaim = {
  lower: (bound: number) => `its lower bound ${bound}`,
  upper: (bound: number) => `its upper bound ${bound}`,
  /** Plural ("are"). */
  moveValues: 'its move values',
  moveValue: (line: number, value: number) => `the value ${value} of its move ${line}`,
  /** Plural ("are"). */
  optimalMoves: 'its optimal moves',
  estimateLower: (line: number, bound: number) => `the proven bound ${bound} of its best move so far ${line}`,
} as const;

/**
 * A claim of an imported record (recordClaim; `verb` "are" for a plural one) that proving it again
 * did not confirm: a search disproved it, or it was not proven within `ms` ms.
 */
export function claimNotReproven(claim: string, disproved: boolean, ms: number, verb: 'is' | 'are' = 'is'): string {
  return disproved
    ? `${claim} ${verb} false (a search disproves it)`
    : `${claim} ${verb} not proven again within ${ms} ms (--verify-ms)`;
}
