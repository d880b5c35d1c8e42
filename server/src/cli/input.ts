/**
 * What every command reads from its command line: files (regular, of a sane size, or '-' for
 * standard input) and numbers (plain decimals).
 */
import { NOT_A_REGULAR_FILE, fileErrorWords, fileTooLarge } from '../engine/phrasebook/files';
import { readFileSync, readSync, statSync } from 'node:fs';
import { MAX_FILE_BYTES } from '../engine/limits';
import { printErr } from './terminal';
import { STANDARD_INPUT } from '../engine/phrasebook/store';
import { shownPath } from '../engine/phrasebook/cli';
import type { ByteCheck } from '../engine/notation';

/**
 * A plain decimal number, or undefined: "", "0x10", "1e3" and " 7" are not (Number() would read
 * them as 0, 16, 1000 and 7), nor is one above Number.MAX_SAFE_INTEGER. `fraction`: digits after
 * a point are allowed.
 */
export function plainDecimal(text: string | undefined, fraction = false): number | undefined {
  const t = text ?? '';
  if (!(fraction ? /^\d+(\.\d+)?$/ : /^\d+$/).test(t)) return undefined;
  const v = Number(t);
  // beyond 2^53 a number is not kept exactly (and prints as 1e+23): no command needs one
  return Number.isFinite(v) && v <= Number.MAX_SAFE_INTEGER ? v : undefined;
}

/**
 * A command line split at its first `--`, which ends the options (POSIX): what follows are files,
 * even a name that starts with '-'.
 */
export function endOfOptions(argv: string[]): { options: string[]; operands: string[] } {
  const end = argv.indexOf('--');
  return end < 0 ? { options: argv, operands: [] } : { options: argv.slice(0, end), operands: argv.slice(end + 1) };
}

/** Something to wait on for a few milliseconds in synchronous code (Atomics.wait). */
const pause = new Int32Array(new SharedArrayBuffer(4));

const tooBig = (bytes: number, max: number, stream = false) => new Error(fileTooLarge(bytes, max, stream));

/**
 * The text of a file, or of standard input for '-': a regular file of at most `maxBytes` (not a
 * device such as /dev/zero, nor a file that would take the memory of a record of millions of
 * moves), without its byte-order mark. Throws an Error whose message says what is wrong.
 */
export function readInput(file: string, maxBytes = MAX_FILE_BYTES, onFirstLine?: (line: string) => void): string {
  return readInputText(file, maxBytes, onFirstLine).text;
}

const strict = new TextDecoder('utf-8', { fatal: true });

/**
 * readInputText's text, and where in it a U+FFFD stands for a byte that is not UTF-8: the other
 * U+FFFD are characters written (found by audits: a file that holds '�' was told it is not UTF-8;
 * one with a written '�' before a Latin-1 byte was told so at the '�'; ReadOptions.bytes).
 */
export function readInputText(
  file: string,
  maxBytes = MAX_FILE_BYTES,
  onFirstLine?: (line: string) => void,
): { text: string; bytes: ByteCheck } {
  const raw = readInputBytes(file, maxBytes, onFirstLine);
  try {
    return { text: withoutBom(strict.decode(raw)), bytes: { firstBad: -1, bad: 0 } };
  } catch {
    const text = withoutBom(raw.toString('utf8'));
    // the bytes before the first bad one are UTF-8: their text's length (the decoder drops a
    // byte-order mark, as withoutBom does) is the index of its U+FFFD; each EF BF BD is a U+FFFD
    // written (EF never continues a character, so it is always read as one)
    const firstBad = strict.decode(raw.subarray(0, firstNonUtf8(raw))).length;
    return { text, bytes: { firstBad, bad: occurrences(text) - writtenReplacements(raw) } };
  }
}

