/**
 * The line of play under a cursor: the innermost variation `( … )` that holds it, else the main
 * line; and the position shown there (after the last of that line's moves at or before the cursor).
 * The board view draws it and a click on the board plays on from it.
 */
import type { EntryReport, LineReport, MoveReport, PositionReport, VariationReport } from '../engine/analysis/report';
import { rangeContains } from '../engine/notation';

export function lineAt(entry: EntryReport, line: number, character: number): LineReport {
  return innermostAt(entry, line, character, Infinity);
}

/** The innermost variation no deeper than `maxDepth` whose text holds the place, else the main line. */
function innermostAt(entry: EntryReport, line: number, character: number, maxDepth: number): LineReport {
  let inner: VariationReport | undefined;
  for (const l of entry.lines ?? []) {
    if (!isVariation(l) || l.variation.depth > maxDepth || !rangeContains(l.variation.range, line, character)) continue;
    if (!inner || l.variation.depth > inner.variation.depth) inner = l;
  }
  return inner ?? entry;
}

/** The position after the last move of `l` written at or before the cursor; index = moves before it. */
export function positionInLine(
  l: LineReport,
  line: number,
  character: number,
): { index: number; position: PositionReport | undefined } {
  let index = 0;
  l.moves.forEach((m, i) => {
    const r = m.range;
    if (r.line < line || (r.line === line && r.character <= character)) index = i + 1;
  });
  return { index, position: l.positions[index] };
}

export const isVariation = (l: LineReport): l is VariationReport => 'variation' in l;

/** The line a variation branches from: the innermost variation around it, else the main line. */
export function parentLine(entry: EntryReport, v: VariationReport): LineReport {
  return innermostAt(entry, v.variation.range.line, v.variation.range.character, v.variation.depth - 1);
}

/**
 * The move that reached ply `ply` along `l` (a variation: through the lines it branches from, as
 * played), or undefined at the entry's start.
 */
export function moveToPly(entry: EntryReport, l: LineReport, ply: number): MoveReport | undefined {
  for (let cur = l; ; cur = parentLine(entry, cur)) {
    if (ply > cur.startPly) return cur.moves[ply - cur.startPly - 1];
    if (!isVariation(cur)) return undefined;
  }
}
