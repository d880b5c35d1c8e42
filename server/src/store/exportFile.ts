/**
 * The store's export file (`dab cache export|import`): JSON lines, a header line
 * `{"format":"dab-proofs","version":3,"records":N}`, then one record per line in the row layout of
 * proof.ts, with its estimate. This module writes and reads the file; the store (proofStore.ts)
 * reads the records out of SQLite and merges the imported ones in.
 *
 * A file is read as an export only when its header says so (checked before the rest is read: a file
 * that is no export may be a gigabyte), and every record in it is checked (proof.ts) and verified by
 * the caller before it is believed. An export replaces only an earlier export or an empty file.
 */
import {
  closeSync,
  lstatSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import {
  exportCannotBeWritten,
  exportNotRegularFile,
  exportNotWrittenOver,
  exportOfNewerDab,
  importCannotBeRead,
  importNotRegularFile,
  importTooLarge,
  notAProofExport,
  recordFault,
  unknownExportVersion,
  type ExportClobber,
} from '../engine/phrasebook/store';
import { isSqliteFile } from './database';
import { checkProof, fromRow, fromStoredRow, toRow, type Proof } from './proof';

export const EXPORT_FORMAT = 'dab-proofs';
/**
 * 2: a line may carry the estimate (fields estimate, estimateWork); 3: and its proven bound
 * (estimateLower). Files of earlier versions are read as before.
 */
export const EXPORT_VERSION = 3;
/** An export's header line is read from at most this many bytes (it is a short JSON object). */
const EXPORT_HEADER_BYTES = 64 * 1024;
const MAX_REJECTED_LISTED = 1000;
/** An import file's size at most: about 2 million records. */
export const MAX_IMPORT_BYTES = 1024 * 1024 * 1024;

/** Re-proves an imported record (cli/cache.ts): the record to keep, or why not. */
export type VerifyRecord = (key: string, proof: Proof) => Proof | string;

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

export function emptyImportReport(): ImportReport {
  return { read: 0, added: 0, improved: 0, unchanged: 0, rejected: [], rejectedCount: 0 };
}

/** Count a rejected line (`line` 0: a record that contradicts the store), listing the first ones. */
export function rejectLine(report: ImportReport, r: { line: number; reason: string }): void {
  if (report.rejectedCount++ < MAX_REJECTED_LISTED) report.rejected.push(r);
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

/**
 * The export's text of the store's rows (proofStore.ts: SELECT_RECORD), and how many records it
 * holds: a damaged record is not passed on (nor a damaged estimate), nor a failed attempt's record
 * (trivial bounds say something only with its tried time, which an import does not take: it would
 * be rejected there; found by an audit).
 */
export function exportText(rows: readonly Record<string, unknown>[]): { text: string; count: number } {
  const records: string[] = [];
  for (const raw of rows) {
    const r = fromStoredRow(raw);
    if (typeof r === 'string') continue;
    if (checkProof(r.key, { ...r.proof, tried: 0 }) !== undefined) continue;
    records.push(JSON.stringify(toRow(r.key, r.proof)));
  }
  const header = JSON.stringify({ format: EXPORT_FORMAT, version: EXPORT_VERSION, records: records.length });
  return { text: [header, ...records].join('\n') + '\n', count: records.length };
}

/**
 * Write an export's text to `file` ('-': standard output): a new file, or a regular file replaced
 * whole (never a device, a directory or a link's target), and only an earlier export or an empty
 * file: never the store `storePath` itself, another SQLite file (found by an audit: `export S
 * --store S` lost S), nor a record (`export k.dab`). Throws, saying why.
 */
export function writeExport(file: string, text: string, storePath: string): void {
  if (file === '-') {
    writeFileSync(1, text);
    return;
  }
  let target;
  try {
    target = lstatSync(file);
  } catch {
    target = null;
  }
  if (target && !target.isFile()) throw new Error(exportNotRegularFile(file));
  const clobbered: ExportClobber | null = !target
    ? null
    : sameFile(file, storePath)
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
}

/**
 * The text of an import file: a regular file (not /dev/zero, which never ends) whose header is an
 * export's, of at most MAX_IMPORT_BYTES. The header is checked first: a file that is no export is
 * not read on. Throws, saying why.
 */
export function readExport(file: string): string {
  let st;
  try {
    st = statSync(file);
  } catch (e) {
    throw new Error(importCannotBeRead(file, e));
  }
  if (!st.isFile()) throw new Error(importNotRegularFile(file));
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
  return readFileSync(file, 'utf8');
}

/**
 * The records of an export's text (`name` says where it came from in messages) that pass the checks
 * and `verify`; the others are counted in `report` as rejected, with why. A checksum only catches
 * damage, not a forged or mistaken record, so a record is never believed because a file says so.
 */
export function readExportRecords(
  text: string,
  name: string,
  report: ImportReport,
  verify?: VerifyRecord,
): [string, Proof][] {
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
      rejectLine(report, { line: i + 1, reason: recordFault.notJson });
      continue;
    }
    if (typeof raw !== 'object' || raw === null) {
      rejectLine(report, { line: i + 1, reason: recordFault.notARecord });
      continue;
    }
    const r = fromRow(raw as Record<string, unknown>);
    if (typeof r === 'string') {
      rejectLine(report, { line: i + 1, reason: r });
      continue;
    }
    const verified = verify ? verify(r.key, r.proof) : r.proof;
    // what verify keeps is checked again: without the file's tried time, trivial bounds say nothing
    const kept = typeof verified === 'string' ? verified : (checkProof(r.key, verified) ?? verified);
    if (typeof kept === 'string') rejectLine(report, { line: i + 1, reason: kept });
    else good.push([r.key, kept]);
  }
  return good;
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
