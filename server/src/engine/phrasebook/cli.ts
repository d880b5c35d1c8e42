/**
 * The command line in words: the usage of `dab analyze`/`check`, `render` and `import`, their usage
 * errors and notes, warnings about the files named, `dab render`'s refusals to write over a record,
 * and the text output of `dab analyze` (entry headings, the search summary, the progress line). The
 * program's name before a message ("dab: ", "dab render: ") is the caller's; `dab cache` is store.ts's.
 */
import { UNTITLED, plural } from './grammar';
import { seconds } from './search';

// ---- usage (cli/main.ts, cli/render.ts, cli/import.ts) ----

/** The defaults and limits the usage of `dab analyze` and `dab check` names. */
export interface AnalyzeUsageFigures {
  positionBudgetMs: number;
  recordBudgetMs: number;
  maxTableMb: number;
  maxThreads: number;
}

/** The usage of `dab analyze`, `dab check` and the other commands in brief. */
export function analyzeUsage(d: AnalyzeUsageFigures): string {
  return `usage:
  dab analyze [--json] [--budget-ms N] [--record-budget-ms N] [--total-budget-ms N] [--no-search] [--table-mb N] [--threads N] [--store PATH|--no-store] FILE|DIR…
  dab check [--json] [--max-loss N] [--budget-ms N] [--record-budget-ms N] [--total-budget-ms N] [--no-search] [--table-mb N] [--threads N] [--store PATH|--no-store] FILE|DIR…
  dab render FILE [--entry N] [--ply K] [--budget-ms N] [--store PATH|--no-store] [-o OUT.svg]
  dab import FILE.dbl [--position]
  dab cache stats|clear|export FILE|import FILE [--verify-ms N] [--verify-total-ms N] [--store PATH]
  dab --version

  analyze   print the value of each entry, the review of every move and what is
            known of each position left unsolved (--json: every position)
  check     print only problems; exit 1 on any error, wrong value claim,
            or (with --max-loss N) a move of the main line (not of a variation)
            that throws away more than N boxes
  render    draw one entry as SVG (dab render --help)
  import    print the .dab entry for a Dabble/KSquares .dbl file (dab import --help)
  cache     the proof store: every value and bound proven so far (dab cache --help)
  --json         one JSON document (see the README for its shape); check adds a diagnostic
                 with the code max-loss for each move over --max-loss
  --budget-ms N  search time per position (default ${d.positionBudgetMs}); beyond it a value is
                 "unknown" with the bounds and the result proven so far; 0: no search
                 (what the store and the closed forms know; unlike the editor's setting,
                 where 0 means no limit)
  --record-budget-ms N
                 search time per record (default ${d.recordBudgetMs}); positions are proven
                 from the end of the record backwards, the result first, then the margin;
                 a position whose result stays unproven gets a second, result-only
                 search of what the record has left beyond one --budget-ms (kept for
                 the optimal moves), at most 4 times --budget-ms
  --total-budget-ms N
                 search time for the whole run (default: no limit beyond the records')
  --no-search    only the exact closed-form analysis, no board search
  --table-mb N   the solver's table memory in MiB (default 128, at most ${d.maxTableMb}), shared by its threads
  --threads N    the solver's threads, at most one a core and ${d.maxThreads} (default: every core, at most 2)
  --store PATH   the proof store to read and add to (default: $DAB_STORE, else
                 the user's cache directory, e.g. ~/.cache/dab/proofs.sqlite)
  --no-store     neither read nor write the proof store
Directories are searched for *.dab files; - reads a file from standard input; -- ends the
options (what follows are files, even a name that starts with '-').`;
}

/** The usage of `dab render`. */
export const RENDER_USAGE = `usage:
  dab render FILE [--entry N] [--ply K] [--budget-ms N] [--store PATH|--no-store] [-o OUT.svg]

  --entry N      the N-th entry of the file (default 1)
  --ply K        the position after K moves (default: the end of the record)
  --budget-ms N  search time for the entry in total (default 10000); a position not
                 proven within it is drawn as unknown, with its proven bounds
  --store PATH   the proof store to read and add to, as for dab analyze (default: $DAB_STORE,
                 else the user's cache directory): what dab analyze proved is drawn at once
  --no-store     neither read nor write the proof store
  -o OUT.svg     write to a file (default, or '-': standard output); never the file drawn
                 nor another existing .dab file
  FILE may be '-' for standard input; -- before it ends the options (a name starting with '-').
  Exit status: 0 when drawn; 1 when drawn from a file whose text has errors (printed), or not
  drawn; 2 for bad usage. A wrong value claim is dab check's to find: the picture shows the value.`;

/** The usage of `dab import`. */
export const IMPORT_USAGE = `usage: dab import FILE.dbl [--position]

  Prints the .dab entry for a Dabble/KSquares .dbl file (first line W,H in boxes, then one drawn
  line a row, (x1, y1) - (x2, y2), dots counted from 0 at the top left): a game when the lines
  in order are a legal game (no line twice), else a position.
  --position   always write a position (lines, with tomove and score from the replayed game)
  FILE may be '-' for standard input; -- before it ends the options (a name starting with '-').`;

