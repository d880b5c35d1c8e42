/**
 * `dab import FILE.dbl [--position]`: print the `.dab` entry for a Dabble/KSquares `.dbl` file — a
 * game when its lines in order are a legal game, else a position (docs/notation.md, section 12).
 * Problems are printed like `dab check` prints them (file:line:column); with an error nothing is
 * printed on stdout and the exit code is 1.
 */
import { printErr } from './terminal';
import { endOfOptions, readInputOrSay } from './input';
import { basename } from 'node:path';
import { dblToDab, readDbl } from '../engine/notation';
import {
  GIVE_ONE_DBL_FILE,
  IMPORT_USAGE as USAGE,
  STDIN_ENTRY_TITLE,
  diagnosticLine,
  unknownOption,
} from '../engine/phrasebook/cli';

export function importDbl(argv: string[]): number {
  const { options, operands: named } = endOfOptions(argv);
  if (options.includes('--help') || options.includes('-h')) {
    process.stdout.write(USAGE + '\n');
    return 0;
  }
  const asPosition = options.includes('--position');
  const optionFiles = options.filter((a) => a !== '--position');
  const files = [...optionFiles, ...named];
  const unknown = optionFiles.find((f) => f.startsWith('-') && f !== '-');
  if (unknown !== undefined) {
    printErr(`dab import: ${unknownOption(unknown)}\n${USAGE}\n`);
    return 2;
  }
  if (files.length !== 1) {
    printErr(`dab import: ${GIVE_ONE_DBL_FILE}\n${USAGE}\n`);
    return 2;
  }
  const file = files[0];
  const read = readInputOrSay(file, undefined, 'dab import');
  if (read === null) return 1;
  const imp = readDbl(read.text);
  for (const d of imp.diagnostics) printErr(`${diagnosticLine(file, d)}\n`);
  const out = dblToDab(imp, file === '-' ? STDIN_ENTRY_TITLE : basename(file).replace(/\.dbl$/i, ''), asPosition);
  if (!out) return 1;
  process.stdout.write(out.text);
  return 0;
}
