/** Files that cannot be read or written, in words rather than the system's codes ("ENOENT: …"). */

/** A size in bytes, exactly, and roughly: "8,000,000 bytes (8 MB)", "1,073,741,824 bytes (1 GiB)". */
export function bytesWords(n: number): string {
  const rough =
    n % 2 ** 30 === 0 ? `${n / 2 ** 30} GiB` : n % 1e6 === 0 ? `${n / 1e6} MB` : `${(n / 1e6).toFixed(1)} MB`;
  return `${n.toLocaleString('en-US')} bytes (${rough})`;
}

/**
 * A file over the size dab reads: "8,000,116 bytes: dab reads files up to 8,000,000 bytes (8 MB)"
 * (found by an audit: "8 MB: dab reads files up to 8 MB"); from a stream (standard input), whose
 * size is not known, "more than …".
 */
export function fileTooLarge(bytes: number, max: number, stream = false): string {
  return stream
    ? `more than ${bytesWords(max)}: dab reads no more`
    : `${bytes.toLocaleString('en-US')} bytes: dab reads files up to ${bytesWords(max)}`;
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
