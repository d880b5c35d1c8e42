/**
 * Code actions: after a move that throws boxes away, insert the best continuation from the
 * position before it as a brace comment. The record's own moves are never rewritten.
 */
import type { CodeAction, CodeActionParams } from 'vscode-languageserver';
import { CodeActionKind } from 'vscode-languageserver';
import type { DocumentReport } from '../engine/analysis/analyzeDocument';
import type { Evaluation } from '../engine/analysis/evaluation';
import type { BoardState } from '../engine/board/state';
import { bestContinuation } from '../engine/analysis/evaluatePosition';
import { betterLineComment, betterLineTitle } from '../engine/phrasebook';
import { entryAt, moveAt } from './convert';

export function codeActions(
  report: DocumentReport,
  params: CodeActionParams,
  known: (s: BoardState) => Evaluation | undefined,
): CodeAction[] {
  const pos = params.range.start;
  const entry = entryAt(report, pos.line);
  if (!entry || entry.kind === 'endgame') return [];
  const move = moveAt(entry, pos.line, pos.character);
  if (!move || move.loss === null || move.loss === 0) return [];
  const before = entry.positions[move.ply - 1];
  if (!before?.state || before.best.length === 0) return [];
  const g = before.state.geometry;
  const line = bestContinuation(before.state, known).map((l) => g.lineName(l));
  const shown = line.length ? line : [before.best[0]];
  const text = betterLineComment(
    shown,
    before.best.length > 1 ? before.best.filter((b) => b !== shown[0]).slice(0, 3) : [],
  );
  const token = entry.model.moves.find((m) => m.ply === move.ply)?.token;
  const end = token?.glyphRange ?? move.range;
  const at = { line: end.endLine, character: end.endCharacter };
  return [
    {
      title: betterLineTitle(shown),
      kind: CodeActionKind.QuickFix,
      diagnostics: params.context.diagnostics.filter(
        (d) => d.range.start.line === move.range.line && d.range.start.character === move.range.character,
      ),
      edit: { changes: { [params.textDocument.uri]: [{ range: { start: at, end: at }, newText: text }] } },
    },
  ];
}
