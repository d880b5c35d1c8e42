/**
 * Where the proof store lives. Precedence: an explicit path (CLI `--store PATH`, the `dab.store.path`
 * setting), then the DAB_STORE environment variable, then the user's cache directory:
 * $XDG_CACHE_HOME/dab or ~/.cache/dab on Linux, ~/Library/Caches/dab on macOS,
 * %LOCALAPPDATA%\dab\Cache on Windows. `off` (CLI `--no-store`, DAB_STORE=off) disables the store.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';

export const STORE_FILE = 'proofs.sqlite';

/** Values of DAB_STORE (or the setting) that turn the store off. */
const OFF = new Set(['off', 'none', 'no', '0', 'false', 'disabled']);

export function defaultStoreDir(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): string {
  const home = env.HOME || env.USERPROFILE || homedir();
  if (platform === 'win32') return join(env.LOCALAPPDATA || join(home, 'AppData', 'Local'), 'dab', 'Cache');
  if (platform === 'darwin') return join(home, 'Library', 'Caches', 'dab');
  const xdg = env.XDG_CACHE_HOME;
  // The XDG spec ignores relative paths.
  return join(xdg && xdg.startsWith('/') ? xdg : join(home, '.cache'), 'dab');
}

/**
 * The store file to use, or null when the store is off. `explicit` is the CLI flag or the setting
 * ('' or undefined = not given); a directory-looking path (ending in a separator) gets proofs.sqlite.
 */
export function resolveStorePath(
  explicit: string | null | undefined,
  env: NodeJS.ProcessEnv = process.env,
): string | null {
  const pick = (v: string | undefined) => (v !== undefined && v.trim() !== '' ? v.trim() : undefined);
  const chosen = pick(explicit ?? undefined) ?? pick(env.DAB_STORE);
  if (chosen === undefined) return join(defaultStoreDir(env), STORE_FILE);
  if (OFF.has(chosen.toLowerCase())) return null;
  return /[\\/]$/.test(chosen) ? join(chosen, STORE_FILE) : chosen;
}
