/**
 * `dab cache stats|clear|export FILE|import FILE`: the persistent proof store from the command line
 * (where it is, how much it holds; share deep proofs with a team through a portable file).
 */
import { ProofStore } from '../store';

export const CACHE_USAGE = `usage:
  dab cache stats            where the proof store is and what it holds
  dab cache clear            forget every stored proof
  dab cache export FILE      write every proof to FILE (JSON lines, portable)
  dab cache import FILE      check every record of FILE and add it to the store
  --store PATH               use the store at PATH (default: $DAB_STORE, else the user's cache directory)`;

function mb(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** Runs a cache command against the store at `path`; returns the exit code. */
export function cacheCommand(args: string[], path: string | null): number {
  const [sub, file, ...extra] = args;
  const out = (s: string) => process.stdout.write(s + '\n');
  const err = (s: string) => process.stderr.write(`dab: ${s}\n`);
  const needsFile = sub === 'export' || sub === 'import';
  if (!['stats', 'clear', 'export', 'import'].includes(sub ?? '') || (needsFile ? !file : file) || extra.length) {
    process.stderr.write(`${sub ? `dab: bad cache command '${args.join(' ')}'\n` : ''}${CACHE_USAGE}\n`);
    return 2;
  }
  if (path === null) {
    err('the proof store is off (--no-store or DAB_STORE=off)');
    return 2;
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
      out(`records: ${s.records} (${s.exact} exact values, ${s.bounds} bounds)`);
      out(`file size: ${mb(s.fileBytes)} (limit ${mb(s.maxBytes)}; the cheapest proofs are evicted beyond it)`);
    } else if (sub === 'clear') {
      const n = store.clear();
      out(`removed ${n} proofs from ${path}`);
    } else if (sub === 'export') {
      const n = store.exportTo(file!);
      out(`exported ${n} proofs to ${file}`);
    } else {
      let r;
      try {
        r = store.importFrom(file!);
      } catch (e) {
        err((e as Error).message);
        return 1;
      }
      out(
        `imported ${file}: ${r.read} records, ${r.added} added, ${r.improved} improved, ${r.unchanged} already known, ${r.rejected.length} rejected`,
      );
      for (const x of r.rejected.slice(0, 20)) err(`${file}${x.line ? `:${x.line}` : ''}: rejected: ${x.reason}`);
      if (r.rejected.length > 20) err(`… and ${r.rejected.length - 20} more rejected`);
      return r.rejected.length > 0 ? 1 : 0;
    }
    return 0;
  } finally {
    store.close();
  }
}
