/**
 * The progress line of a long CLI run: one line on stderr, rewritten in place, only when stderr is
 * a terminal (never in a pipe, a file or with --json), cleared before any output.
 */
import { terminalSafe } from './terminal';
import { progressParts } from '../engine/phrasebook';

export interface ProgressInfo {
  entry: number;
  entries: number;
  ply: number;
  plies: number;
  /** What the last finished position proved. */
  proven: string;
  msLeft: number;
}

export interface Progress {
  update(file: string, p: ProgressInfo): void;
  clear(): void;
}

/** At most this often (ms): a terminal repaint per position would be wasted work on fast positions. */
const REPAINT_MS = 100;

export function createProgress(stream: NodeJS.WriteStream, enabled: boolean): Progress {
  let shown = false;
  let lastPaint = 0;
  return {
    update(file, p) {
      if (!enabled) return;
      const now = Date.now();
      if (now - lastPaint < REPAINT_MS) return;
      lastPaint = now;
      let line = terminalSafe(progressParts(file, p).join(' · '));
      const width = stream.columns || 100;
      if (line.length > width - 1) line = line.slice(0, width - 2) + '…';
      stream.write(`\r\x1b[K${line}`);
      shown = true;
    },
    clear() {
      if (shown) stream.write('\r\x1b[K');
      shown = false;
    },
  };
}
