/**
 * `dab cache stats|clear|export FILE|import FILE`: the persistent proof store from the command line
 * (where it is, how much it holds; share deep proofs with a team through a portable file).
 */
import { printErr, printOut } from './terminal';
import { ProofStore } from '../store';
import { positionOfKey, type Proof } from '../store/proof';
import { BATCH_TABLE_MB, Solver } from '../engine/solver';
import { IMPORT_VERIFY_MS, IMPORT_VERIFY_TOTAL_MS } from '../engine/limits';
import { plainDecimal, readInput } from './input';
import { checkExportHeader, MAX_IMPORT_BYTES } from '../store/exportFile';
import { statSync } from 'node:fs';
import { fileErrorWords } from '../engine/phrasebook/files';
import {
  badCacheCommand,
  cacheUsage,
  claimNotReproven,
  importReport,
  moreRejected,
  noStoreToExport,
  noStoreYet,
  proofsExported,
  proofsRemoved,
  recordClaim,
  recordRejected,
  STANDARD_INPUT,
  STANDARD_OUTPUT,
  STORE_IS_OFF,
  storeCannotBeOpened,
  storeCannotBeUsed,
  storeStatsLines,
  unknownOption,
  givenTwice,
  verifyNeedsNumber,
  verifyOnlyForImport,
  importTimeRanOut,
  recordFault,
} from '../engine/phrasebook';

export const CACHE_USAGE = cacheUsage(IMPORT_VERIFY_MS, IMPORT_VERIFY_TOTAL_MS);

/**
 * Runs a cache command against the store at `path`; returns the exit code. `operands`: what came
 * after `--` (endOfOptions), never read as options.
 */
export function cacheCommand(argv: string[], path: string | null, operands: string[] = []): number {
  const args = argv.slice();
  // the import's times: --verify-ms (each search) and --verify-total-ms (the whole file)
  const times: Record<string, number> = {
    '--verify-ms': IMPORT_VERIFY_MS,
    '--verify-total-ms': IMPORT_VERIFY_TOTAL_MS,
  };
  let timeFlag: string | null = null;
  for (const flag of Object.keys(times)) {
    const at = args.indexOf(flag);
    if (at < 0) continue;
    const v = plainDecimal(args[at + 1]);
    if (v === undefined || !Number.isSafeInteger(v) || v < 1) {
      printErr(`dab: ${verifyNeedsNumber(flag)}\n${CACHE_USAGE}\n`);
      return 2;
    }
    times[flag] = v;
    timeFlag = flag;
    args.splice(at, 2);
    if (args.includes(flag)) {
      printErr(`dab: ${givenTwice(flag)}\n${CACHE_USAGE}\n`);
      return 2;
    }
  }
  const verifyMs = times['--verify-ms'],
    verifyTotalMs = times['--verify-total-ms'];
  const unknown = args.find((a) => a.startsWith('-') && a !== '-');
  const [sub, file, ...extra] = [...args, ...operands];
  const out = (s: string) => printOut(s + '\n');
  const err = (s: string) => printErr(`dab: ${s}\n`);
  if (unknown !== undefined || (timeFlag !== null && sub !== 'import')) {
    err(`${unknown !== undefined ? unknownOption(unknown) : verifyOnlyForImport(timeFlag!)}\n${CACHE_USAGE}`);
    return 2;
  }
  const needsFile = sub === 'export' || sub === 'import';
  if (!['stats', 'clear', 'export', 'import'].includes(sub ?? '') || (needsFile ? !file : file) || extra.length) {
    printErr(`${sub ? `dab: ${badCacheCommand([...argv, ...operands].join(' '))}\n` : ''}${CACHE_USAGE}\n`);
    return 2;
  }
  if (path === null) {
    err(STORE_IS_OFF);
    return 2;
  }
  // stats, clear and export only read a store: a mistyped path is said, not made into a new empty
  // store; before any run has stored a proof there is simply nothing (stats and clear succeed)
  // (only a path that is not there is no store yet: one through a file or a loop of links cannot be
  // one, and says why: found by an audit, "nothing stored there yet", exit 0)
  const missing = sub !== 'import' ? whyMissing(path) : null;
  if (missing === 'absent') {
    if (sub === 'export') {
      err(noStoreToExport(path));
      return 1;
    }
    out(noStoreYet(path));
    return 0;
  }
  if (missing !== null) {
    err(storeCannotBeOpened(path, missing));
    return 1;
  }
  const store = ProofStore.open(path, { onWarning: (w) => err(`warning: ${w}`) });
  if (!store.usable) {
    err(storeCannotBeUsed(path));
    return 1;
  }
  try {
    if (sub === 'stats') {
      for (const line of storeStatsLines(store.stats())) out(line);
    } else if (sub === 'clear') {
      const n = store.clear();
      out(proofsRemoved(n, path));
    } else if (sub === 'export') {
      let n;
      try {
        n = store.exportTo(file!);
      } catch (e) {
        err((e as Error).message);
        return 1;
      }
      // to stdout ('-'), the count goes to stderr so that the export stays a clean file
      (file === '-' ? err : out)(proofsExported(n, file === '-' ? STANDARD_OUTPUT : file!));
    } else {
      let text: string | undefined;
      // the header is checked as soon as it is read: what is no export is not read on
      let notAnExport: Error | undefined;
      const header = (line: string) => {
        try {
          checkExportHeader(line, STANDARD_INPUT);
        } catch (e) {
          throw (notAnExport = e as Error);
        }
      };
      try {
        if (file === '-') text = readInput('-', MAX_IMPORT_BYTES, header);
      } catch (e) {
        // what cannot be read names where it came from (found by an audit: "dab: 1074 MB: …")
        err(notAnExport ? notAnExport.message : `${STANDARD_INPUT}: ${fileErrorWords(e)}`);
        return 1;
      }
      let r;
      try {
        r =
          text !== undefined
            ? store.importText(text, STANDARD_INPUT, reprove(verifyMs, verifyTotalMs))
            : store.importFrom(file!, reprove(verifyMs, verifyTotalMs));
      } catch (e) {
        err((e as Error).message);
        return 1;
      }
      const name = file === '-' ? STANDARD_INPUT : file!;
      out(importReport(name, r));
      for (const x of r.rejected.slice(0, 20)) err(recordRejected(name, x.line, x.reason));
      if (r.rejectedCount > 20) err(moreRejected(r.rejectedCount - 20));
      return r.rejectedCount > 0 ? 1 : 0;
    }
    return 0;
  } finally {
    // only an import adds records: stats, clear and export do not spend time evicting (found by an
    // audit: `cache stats` of a store over its bound printed its counts, then evicted for minutes)
    store.close(sub === 'import' ? undefined : 0);
  }
}

