/**
 * `dab analyze [--json] FILE…` and `dab check [--max-loss N] FILE…`: the same engine as the
 * language server, for scripts and commentators. Exit 0 when every file parsed and analysed,
 * 1 when a file has errors (or, for check, a wrong claim or a move over --max-loss), 2 for bad usage.
 */
import { mostSolverThreads } from '../solverThreads';
import { availableParallelism } from 'node:os';
import { fileErrorWords } from '../engine/phrasebook/files';
import {
  MAX_LOSS_NEEDS_NUMBER,
  MAX_LOSS_ONLY_FOR_CHECK,
  NO_FILES_GIVEN,
  STDIN_ONCE,
  STORE_CONFLICT,
  STORE_NEEDS_PATH,
  TABLE_MB_NEEDS_NUMBER,
  THREADS_NEEDS_NUMBER,
  analyzeUsage,
  needsMilliseconds,
  noDabFilesIn,
  noSuchPath,
  pathSkipped,
  shownPath,
  givenTwice,
  tableMbCapped,
  threadsCapped,
  unknownCommand,
  unknownOption,
  versionLine,
  warning,
} from '../engine/phrasebook/cli';
import { printErr, printOut } from './terminal';
import { realpathSync, statSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { analyzeDocument } from '../engine/analysis/analyzeDocument';
import { readDab } from '../engine/notation';
import { createSearchCache, proveDocument, DEFAULT_POSITION_BUDGET_MS, DEFAULT_RECORD_BUDGET_MS } from './search';
import { createProgress } from './progress';
import { endOfOptions, plainDecimal, readInputOrSay } from './input';
import { reconcileProof, searchSummary } from './summary';
import { MAX_TABLE_MB } from '../engine/solver';
import { CLI_MAX_POSITIONS, MAX_SOLVER_THREADS } from '../engine/limits';
import { toJson, unreadableJson, type JsonReport } from './json';
import { FolderJson, JsonWriter } from './jsonOut';
import { formatText, maxLossProblems } from './text';
import { render } from './render';
import { importDbl } from './import';
import { openProofCache, resolveStorePath } from '../store';
import { cacheCommand, CACHE_USAGE } from './cache';
import { relaunchWithHugePages } from '../relaunch';
import { version } from '../../../package.json';

const USAGE = analyzeUsage({
  positionBudgetMs: DEFAULT_POSITION_BUDGET_MS,
  recordBudgetMs: DEFAULT_RECORD_BUDGET_MS,
  maxTableMb: MAX_TABLE_MB,
  maxThreads: MAX_SOLVER_THREADS,
});

interface Options {
  command: 'analyze' | 'check';
  json: boolean;
  budgetMs: number;
  recordBudgetMs: number;
  totalBudgetMs: number | null;
  search: boolean;
  maxLoss: number | null;
  /** Solver table memory, MiB (undefined: BATCH_TABLE_MB). */
  tableMb?: number;
  /** Solver threads (undefined: every core). */
  threads?: number;
  files: string[];
  /** --store PATH (undefined: not given; null: --no-store). */
  store?: string | null;
  /** What was read otherwise than written (a number over its cap), for stderr once the command line is good. */
  notes: string[];
}

/** The options of analyze and check that take a value. */
const VALUED_OPTIONS = new Set([
  '--store',
  '--budget-ms',
  '--table-mb',
  '--threads',
  '--record-budget-ms',
  '--total-budget-ms',
  '--max-loss',
]);
function parseArgs(argv: string[]): Options | string {
  const [command, ...rest] = argv;
  if (command === '--help' || command === '-h' || command === 'help') return USAGE;
  if (command !== 'analyze' && command !== 'check') return `dab: ${unknownCommand(command ?? '')}\n${USAGE}`;
  const o: Options = {
    command,
    json: false,
    budgetMs: DEFAULT_POSITION_BUDGET_MS,
    recordBudgetMs: DEFAULT_RECORD_BUDGET_MS,
    totalBudgetMs: null,
    search: true,
    maxLoss: null,
    files: [],
    notes: [],
  };
  const { options, operands } = endOfOptions(rest);
  // an option with a value given twice is a slip (which one was meant?), as for render (found by an audit)
  const valued = new Set<string>();
  for (let i = 0; i < options.length; i++) {
    const a = options[i];
    const num = (): number | undefined => plainDecimal(options[++i], true);
    if (VALUED_OPTIONS.has(a)) {
      if (valued.has(a)) return `dab: ${givenTwice(a)}\n${USAGE}`;
      valued.add(a);
    }
    if (a === '--help' || a === '-h') return USAGE;
    else if (a === '--json') o.json = true;
    else if (a === '--no-store') {
      if (typeof o.store === 'string') return `dab: ${STORE_CONFLICT}\n${USAGE}`;
      o.store = null;
    } else if (a === '--store') {
      if (!options[i + 1]) return `dab: ${STORE_NEEDS_PATH}\n${USAGE}`;
      if (o.store === null) return `dab: ${STORE_CONFLICT}\n${USAGE}`;
      o.store = options[++i];
    } else if (a === '--no-search') o.search = false;
    else if (a === '--budget-ms') {
      const v = num();
      if (v === undefined) return `dab: ${needsMilliseconds(a)}\n${USAGE}`;
      o.budgetMs = v;
    } else if (a === '--table-mb') {
      const v = num();
      if (v === undefined || v < 1) return `dab: ${TABLE_MB_NEEDS_NUMBER}\n${USAGE}`;
      if (v > MAX_TABLE_MB) o.notes.push(`dab: ${tableMbCapped(v, MAX_TABLE_MB)}`);
      o.tableMb = Math.min(v, MAX_TABLE_MB);
    } else if (a === '--threads') {
      const v = plainDecimal(options[++i]);
      if (v === undefined || v < 1) return `dab: ${THREADS_NEEDS_NUMBER}\n${USAGE}`;
      // capped as the solver caps it (solverThreads.ts): the note says so
      const cores = availableParallelism();
      const most = mostSolverThreads();
      if (v > most) o.notes.push(`dab: ${threadsCapped(v, most, cores)}`);
      o.threads = Math.min(v, most);
    } else if (a === '--record-budget-ms' || a === '--total-budget-ms') {
      const v = num();
      if (v === undefined) return `dab: ${needsMilliseconds(a)}\n${USAGE}`;
      if (a === '--record-budget-ms') o.recordBudgetMs = v;
      else o.totalBudgetMs = v;
    } else if (a === '--max-loss') {
      const v = num();
      if (v === undefined) return `dab: ${MAX_LOSS_NEEDS_NUMBER}\n${USAGE}`;
      o.maxLoss = v;
    } else if (a.startsWith('-') && a !== '-') return `dab: ${unknownOption(a)}\n${USAGE}`;
    else o.files.push(a);
  }
  o.files.push(...operands);
  if (o.files.length === 0) return `dab: ${NO_FILES_GIVEN}\n${USAGE}`;
  // standard input can be read once (found by an audit: a second - read nothing and said so)
  if (o.files.filter((f) => f === '-').length > 1) return `dab: ${STDIN_ONCE}\n${USAGE}`;
  if (o.command === 'analyze' && o.maxLoss !== null) return `dab: ${MAX_LOSS_ONLY_FOR_CHECK}\n${USAGE}`;
  return o;
}

/**
 * The files named, and the .dab files of the folders named (recursively). A folder reached twice
 * (a link back up) is read once; an entry that cannot be read (a dangling link) is skipped with a
 * warning, or missing when it was named itself.
 */
function expand(paths: string[]): {
  files: string[];
  missing: string[];
  emptyFolders: string[];
  /** Folders named that cannot be read, and why: each an unreadable file's error (exit 1, a JSON entry). */
  unreadable: { path: string; why: string }[];
} {
  const files: string[] = [],
    missing: string[] = [],
    emptyFolders: string[] = [],
    unreadable: { path: string; why: string }[] = [];
  const seen = new Set<string>();
  const walk = (p: string, named: boolean): void => {
    if (p === '-' && named) {
      // standard input, as for render and import (cli/input.ts reads it)
      files.push(p);
      return;
    }
    let st;
    try {
      st = statSync(p);
    } catch (e) {
      // a named path that is there but cannot be read (its links loop, say) is read as a file, which
      // says why (found by an audit: a link loop was "no such file")
      if (named && (e as { code?: string })?.code !== 'ENOENT') files.push(p);
      else if (named) missing.push(p);
      else printErr(`dab: ${warning(pathSkipped(p, fileErrorWords(e)))}\n`);
      return;
    }
    if (!st.isDirectory()) {
      files.push(p);
      return;
    }
    let real: string;
    let names: string[];
    try {
      real = realpathSync(p);
      names = readdirSync(p).sort();
    } catch (e) {
      // named, as an unreadable file is (found by an audit: a warning, exit 2 and no JSON at all)
      if (named) unreadable.push({ path: p, why: fileErrorWords(e) });
      else printErr(`dab: ${warning(pathSkipped(p, fileErrorWords(e)))}\n`);
      return;
    }
    if (seen.has(real)) return;
    seen.add(real);
    const before = files.length;
    for (const name of names) {
      const q = join(p, name);
      let dir = false;
      try {
        dir = statSync(q).isDirectory();
      } catch {
        // unreadable (a dangling link): walk() reports it if it is a .dab name
      }
      if (dir || name.endsWith('.dab')) walk(q, false);
    }
    if (named && files.length === before) emptyFolders.push(p);
  };
  for (const p of paths) walk(p, true);
  return { files, missing, emptyFolders, unreadable };
}

/** `dab cache …` with its own --store / --no-store. */
function cacheMain(all: string[]): number {
  const args: string[] = [];
  let store: string | null | undefined;
  const { options: argv, operands } = endOfOptions(all);
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--no-store' || argv[i] === '--store') {
      // an empty path (a script's unset variable) must not fall back to the default store: `cache clear` would wipe it
      if (argv[i] === '--store' && !argv[i + 1]) {
        printErr(`dab: ${STORE_NEEDS_PATH}\n${CACHE_USAGE}\n`);
        return 2;
      }
      const next = argv[i] === '--store' ? argv[++i] : null;
      if (store !== undefined && (store === null) !== (next === null)) {
        printErr(`dab: ${STORE_CONFLICT}\n${CACHE_USAGE}\n`);
        return 2;
      }
      store = next;
    } else if (argv[i] === '--help' || argv[i] === '-h') {
      printOut(CACHE_USAGE + '\n');
      return 0;
    } else args.push(argv[i]);
  }
  return cacheCommand(args, store === null ? null : resolveStorePath(store), operands);
}

