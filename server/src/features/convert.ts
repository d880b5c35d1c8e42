/** Translation between engine data and LSP types, and text helpers shared by the features. */
import { DiagnosticSeverity, type Range as LspRange } from 'vscode-languageserver-protocol';
import type { Range, Severity } from '../engine/notation';
import type { DocumentReport, EntryReport, PositionReport } from '../engine/analysis/analyzeDocument';
import { entryIndexAt, rangeContains } from '../engine/notation';

export function toLspRange(r: Range): LspRange {
  return { start: { line: r.line, character: r.character }, end: { line: r.endLine, character: r.endCharacter } };
}

export function toLspSeverity(s: Severity): DiagnosticSeverity {
  switch (s) {
    case 'error':
      return DiagnosticSeverity.Error;
    case 'warning':
      return DiagnosticSeverity.Warning;
    case 'information':
      return DiagnosticSeverity.Information;
    default:
      return DiagnosticSeverity.Hint;
  }
}

/** Text from the file shown in markdown (titles, names, comments): escaped so it stays text. */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_[\]|<>&~]/g, (c) =>
    c === '<' ? '&lt;' : c === '>' ? '&gt;' : c === '&' ? '&amp;' : `\\${c}`,
  );
}

export function entryAt(report: DocumentReport, line: number): EntryReport | undefined {
  const i = entryIndexAt(report.doc.entries, line);
  return i >= 0 ? report.entries[i] : undefined;
}

/** The ply of the move under the cursor (the position after it), or undefined. */
export function moveAt(entry: EntryReport, line: number, character: number): EntryReport['moves'][number] | undefined {
  return entry.moves.find((m) => rangeContains(m.range, line, character));
}

/** The position shown for a cursor: after the last move at or before it (the start before any move). */
export function positionAt(entry: EntryReport, line: number, character: number): PositionReport | undefined {
  let ply = 0;
  for (const m of entry.moves) {
    const r = m.range;
    if (r.line < line || (r.line === line && r.character <= character)) ply = m.ply;
    else break;
  }
  return entry.positions[ply] ?? entry.positions[0];
}