/** `dab --version`: "dab 1.2.3". */
export function versionLine(version: string): string {
  return `dab ${version}`;
}

// ---- usage errors (cli/main.ts, cli/render.ts, cli/import.ts) ----

/** A first word that is not a command: "unknown command 'anlyze'". */
export function unknownCommand(command: string): string {
  return `unknown command '${command}'`;
}

/** An option the command does not know: "unknown option '--jsn'". */
export function unknownOption(option: string): string {
  // a file named like an option is read after `--`
  return option.startsWith('--')
    ? `unknown option '${option}'`
    : `unknown option '${option}' (a file: put -- before it)`;
}

/** An option of `dab render` given twice: "--ply given twice". */
export function givenTwice(option: string): string {
  return `${option} given twice`;
}

/** Both --store PATH and --no-store. */
export const STORE_CONFLICT = '--store and --no-store cannot both be given';

/** --store with no path (or an empty one). */
export const STORE_NEEDS_PATH = '--store needs a path (--no-store turns the store off)';

/** A time option without a plain number: "--budget-ms needs a number of milliseconds". */
export function needsMilliseconds(option: string): string {
  // (what is refused: words, signs, exponents and numbers too large to keep exactly; found by an audit)
  return `${option} needs a number of milliseconds (digits, at most ${Number.MAX_SAFE_INTEGER.toLocaleString('en-US')})`;
}

/** --table-mb without a number of at least 1. */
export const TABLE_MB_NEEDS_NUMBER = '--table-mb needs a number of MiB (at least 1)';

/** --threads without a whole number of at least 1. */
export const THREADS_NEEDS_NUMBER = '--threads needs a whole number of threads (at least 1)';

/** --max-loss without a number. */
export const MAX_LOSS_NEEDS_NUMBER = '--max-loss needs a number of boxes';

/** --max-loss given to `dab analyze`. */
export const MAX_LOSS_ONLY_FOR_CHECK = '--max-loss is for dab check (analyze reports every loss)';

/** `dab analyze` or `dab check` with no file or folder. */
export const NO_FILES_GIVEN = 'no files given';
/** `-` (standard input) named twice. */
export const STDIN_ONCE = '- (standard input) can be given once';

/** `dab render` with no file. */
export const NO_FILE_GIVEN = 'no file given';

/** `dab render` with a second file: "one file at a time ('b.dab' is a second one)". */
export function oneFileAtATime(second: string): string {
  return `one file at a time ('${second}' is a second one)`;
}

/** `dab render --entry` without a number of at least 1. */
export const ENTRY_NEEDS_NUMBER = '--entry needs an entry number (1, 2, …)';

/** `dab render --ply` without a number. */
export const PLY_NEEDS_NUMBER = '--ply needs a number of moves (0, 1, …)';

/** `dab render -o` without a file name. */
export const OUTPUT_NEEDS_FILE = "-o needs a file name ('-' for standard output)";

/** `dab import` without exactly one file. */
export const GIVE_ONE_DBL_FILE = 'give one .dbl file';

// ---- notes on numbers read otherwise than written (cli/main.ts) ----

/** --table-mb over the largest table: "--table-mb 9000: using 4096, the largest table dab makes". */
export function tableMbCapped(given: number, used: number): string {
  return `--table-mb ${given}: using ${used}, the largest table dab makes`;
}

/**
 * --threads over what the solver uses: "--threads 99: using 8, one a core (this machine has 8)",
 * or "…: using 64, the most dab uses" when the cap is not the cores.
 */
export function threadsCapped(given: number, used: number, cores: number): string {
  return `--threads ${given}: using ${used}, ${used === cores ? `one a core (this machine has ${cores})` : 'the most dab uses'}`;
}

// ---- the files named (cli/main.ts, cli/render.ts) ----

/** A warning, after the program's name: "warning: the proof store … is damaged …". */
export function warning(text: string): string {
  return `warning: ${text}`;
}

/**
 * A file's name as the text output shows it: a line break in it written as an escape, so that it
 * cannot start a line that reads as another file's message (found by an audit: a name holding
 * "\nx.dab:3:15: error: …" did). The other control characters are escaped on the way out (terminal.ts).
 */
