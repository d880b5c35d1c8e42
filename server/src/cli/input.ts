/**
 * What every command reads from its command line: files (regular, of a sane size, or '-' for
 * standard input) and numbers (plain decimals).
 */
import { NOT_A_REGULAR_FILE, fileErrorWords, fileTooLarge } from '../engine/phrasebook/files';
import { readFileSync, readSync, statSync } from 'node:fs';
import { MAX_FILE_BYTES } from '../engine/limits';
import { printErr } from './terminal';
import { STANDARD_INPUT } from '../engine/phrasebook/store';

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

/** Something to wait on for a few milliseconds in synchronous code (Atomics.wait). */
const pause = new Int32Array(new SharedArrayBuffer(4));

const tooBig = (bytes: number, max: number, stream = false) => new Error(fileTooLarge(bytes, max, stream));

/**
 * The text of a file, or of standard input for '-': a regular file of at most `maxBytes` (not a
 * device such as /dev/zero, nor a file that would take the memory of a record of millions of
 * moves), without its byte-order mark. Throws an Error whose message says what is wrong.
 */
export function readInput(file: string, maxBytes = MAX_FILE_BYTES): string {
  return readInputText(file, maxBytes).text;
}

const strict = new TextDecoder('utf-8', { fatal: true });

/**
 * readInput's text, and whether its bytes were all UTF-8: then a U+FFFD in it is a character
 * written, not a byte replaced (found by an audit: a file that holds '�' was told it is not UTF-8;
 * readDab's ReadOptions.utf8Checked).
 */
export function readInputText(file: string, maxBytes = MAX_FILE_BYTES): { text: string; utf8: boolean } {
  const bytes = readInputBytes(file, maxBytes);
  try {
    return { text: withoutBom(strict.decode(bytes)), utf8: true };
  } catch {
    return { text: withoutBom(bytes.toString('utf8')), utf8: false };
  }
}

function readInputBytes(file: string, maxBytes: number): Buffer {
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
      if (total > maxBytes) throw tooBig(total, maxBytes, true);
      chunks.push(Buffer.from(buf.subarray(0, n)));
    }
    return Buffer.concat(chunks);
  }
  const st = statSync(file);
  if (!st.isFile()) throw new Error(NOT_A_REGULAR_FILE);
  if (st.size > maxBytes) throw tooBig(st.size, maxBytes);
  return readFileSync(file);
}

/** readInputText's answer, or null after saying on stderr why the file cannot be read ("dab: FILE: why"). */
export function readInputOrSay(file: string): { text: string; utf8: boolean } | null {
  try {
    return readInputText(file);
  } catch (e) {
    printErr(`dab: ${file === '-' ? STANDARD_INPUT : file}: ${fileErrorWords(e)}\n`);
    return null;
  }
}

/** Editors do not show a byte-order mark as text: nor does dab, so line 1's columns are theirs. */
const withoutBom = (text: string) => (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
