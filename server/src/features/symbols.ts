/** Document symbols (one per entry, its value as detail) and folding ranges (entries, diagrams, move lists). */
import { FoldingRangeKind, SymbolKind, type DocumentSymbol, type FoldingRange } from 'vscode-languageserver';
import type { DocumentReport } from '../engine/analysis/analyzeDocument';
import { entryLensTitle } from '../engine/phrasebook';
import { toLspRange } from './convert';

export function documentSymbols(report: DocumentReport): DocumentSymbol[] {
  return report.entries.map((e) => {
    const entry = e.model.entry;
    const range = toLspRange(entry.range);
    const selectionRange = toLspRange(entry.titleRange ?? entry.headerRange);
    return {
      name: `${e.kind} ${e.title !== null ? `"${e.title}"` : '(untitled)'}`,
      detail: entryLensTitle(e),
      kind: e.kind === 'game' ? SymbolKind.Event : e.kind === 'position' ? SymbolKind.Object : SymbolKind.Struct,
      range,
      selectionRange: clampInside(selectionRange, range),
    };
  });
}

function clampInside(sel: DocumentSymbol['range'], outer: DocumentSymbol['range']): DocumentSymbol['range'] {
  const before = (a: { line: number; character: number }, b: { line: number; character: number }) =>
    a.line < b.line || (a.line === b.line && a.character < b.character);
  if (before(sel.start, outer.start) || before(outer.end, sel.end)) return outer;
  return sel;
}

export function foldingRanges(report: DocumentReport): FoldingRange[] {
  const out: FoldingRange[] = [];
  for (const e of report.entries) {
    const r = e.model.entry.range;
    if (r.endLine > r.line) out.push({ startLine: r.line, endLine: r.endLine, kind: FoldingRangeKind.Region });
    for (const f of [e.model.entry.diagram, e.model.entry.moves, e.model.entry.play]) {
      if (f && f.range.endLine > f.range.line) out.push({ startLine: f.range.line, endLine: f.range.endLine });
    }
  }
  return out;
}