export function shownPath(path: string): string {
  return path.replace(/[\n\r\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** An entry of a folder that cannot be read (`why`: fileErrorWords): "d/x.dab: skipped (its links loop)". */
export function pathSkipped(path: string, why: string): string {
  return `${shownPath(path)}: skipped (${why})`;
}

/** A path named on the command line that does not exist. */
export function noSuchPath(path: string): string {
  return `${shownPath(path)}: no such file or directory`;
}

/** A folder named on the command line with no .dab file in it (nor in its folders). */
export function noDabFilesIn(folder: string): string {
  return `${shownPath(folder)}: no .dab files in this folder`;
}

/** What is wrong with a file, or with its text: "game.dab: no such file". */
export function fileProblem(file: string, why: string): string {
  return `${shownPath(file)}: ${why}`;
}

/** Why `dab render -o OUT` would destroy a record (shown after "-o OUT "). */
export const outputClobber = {
  /** OUT is the file drawn, by any name. */
  fileDrawn: 'is the file drawn',
  /** OUT is a named pipe no process reads: writing would wait for ever. */
  unreadPipe: 'is a pipe that nothing reads',
  /** OUT is another .dab file. */
  dabFile: 'is a .dab file',
  /** OUT is an SQLite file, perhaps a proof store. */
  sqlite: 'is an SQLite database (a proof store?)',
  /** OUT has hard links: one of its names may be a record. */
  hardLinks: 'has other names (hard links), and one of them may be a record',
} as const;

/** `dab render -o OUT` refused (`why`: outputClobber): "-o g.dab is a .dab file: not written over (…)". */
export function outputNotWrittenOver(out: string, why: string): string {
  return `-o ${out} ${why}: not written over (give another file, e.g. OUT.svg)`;
}

/** The title of the entry `dab import -` writes (a .dbl read from standard input has no file name). */
export const STDIN_ENTRY_TITLE = 'stdin';

// ---- the text of dab analyze and dab check (cli/text.ts, cli/summary.ts) ----

/** An entry by kind and title: 'game "sixty"', "game (untitled)". */
export function entryName(kind: string, title: string | null): string {
  return `${kind} ${title !== null ? JSON.stringify(title) : UNTITLED}`;
}

/** An entry's heading: 'game "sixty" (line 3)' (`line` from 0). */
export function entryHeading(kind: string, title: string | null, line: number): string {
  return `${entryName(kind, title)} (line ${line + 1})`;
}

/**
 * `dab check`'s last line for a file: "3 entries, 1 error", or "3 entries (1 not checked: over the
 * bound), 0 errors" when the per-file bound left entries out (the run then fails).
 */
export function checkTally(entries: number, errors: number, notChecked = 0, unread = false): string {
  // `unread`: past the bound's count of entries the rest of the file is not even read (DabDocument.unreadFrom)
  const parts = [notChecked > 0 ? `${notChecked} not checked` : '', unread ? 'the rest of the file not read' : ''];
  const left = notChecked > 0 || unread ? ` (${parts.filter((x) => x).join(', ')}: over the bound)` : '';
  return `${plural(entries, 'entry', 'entries')}${left}, ${plural(errors, 'error')}`;
}

/** The start position of an entry: "start: Alice to move: …". */
export function startLine(position: string): string {
  return `start: ${position}`;
}

/** The position after a line's last move: "then Bob to move: …". */
export function thenLine(position: string): string {
  return `then ${position}`;
}

/** The review of an entry's main line: "summary: …". */
export function summaryLine(review: string): string {
  return `summary: ${review}`;
}

/** A variation's opening line (its moves follow): "variation instead of move 3: …". */
export function variationLine(summary: string): string {
  return `variation ${summary}`;
}

/** Plies in a row: "ply 7", "plies 3-9". */
export function pliesWords(from: number, to: number): string {
  return from === to ? `ply ${from}` : `plies ${from}-${to}`;
}

/** The search of one record, as `dab analyze` reports it after the record (counts as summary.ts reconciles them). */
export function recordSearchSummary(
  entry: string,
  p: {
    ms: number;
    budgetMs: number;
    positions: number;
    exact: number;
    resultProven: number;
    firstExactPly: number | null;
    firstResultPly: number | null;
    variationPositions: number;
    variationExact: number;
    variationResultProven: number;
  },
  positionBudgetMs: number,
): string {
  return (
    `search of ${entry}: ${seconds(p.ms)} (budget ${seconds(p.budgetMs)} per record, ${seconds(positionBudgetMs)} per position); ` +
    `${p.exact} of ${p.positions} positions exact${p.firstExactPly !== null ? ` (the earliest at ply ${p.firstExactPly})` : ''}, ` +
    `${p.resultProven} with the result proven${p.firstResultPly !== null ? ` (the earliest at ply ${p.firstResultPly})` : ''}` +
    (p.variationPositions > 0
      ? `; variations: ${p.variationExact} of ${p.variationPositions} positions exact, ${p.variationResultProven} with the result proven`
      : '')
  );
}

// ---- the progress line (cli/progress.ts) ----

/** The progress line's parts, joined with " · ": "dab: f.dab · record 1/3 · proving ply 40/61 · last: … · budget left 12 s". */
export function progressParts(
  file: string,
  p: { entry: number; entries: number; ply: number; plies: number; proven: string; msLeft: number },
): string[] {
  return [
    `dab: ${shownPath(file)}`,
    `record ${p.entry + 1}/${p.entries}`,
    `proving ply ${p.ply}/${p.plies}`,
    ...(p.proven ? [`last: ${p.proven}`] : []),
    `budget left ${seconds(p.msLeft)}`,
  ];
}

/** A problem of a file as the command line prints it: "file:3:14: error: message [code]" (line and column from 1). */
export function diagnosticLine(
  file: string,
  d: { range: { line: number; character: number }; severity: string; message: string; code: string },
): string {
  return `${shownPath(file)}:${d.range.line + 1}:${d.range.character + 1}: ${d.severity}: ${d.message} [${d.code}]`;
}
