/**
 * `dab render FILE [--entry N] [--ply K] [--budget-ms N] [-o OUT.svg]`: the board of one entry as a
 * standalone SVG (board, caption with the value in words, and the value graph for a game) — the
 * same drawing as the board view and the Markdown preview. Without -o the SVG goes to stdout.
 */
import { printErr, printOut } from './terminal';
import { closeSync, constants, openSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import { endOfOptions, plainDecimal, readInputOrSay } from './input';
import { pictureOf } from '../boardPicture';
import { CLI_MAX_POSITIONS, RENDER_BUDGET_MS_DEFAULT } from '../engine/limits';
import { readDab } from '../engine/notation';
import { isSqliteFile, openProofCache, resolveStorePath } from '../store';
import { fileErrorWords } from '../engine/phrasebook/files';
import {
  ENTRY_NEEDS_NUMBER,
  NO_FILE_GIVEN,
  OUTPUT_NEEDS_FILE,
  PLY_NEEDS_NUMBER,
  RENDER_USAGE,
  STORE_CONFLICT,
  STORE_NEEDS_PATH,
  diagnosticLine,
  fileProblem,
  givenTwice,
  needsMilliseconds,
  oneFileAtATime,
  outputClobber,
  outputNotWrittenOver,
  unknownOption,
  warning,
} from '../engine/phrasebook/cli';

/**
 * Exit 0 when written, 1 when the file cannot be drawn or has an error (the picture is still written:
 * as dab analyze and dab check, found by an audit), 2 for bad usage.
 */
export function render(args: string[]): number {
  let file: string | undefined;
  let out: string | undefined;
  let entry = 1;
  let ply: number | undefined;
  let budgetMs = RENDER_BUDGET_MS_DEFAULT;
  /** --store PATH (undefined: not given; null: --no-store). */
  let store: string | null | undefined;
  const usage = (why: string) => {
    printErr(`dab render: ${why}\n${RENDER_USAGE}\n`);
    return 2;
  };
  const given = new Set<string>();
  const { options, operands } = endOfOptions(args);
  for (let i = 0; i < options.length; i++) {
    const a = options[i];
    const int = (): number | undefined => plainDecimal(options[++i]);
    // each option once: of two, which one was meant cannot be known
    const option = a === '--output' ? '-o' : a;
    if (['--entry', '--ply', '--budget-ms', '-o', '--store', '--no-store'].includes(option)) {
      if (given.has(option)) return usage(givenTwice(a));
      given.add(option);
    }
    if (a === '--help' || a === '-h') {
      printOut(RENDER_USAGE + '\n');
      return 0;
    } else if (a === '--entry') {
      const v = int();
      if (!v) return usage(ENTRY_NEEDS_NUMBER);
      entry = v;
    } else if (a === '--ply') {
      ply = int();
      if (ply === undefined) return usage(PLY_NEEDS_NUMBER);
    } else if (a === '--budget-ms') {
      const v = int();
      if (v === undefined) return usage(needsMilliseconds(a));
      budgetMs = v;
    } else if (a === '--store' || a === '--no-store') {
      if (store !== undefined) return usage(STORE_CONFLICT);
      // an empty path (a script's unset variable) must not fall back to the default store
      if (a === '--store' && !options[i + 1]) return usage(STORE_NEEDS_PATH);
      store = a === '--store' ? options[++i] : null;
    } else if (a === '-o' || a === '--output') {
      out = options[++i];
      if (!out || (out.startsWith('-') && out !== '-')) return usage(OUTPUT_NEEDS_FILE);
    } else if (a.startsWith('-') && a !== '-') return usage(unknownOption(a));
    else if (file === undefined) file = a;
    else return usage(oneFileAtATime(a));
  }
  for (const a of operands) {
    if (file !== undefined) return usage(oneFileAtATime(a));
    file = a;
  }
  if (!file) return usage(NO_FILE_GIVEN);
  const clobbers = out && out !== '-' ? overwritesRecord(out, file) : null;
  if (clobbers && out) {
    printErr(`dab render: ${outputNotWrittenOver(out, clobbers)}\n`);
    return 2;
  }
  const read = readInputOrSay(file, undefined, 'dab render');
  if (read === null) return 1;
  const text = read.text;
  // the file's problems, as dab check prints them (found by an audit: a picture of a file with
  // illegal moves or bytes that are not UTF-8 came with no word of them); the picture draws from
  // this reading, within dab analyze's bound (found by an audit: 490,000 entries took 1.5 GB to draw one)
  const doc = readDab(text, { bytes: read.bytes, maxWork: CLI_MAX_POSITIONS, boundBy: 'cli' });
  let errors = 0;
  for (const d of doc.diagnostics) {
    if (d.severity === 'error') errors++;
    if (d.severity === 'error' || d.severity === 'warning') printErr(`dab render: ${diagnosticLine(file, d)}\n`);
  }
  const cache = openProofCache(store === null ? null : resolveStorePath(store), {
    onWarning: (w) => printErr(`dab: ${warning(w)}\n`),
  });
  let r;
  try {
    r = pictureOf(text, { entry, ply, budgetMs, proofs: cache, doc }, { background: '#ffffff' });
  } finally {
    cache?.close();
  }
  if ('error' in r) {
    printErr(`dab render: ${fileProblem(file, r.error)}\n`);
    return 1;
  }
  if (out && out !== '-') {
    try {
      writeFileSync(out, r.svg + '\n');
    } catch (e) {
      printErr(`dab render: ${fileProblem(out, fileErrorWords(e))}\n`);
      return 1;
    }
  } else process.stdout.write(r.svg + '\n');
  return errors > 0 ? 1 : 0;
}

/**
 * Why writing the SVG to `out` would destroy a record: it is the file drawn (by any name: a link
 * to it, a hard link), or another existing .dab file; else null.
 */
function overwritesRecord(out: string, file: string): string | null {
  let o;
  try {
    o = statSync(out);
  } catch {
    return null; // a new file (or a path writeFileSync will report)
  }
  if (file !== '-') {
    try {
      const f = statSync(file);
      if (f.dev === o.dev && f.ino === o.ino) return outputClobber.fileDrawn;
    } catch {
      // the input cannot be read: reading it says so
    }
  }
  // a pipe nobody reads would hang the write for ever (found by an audit): a reader is looked for first
  if (o.isFIFO()) {
    try {
      closeSync(openSync(out, constants.O_WRONLY | constants.O_NONBLOCK));
    } catch {
      return outputClobber.unreadPipe;
    }
    return null;
  }
  if (!o.isFile()) return null; // a device or a folder: writing says what is wrong
  if (/\.dab$/i.test(realpathSync(out))) return outputClobber.dabFile;
  // the proof store render now reads, or another (found by a review)
  if (isSqliteFile(out)) return outputClobber.sqlite;
  // another name of a file (a hard link) may be a record under its other name (found by an audit)
  return o.nlink > 1 ? outputClobber.hardLinks : null;
}