/** bin/dab.js: the command; one that searches in a process with huge pages when that helps (relaunch.ts). */
export function run(argv: string[]): void {
  const here = () => void (process.exitCode = main(argv));
  // the commands that build a solver table (render's caption and `cache import`'s proofs search too);
  // not the .dbl import, the store's bookkeeping, the usage or the version
  const searches =
    (['analyze', 'check', 'render'].includes(argv[0]) || (argv[0] === 'cache' && argv[1] === 'import')) &&
    !argv.includes('--no-search');
  if (!searches || !relaunchWithHugePages(argv, here)) here();
}

export function main(argv: string[]): number {
  // a reader that stops reading (`dab analyze … | head`) ends the run quietly, as for any command
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw e;
  });
  // no command at all (a script's empty variable, or a first try): the usage, but as a usage error,
  // so that a script does not take a run that did nothing for one that passed
  if (argv.length === 0) {
    printErr(USAGE + '\n');
    return 2;
  }
  // -V too, as many tools spell it (-v would read as "verbose")
  if (argv[0] === '--version' || argv[0] === '-V') {
    printOut(`${versionLine(version)}\n`);
    return 0;
  }
  if (argv[0] === 'render') return render(argv.slice(1));
  if (argv[0] === 'import') return importDbl(argv.slice(1));
  if (argv[0] === 'cache') return cacheMain(argv.slice(1));
  const parsed = parseArgs(argv);
  if (typeof parsed === 'string') {
    const help = parsed === USAGE;
    (help ? printOut : printErr)(parsed + '\n');
    return help ? 0 : 2;
  }
  const o = parsed;
  for (const n of o.notes) printErr(n + '\n');
  const { files, missing, emptyFolders, unreadable } = expand(o.files);
  for (const m of missing) printErr(`dab: ${noSuchPath(m)}\n`);
  for (const d of emptyFolders) printErr(`dab: ${noDabFilesIn(d)}\n`);
  if (files.length === 0 && unreadable.length === 0) return 2;
  const proofs = o.search
    ? openProofCache(o.store === null ? null : resolveStorePath(o.store), {
        onWarning: (w) => printErr(`dab: ${warning(w)}\n`),
      })
    : undefined;
  const cache = o.search
    ? createSearchCache({ timeBudgetMs: o.budgetMs, tableMb: o.tableMb, threads: o.threads }, proofs)
    : undefined;
  // each file's report is made into its output at once and let go: a folder of large files would
  // otherwise hold every report until the end (found by an audit: 3.45 GB for six 400 KB files)
  const maxLoss = o.command === 'check' ? o.maxLoss : null;
  const json = new FolderJson<JsonReport>(
    (d) => ({
      diagnostics: d.diagnostics.map((x) => ({ ...x, file: d.file })),
      entries: d.entries.map((x) => ({ ...x, file: d.file })),
      files: [d],
    }),
    (d) => {
      const w = new JsonWriter();
      w.value(d, 2);
      w.text('\n');
      w.flush();
    },
  );
  const deadline = o.totalBudgetMs !== null ? Date.now() + o.totalBudgetMs : undefined;
  // a progress line only for a person watching: stderr a terminal, not --json
  const progress = createProgress(process.stderr, !o.json && process.stderr.isTTY === true);
  let failed = false;
  // the temporary files go when the run ends early too (a reader closing the pipe: process.exit)
  const discard = () => json.discard();
  process.once('exit', discard);
  try {
    for (const { path, why } of unreadable) {
      printErr(`dab: ${shownPath(path)}: ${why}\n`);
      if (o.json) json.add(unreadableJson(path, why));
      failed = true;
    }
    for (const file of files) {
      const read = readInputOrSay(file, (why) => {
        if (o.json) json.add(unreadableJson(file, why));
      });
      if (read === null) {
        failed = true;
        continue;
      }
      const doc = readDab(read.text, { maxWork: CLI_MAX_POSITIONS, boundBy: 'cli', bytes: read.bytes });
      const records = cache
        ? proveDocument(cache, doc, {
            positionBudgetMs: o.budgetMs,
            recordBudgetMs: o.recordBudgetMs,
            deadline,
            totalBudgetMs: o.totalBudgetMs ?? undefined,
            onProgress: (p) => progress.update(file, p),
            traces: proofs,
          })
        : [];
      progress.clear();
      const report = analyzeDocument(doc, { search: cache?.lookup, nim: cache?.nim, minLoss: 1 });
      const recordProofs = records.map((p) => reconcileProof(p, report));
      if (o.json) json.add(toJson(report, file, recordProofs, o.budgetMs, maxLoss));
      else
        printOut(
          formatText(report, file, o.command === 'check' ? { problemsOnly: true, maxLoss: o.maxLoss } : {}) +
            (o.command === 'analyze' ? searchSummary(recordProofs, report, o.budgetMs) : ''),
        );
      if (report.diagnostics.some((d) => d.severity === 'error')) failed = true;
      // entries left out by the per-file bound were not checked: not a pass (found by a review)
      if (report.diagnostics.some((d) => d.code === 'not-analysed-here')) failed = true;
      if (o.command === 'check' && o.maxLoss !== null && maxLossProblems(report, o.maxLoss).length) failed = true;
    }
    proofs?.close();
    if (o.json) json.finish();
  } finally {
    json.discard();
    process.off('exit', discard);
  }
  // a path that does not exist is a mistake of the command line (as when it names nothing at all)
  return missing.length > 0 ? 2 : failed ? 1 : 0;
}
