/**
 * Code actions: insert the best continuation after a move as a brace comment. The record's own
 * moves are never rewritten.
 */
import type { CodeAction, CodeActionParams } from 'vscode-languageserver';
import { CodeActionKind } from 'vscode-languageserver';
import type { DocumentReport } from '../engine/analysis/analyze';
import { entryAt, moveAt, positionAt } from './convert';

export function codeActions(report: DocumentReport, params: CodeActionParams): CodeAction[] {
  const pos = params.range.start;
  const entry = entryAt(report, pos.line);
  if (!entry || entry.kind === 'endgame') return [];
  const move = moveAt(entry, pos.line, pos.character);
  const p = move ? entry.positions[move.ply - 1] : positionAt(entry, pos.line, pos.character);
  if (!move || !p || p.best.length === 0 || move.loss === null || move.loss === 0) {
    return [];
  }
  const text = ` {best: ${p.best.join(' or ')}${move.loss ? `; ${move.move} gives away ${move.loss}` : ''}}`;
  const at = { line: move.range.endLine, character: move.range.endCharacter };
  // After the glyph, if any.
  const glyphEnd = entry.model.moves.find((m) => m.range === move.range)?.token.glyphRange;
  const insertAt = glyphEnd ? { line: glyphEnd.endLine, character: glyphEnd.endCharacter } : at;
  return [{
    title: `Insert the best move as a comment: ${p.best.slice(0, 3).join(' or ')}${p.best.length > 3 ? '…' : ''}`,
    kind: CodeActionKind.QuickFix,
    diagnostics: params.context.diagnostics.filter((d) => d.range.start.line === move.range.line),
    edit: { changes: { [params.textDocument.uri]: [{ range: { start: insertAt, end: insertAt }, newText: text }] } },
  }];
}