/**
 * Proves an imported record again with the solver, within `ms` per window: its bounds (one
 * null-window search each), and with move values or optimal moves, the position solved exactly
 * with every move's value, which must equal the record's. Returns the record to keep (without the
 * file's tried time, which cannot be checked), or why it is rejected.
 */
function reprove(ms: number, totalMs: number): (key: string, p: Proof) => Proof | string {
  const solver = new Solver({ tableMb: BATCH_TABLE_MB });
  // from the first record checked: reading the file is not part of it
  let deadline = Infinity;
  return (key, p) => {
    if (deadline === Infinity) deadline = Date.now() + totalMs;
    const st = positionOfKey(key);
    if (typeof st === 'string') return st;
    // every search within what is left of the whole import's time, and none once it has run out
    if (Date.now() >= deadline) return importTimeRanOut(totalMs);
    const each = () => Math.max(1, Math.min(ms, deadline - Date.now()));
    const r = st.openBoxCount();
    // `what` is one claim of the record (recordClaim: `are` for a plural one); `done`: a search
    // disproved it; a search the whole import's time cut short says so
    const cut = (what: string, done: boolean, verb: 'is' | 'are' = 'is') =>
      !done && Date.now() >= deadline ? importTimeRanOut(totalMs) : claimNotReproven(what, done, ms, verb);
    if (p.lower > -r) {
      const w = solver.searchWindow(st, p.lower - 1, p.lower, { timeBudgetMs: each() });
      if (w.lower < p.lower) return cut(recordClaim.lower(p.lower), w.status === 'done');
    }
    if (p.upper < r) {
      const w = solver.searchWindow(st, p.upper, p.upper + 1, { timeBudgetMs: each() });
      if (w.upper > p.upper) return cut(recordClaim.upper(p.upper), w.status === 'done');
    }
    if (p.moves.length > 0 || p.best.length > 0) {
      const s = solver.solve(st, { moveValues: true, timeBudgetMs: each() });
      if (s.status !== 'exact' || !s.moveValues) return cut(recordClaim.moveValues, false, 'are');
      for (const [l, v] of p.moves) if (s.moveValues[l] !== v) return cut(recordClaim.moveValue(l, v), true);
      if (p.best.length > 0 && p.best.join(',') !== s.best.join(',')) return cut(recordClaim.optimalMoves, true, 'are');
    }
    // the estimate's proven bound is a claim like the others (found by an audit: a forged one made
    // dab print a move "proven" to keep a win it loses): proven again, or the record is rejected
    const e = p.estimate;
    if (e?.lower !== undefined) {
      const child = st.clone();
      const played = child.play(e.move);
      if (!played.ok) return recordFault.estimateNotUndrawn(e.move);
      // the move's worth to the player to move: c + v(child) when they move again, -v(child) when not
      const c = played.completed.length;
      if (c > 0 && e.lower - c > -child.openBoxCount()) {
        const w = solver.searchWindow(child, e.lower - c - 1, e.lower - c, { timeBudgetMs: each() });
        if (w.lower < e.lower - c) return cut(recordClaim.estimateLower(e.move, e.lower), w.status === 'done');
      } else if (c === 0 && -e.lower < child.openBoxCount()) {
        const w = solver.searchWindow(child, -e.lower, -e.lower + 1, { timeBudgetMs: each() });
        if (w.upper > -e.lower) return cut(recordClaim.estimateLower(e.move, e.lower), w.status === 'done');
      }
    }
    // the estimate stays (it is only ever shown as "best found so far, not proven"); the tried time
    // cannot be checked, and would stop later searches of the position
    return { ...p, tried: 0 };
  };
}

/** null when `path` is there, 'absent' when it is not (nor a folder on its way), else why it cannot be reached. */
function whyMissing(path: string): 'absent' | string | null {
  try {
    statSync(path);
    return null;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'absent' : fileErrorWords(e);
  }
}