/** The offset of the first byte of `b` that neither begins nor continues a well-formed UTF-8 character; b.length if none. */
export function firstNonUtf8(b: Uint8Array): number {
  const cont = (i: number, lo = 0x80, hi = 0xbf) => i < b.length && b[i] >= lo && b[i] <= hi;
  for (let i = 0; i < b.length;) {
    const c = b[i];
    // the bytes after the lead, and the second byte's range (Unicode's table of well-formed sequences)
    let n: number,
      lo = 0x80,
      hi = 0xbf;
    if (c < 0x80) n = 0;
    else if (c >= 0xc2 && c <= 0xdf) n = 1;
    else if (c >= 0xe0 && c <= 0xef) [n, lo, hi] = [2, c === 0xe0 ? 0xa0 : 0x80, c === 0xed ? 0x9f : 0xbf];
    else if (c >= 0xf0 && c <= 0xf4) [n, lo, hi] = [3, c === 0xf0 ? 0x90 : 0x80, c === 0xf4 ? 0x8f : 0xbf];
    else return i;
    if (n > 0 && !cont(i + 1, lo, hi)) return i;
    for (let k = 2; k <= n; k++) if (!cont(i + k)) return i;
    i += n + 1;
  }
  return b.length;
}

/** How many U+FFFD `text` holds. */
function occurrences(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\ufffd'); i >= 0; i = text.indexOf('\ufffd', i + 1)) n++;
  return n;
}

/** How many U+FFFD are written in UTF-8 in `b` (the bytes EF BF BD). */
function writtenReplacements(b: Buffer): number {
  let n = 0;
  for (let i = b.indexOf(0xef); i >= 0 && i + 2 < b.length; i = b.indexOf(0xef, i + 1))
    if (b[i + 1] === 0xbf && b[i + 2] === 0xbd) n++;
  return n;
}

/** The first line's most (FIRST_LINE_BYTES without a line break: the first line is cut there). */
const FIRST_LINE_BYTES = 1 << 16;

/**
 * `onFirstLine` is told the first line (without a byte-order mark) as soon as it is read, and may
 * throw to stop: a file whose first line shows it is not what is wanted is not read on (found by an
 * audit: `cache import -` read a gigabyte of /dev/zero before its header said no).
 */
function readInputBytes(file: string, maxBytes: number, onFirstLine?: (line: string) => void): Buffer {
  let told = false;
  const tell = (head: Buffer, ended: boolean) => {
    if (told || !onFirstLine) return;
    const nl = head.indexOf(10);
    if (nl < 0 && !ended && head.length < FIRST_LINE_BYTES) return;
    told = true;
    onFirstLine(withoutBom(head.subarray(0, nl < 0 ? FIRST_LINE_BYTES : nl).toString('utf8')));
  };
  if (file === '-') {
    const chunks: Buffer[] = [];
    let total = 0;
    const buf = Buffer.alloc(1 << 16);
    for (;;) {
      let n: number;
      try {
        n = readSync(0, buf, 0, buf.length, null);
      } catch (e) {
        // a non-blocking standard input with nothing yet: wait a little, never spin
        if ((e as NodeJS.ErrnoException).code === 'EAGAIN') {
          Atomics.wait(pause, 0, 0, 10);
          continue;
        }
        if ((e as NodeJS.ErrnoException).code === 'EOF') break;
        throw e;
      }
      if (n === 0) break;
      total += n;
      chunks.push(Buffer.from(buf.subarray(0, n)));
      if (!told && onFirstLine) tell(Buffer.concat(chunks), false);
      if (total > maxBytes) throw tooBig(total, maxBytes, true);
    }
    const all = Buffer.concat(chunks);
    tell(all, true);
    return all;
  }
  const st = statSync(file);
  if (!st.isFile()) throw new Error(NOT_A_REGULAR_FILE);
  if (st.size > maxBytes) throw tooBig(st.size, maxBytes);
  const all = readFileSync(file);
  tell(all, true);
  return all;
}

/**
 * readInputText's answer, or null after saying on stderr why the file cannot be read ("dab: FILE:
 * why"); `refused` hears why too (the JSON output records it).
 */
export function readInputOrSay(
  file: string,
  refused?: (why: string) => void,
  /** Who says it: "dab", or the command's "dab render" as its other messages. */
  speaker = 'dab',
): { text: string; bytes: ByteCheck } | null {
  try {
    return readInputText(file);
  } catch (e) {
    const why = fileErrorWords(e);
    printErr(`${speaker}: ${file === '-' ? STANDARD_INPUT : shownPath(file)}: ${why}\n`);
    refused?.(why);
    return null;
  }
}

/** Editors do not show a byte-order mark as text: nor does dab, so line 1's columns are theirs. */
const withoutBom = (text: string) => (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
