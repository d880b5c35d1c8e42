/**
 * `dab cache stats|clear|export FILE|import FILE`: the persistent proof store from the command line
 * (where it is, how much it holds; share deep proofs with a team through a portable file).
 */
import { printErr, printOut } from './terminal';
import { ProofStore } from '../store';
import { positionOfKey, type Proof } from '../store/proof';
import { BATCH_TABLE_MB, Solver } from '../engine/solver';
import { IMPORT_VERIFY_MS } from '../engine/limits';
import { plainDecimal, readInput } from './input';
import { MAX_IMPORT_BYTES } from '../store/proofStore';
import { existsSync } from 'node:fs';
import { plural } from '../engine/phrasebook/grammar';

export const CACHE_USAGE = `usage:
  dab cache stats            where the proof store is and what it holds
  dab cache clear            forget every stored proof
  dab cache export FILE      write every proof to FILE (JSON lines, portable; - for standard output)
  dab cache import FILE      check every record of FILE (- for standard input), prove it again,
                             and add it to the store
  --verify-ms N              import: time to prove each record again (default ${IMPORT_VERIFY_MS}); a record
                             not proven within it is rejected
  --store PATH               use the store at PATH (default: $DAB_STORE, else the user's cache directory)`;

function mb(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** Runs a cache command against the store at `path`; returns the exit code. */
export function cacheCommand(argv: string[], path: string | null): number {
  const args = argv.slice();
  let verifyMs = IMPORT_VERIFY_MS;
  const at = args.indexOf('--verify-ms');
  if (at >= 0) {
    const v = plainDecimal(args[at + 1]);
    if (v === undefined || !Number.isSafeInteger(v) || v < 1) {
      printErr(`dab: --verify-ms needs a whole number of milliseconds, at least 1\n${CACHE_USAGE}\n`);
      return 2;
    }
    verifyMs = v;
    args.splice(at, 2);
  }
  const [sub, file, ...extra] = args;
  const out = (s: string) => printOut(s + '\n');
  const err = (s: string) => printErr(`dab: ${s}\n`);
  const unknown = args.find((a) => a.startsWith('-') && a !== '-');
  if (unknown !== undefined || (at >= 0 && sub !== 'import')) {
    err(
      `${unknown !== undefined ? `unknown option '${unknown}'` : '--verify-ms is for dab cache import'}\n${CACHE_USAGE}`,
    );
    return 2;
  }
  const needsFile = sub === 'export' || sub === 'import';
  if (!['stats', 'clear', 'export', 'import'].includes(sub ?? '') || (needsFile ? !file : file) || extra.length) {
    printErr(`${sub ? `dab: bad cache command '${args.join(' ')}'\n` : ''}${CACHE_USAGE}\n`);
    return 2;
  }
  if (path === null) {
    err('the proof store is off (--no-store or DAB_STORE=off)');
    return 2;
  }
  // stats, clear and export only read a store: a mistyped path is said, not made into a new empty
  // store; before any run has stored a proof there is simply nothing (stats and clear succeed)
  if (sub !== 'import' && !existsSync(path)) {
    if (sub === 'export') {
      err(`no proof store at ${path}: nothing to export`);
      return 1;
    }
    out(`no proof store at ${path} (nothing stored there yet)`);
    return 0;
  }
  const store = ProofStore.open(path, { onWarning: (w) => err(`warning: ${w}`) });
  if (!store.usable) {
    err(`the proof store ${path} cannot be used`);
    return 1;
  }
  try {
    if (sub === 'stats') {
      const s = store.stats();
      out(`proof store: ${s.path}`);
      out(`records: ${s.records} (${plural(s.exact, 'exact value')}, ${plural(s.bounds, 'bound')})`);
      out(`file size: ${mb(s.fileBytes)} (limit ${mb(s.maxBytes)}; the cheapest proofs are evicted beyond it)`);
    } else if (sub === 'clear') {
      const n = store.clear();
      out(`removed ${plural(n, 'proof')} from ${path}`);
    } else if (sub === 'export') {
      let n;
      try {
        n = store.exportTo(file!);
      } catch (e) {
        err((e as Error).message);
        return 1;
      }
      // to stdout ('-'), the count goes to stderr so that the export stays a clean file
      (file === '-' ? err : out)(`exported ${plural(n, 'proof')} to ${file === '-' ? 'standard output' : file}`);
    } else {
      let r;
      try {
        r =
          file === '-'
            ? store.importText(readInput('-', MAX_IMPORT_BYTES), 'standard input', reprove(verifyMs))
            : store.importFrom(file!, reprove(verifyMs));
      } catch (e) {
        err((e as Error).message);
        return 1;
      }
      const name = file === '-' ? 'standard input' : file;
      out(
        `imported ${name}: ${r.read} records, ${r.added} added, ${r.improved} improved, ${r.unchanged} already known, ${r.rejectedCount} rejected`,
      );
      for (const x of r.rejected.slice(0, 20)) err(`${name}${x.line ? `:${x.line}` : ''}: rejected: ${x.reason}`);
      if (r.rejectedCount > 20) err(`… and ${r.rejectedCount - 20} more rejected`);
      return r.rejectedCount > 0 ? 1 : 0;
    }
    return 0;
  } finally {
    store.close();
  }
}

/**
 * Proves an imported record again with the solver, within `ms` per window: its bounds (one
 * null-window search each), and with move values or optimal moves, the position solved exactly
 * with every move's value, which must equal the record's. Returns the record to keep (without the
 * file's tried time, which cannot be checked), or why it is rejected.
 */
function reprove(ms: number): (key: string, p: Proof) => Proof | string {
  const solver = new Solver({ tableMb: BATCH_TABLE_MB });
  return (key, p) => {
    const st = positionOfKey(key);
    if (typeof st === 'string') return st;
    const r = st.openBoxCount();
    // `what` is one claim of the record ("its lower bound 3", "its move values": `are` for a plural)
    const cut = (what: string, done: boolean, verb = 'is') =>
      done
        ? `${what} ${verb} false (a search disproves it)`
        : `${what} ${verb} not proven again within ${ms} ms (--verify-ms)`;
    if (p.lower > -r) {
      const w = solver.searchWindow(st, p.lower - 1, p.lower, { timeBudgetMs: ms });
      if (w.lower < p.lower) return cut(`its lower bound ${p.lower}`, w.status === 'done');
    }
    if (p.upper < r) {
      const w = solver.searchWindow(st, p.upper, p.upper + 1, { timeBudgetMs: ms });
      if (w.upper > p.upper) return cut(`its upper bound ${p.upper}`, w.status === 'done');
    }
    if (p.moves.length > 0 || p.best.length > 0) {
      const s = solver.solve(st, { moveValues: true, timeBudgetMs: ms });
      if (s.status !== 'exact' || !s.moveValues) return cut('its move values', false, 'are');
      for (const [l, v] of p.moves) if (s.moveValues[l] !== v) return cut(`the value ${v} of its move ${l}`, true);
      if (p.best.length > 0 && p.best.join(',') !== s.best.join(',')) return cut('its optimal moves', true, 'are');
    }
    // the estimate stays (it is only ever shown as "best found so far, not proven"); the tried time
    // cannot be checked, and would stop later searches of the position
    return { ...p, tried: 0 };
  };
}
