/**
 * The line of play under a cursor: the innermost variation `( … )` that holds it, else the main
 * line; and the position shown there (after the last of that line's moves at or before the cursor).
 * The board view draws it and a click on the board plays on from it.
 */
import type { EntryReport, LineReport, PositionReport, VariationReport } from '../engine/analysis/analyzeDocument';
import { rangeContains } from '../engine/notation';

export function lineAt(entry: EntryReport, line: number, character: number): LineReport {
  let inner: VariationReport | undefined;
  for (const l of entry.lines ?? []) {
    const v = (l as Partial<VariationReport>).variation;
    if (v && rangeContains(v.range, line, character) && (!inner || v.depth > inner.variation.depth))
      inner = l as VariationReport;
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
