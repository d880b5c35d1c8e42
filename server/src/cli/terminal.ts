/**
 * What the CLI prints for people goes through terminalSafe: text from a file (a title, a player's
 * name, a line quoted in a warning) may hold control characters, and an ESC sequence printed raw
 * can clear the screen or retitle the terminal; bidi overrides can reorder what is shown. They are
 * printed as escapes (`\u001b`), as the JSON output writes them. Formats (JSON, SVG, the .dab text
 * of `dab import`) are written as they are.
 */

// C0 controls but tab and newline, DEL, C1 controls, and explicit bidi embeddings, overrides and isolates
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/g;

export function terminalSafe(s: string): string {
  return s.replace(UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Standard output, for people (not a format). */
export function printOut(s: string): void {
  process.stdout.write(terminalSafe(s));
}

/** Standard error: messages and warnings. */
export function printErr(s: string): void {
  process.stderr.write(terminalSafe(s));
}
