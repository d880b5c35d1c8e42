/** Translation between engine data and LSP types, and text helpers shared by the features. */
import { DiagnosticSeverity, type Range as LspRange } from 'vscode-languageserver-protocol';
import type { Range, Severity } from '../engine/notation';
import type { DocumentReport, EntryReport, LineReport, MoveReport, PositionReport } from '../engine/analysis/report';
import { entryIndexAt, lastContaining } from '../engine/notation';
import { lineAt, positionInLine } from './cursorLine';

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

/**
 * A hover's Markdown as plain text, for clients that accept no Markdown (hover.contentFormat): the
 * bold and code marks, table rules and escapes that escapeMarkdown and the features write are undone.
 */
export function plainFromMarkdown(md: string): string {
  return md
    .split('\n')
    .filter((l) => !/^\|(?:-+\|)+$/.test(l) && l !== '---') // table separators and rules: no words
    .map((l) => (/^\|.*\|$/.test(l) ? plainRow(l) : l))
    .join('\n')
    .replace(/\\([\\`*_[\]|<>&~])|\*+|`|&lt;|&gt;|&amp;/g, (m, escaped: string | undefined) =>
      escaped !== undefined ? escaped : m === '&lt;' ? '<' : m === '&gt;' ? '>' : m === '&amp;' ? '&' : '',
    );
}

/** A table row `| a | b | |` as `a · b` (cells split at pipes that are not escaped ones). */
function plainRow(row: string): string {
  return row
    .slice(1, -1)
    .split(/(?<!\\)\|/)
    .map((c) => c.trim())
    .filter((c) => c !== '')
    .join(' · ');
}

/** Text from the file shown in markdown (titles, names, comments): escaped so it stays text. */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_[\]|<>&~]/g, (c) =>
    c === '<' ? '&lt;' : c === '>' ? '&gt;' : c === '&' ? '&amp;' : `\\${c}`,
  );
}

export function entryAt(report: DocumentReport, line: number): EntryReport | undefined {
  // past the entries the editor reads, no entry: not the last one read (found by an audit: hovers
  // there described another entry)
  const unread = report.doc.unreadFrom;
  if (unread && line >= unread.line) return undefined;
  const i = entryIndexAt(report.doc.entries, line);
  return i >= 0 ? report.entries[i] : undefined;
}

/** The ply of the move under the cursor (the position after it), or undefined. */
export function moveAt(entry: EntryReport, line: number, character: number): EntryReport['moves'][number] | undefined {
  return lastContaining(entry.moves, line, character);
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

/** The move under the cursor in whichever line holds it (main line or variation), with that line. */
export function lineMoveAt(
  entry: EntryReport,
  line: number,
  character: number,
): { line: LineReport; move: MoveReport } | undefined {
  const l = lineAt(entry, line, character);
  const move = lastContaining(l.moves, line, character);
  return move ? { line: l, move } : undefined;
}

/** The position a cursor shows in the line that holds it: after the last move at or before it. */
export function linePositionAt(
  entry: EntryReport,
  line: number,
  character: number,
): { line: LineReport; position: PositionReport | undefined } {
  const l = lineAt(entry, line, character);
  return { line: l, position: positionInLine(l, line, character).position ?? l.positions[0] };
}

/** The positions before and after a move of a line. */
export function beforeMove(line: LineReport, m: MoveReport): PositionReport | undefined {
  return line.positions[m.ply - 1 - line.startPly];
}
export function afterMove(line: LineReport, m: MoveReport): PositionReport | undefined {
  return line.positions[m.ply - line.startPly];
}
