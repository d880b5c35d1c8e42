/** Files that cannot be read or written, in words rather than the system's codes ("ENOENT: …"). */

/** A file over the size dab reads: "21 MB: dab reads files up to 8 MB". */
export function fileTooLarge(bytes: number, max: number): string {
  return `${(bytes / 1e6).toFixed(0)} MB: dab reads files up to ${max / 1e6} MB`;
}

/** A path that names something other than a file (a device, a socket): "dab: FILE: not a regular file". */
export const NOT_A_REGULAR_FILE = 'not a regular file';

/** Why a file cannot be used, from the error the system gave: "no such file", "permission denied", … */
export function fileErrorWords(e: unknown): string {
  const code = (e as { code?: unknown } | null)?.code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'ENOTDIR') return 'a folder on its path is a file';
  if (code === 'ELOOP') return 'its links loop';
  if (code === 'EISDIR') return 'it is a folder';
  return (e as Error | null)?.message ?? String(e);
}
