/**
 * Code actions: after a move that throws boxes away (in the main line or in a variation), insert
 * the best continuation from the position before it as a variation `( … )` — only moves proven
 * best are written (every optimal move known, or one of those a search proved optimal without
 * searching them all: MoveReport.provenInstead). The record's own moves are never rewritten.
 */
import type { CodeAction, CodeActionParams, Command } from 'vscode-languageserver';
import { CodeActionKind } from 'vscode-languageserver';
import type { DocumentReport, EntryReport, MoveReport } from '../engine/analysis/report';
import type { Evaluation } from '../engine/analysis/evaluation';
import type { BoardState } from '../engine/board/state';
import { parseLine } from '../engine/board/geometry';
import { provenLoss } from '../engine/analysis/prove';
import { bestContinuation } from '../engine/analysis/evaluatePosition';
import { allLines, hasOpenText, rangeContains, variationEnd, writtenEnd, type MoveToken } from '../engine/notation';
import { betterLineTitle } from '../engine/phrasebook';
import { beforeMove, entryAt, lineMoveAt } from './convert';

/** How a client takes code actions: literals, commands the server carries out, or not at all. */
export type CodeActionForm = 'literal' | 'command' | 'none';

/**
 * The quick fixes in the form the client declared (LSP: a client without codeActionLiteralSupport
 * takes Command objects only): literals as they are; as commands, the `command` named with the
 * document and the place the fix was asked at, which the server works out again when it runs.
 */
export function codeActionsForClient(
  actions: CodeAction[],
  form: CodeActionForm,
  command: string,
): (CodeAction | Command)[] {
  if (form === 'literal') return actions;
  if (form === 'none') return [];
  return actions.flatMap((a) => {
    const at = a.data as FixPlace | undefined;
    return at ? [{ title: a.title, command, arguments: [at.uri, at.position] }] : [];
  });
}

/** Where a quick fix was asked for (CodeAction.data). */
interface FixPlace {
  uri: string;
  position: { line: number; character: number };
}

export function codeActions(
  report: DocumentReport,
  params: CodeActionParams,
  known: (s: BoardState) => Evaluation | undefined,
): CodeAction[] {
  const only = params.context?.only;
  // a client asking for other kinds only (source actions, refactorings) gets none of these
  if (Array.isArray(only) && only.length > 0 && !only.some((k) => k === '' || k === CodeActionKind.QuickFix)) return [];
  const pos = params.range.start;
  const entry = entryAt(report, pos.line);
  // no edit into an entry whose comment or string is left open: the text would be swallowed by it
  if (!entry || entry.kind === 'endgame' || hasOpenText(entry.model.entry)) return [];
  // on the move, or on its glyph (`a1-b1??`: an editor asks at the cursor, the diagnostic covers the move)
  const found = lineMoveAt(entry, pos.line, pos.character) ?? glyphMoveAt(entry, pos.line, pos.character);
  if (!found) return [];
  const { move } = found;
  if (provenLoss(move) === 0) return [];
  const before = beforeMove(found.line, move);
  // every optimal move, or (not all searched) those proven optimal
  const optimal = before?.best.length
    ? before.best
    : move.provenInstead?.standing === 'optimal'
      ? move.provenInstead.moves
      : [];
  if (!before?.state || optimal.length === 0) return [];
  // an optimal alternative already written there: the fix would write it again (found by an audit)
  if (move.variations.some((v) => v.moves[0] !== undefined && optimal.includes(v.moves[0].move))) return [];
  const g = before.state.geometry;
  let shown = bestContinuation(before.state, known).map((l) => g.lineName(l));
  if (shown.length === 0) {
    // the first move proven optimal, then the continuation known from the position it leads to
    const first = parseLine(g, optimal[0]);
    if (!first.ok) return [];
    const after = before.state.clone();
    after.play(first.line);
    shown = [optimal[0], ...bestContinuation(after, known).map((l) => g.lineName(l))];
  }
  const token = tokenOf(entry, move);
  const number = token?.number != null ? `${token.number}. ` : '';
  const text = ` (${number}${shown.join(' ')})`;
  // after the move's bracket when it is a littlegolem/SGF turn's last move; none inside a bracket
  const field = entry.model.entry.moves;
  const at = token
    ? field
      ? variationEnd(token, field)
      : writtenEnd(token)
    : { line: move.range.endLine, character: move.range.endCharacter };
  if (at === null) return [];
  return [
    {
      title: betterLineTitle(shown),
      kind: CodeActionKind.QuickFix,
      diagnostics: (params.context?.diagnostics ?? []).filter(
        (d) => d.range.start.line === move.range.line && d.range.start.character === move.range.character,
      ),
      edit: { changes: { [params.textDocument.uri]: [{ range: { start: at, end: at }, newText: text }] } },
      data: { uri: params.textDocument.uri, position: { line: pos.line, character: pos.character } } satisfies FixPlace,
    },
  ];
}

/** The reviewed move whose written glyph holds the cursor. */
function glyphMoveAt(entry: EntryReport, line: number, character: number): ReturnType<typeof lineMoveAt> {
  for (const l of allLines(entry.model))
    for (const m of l.moves) {
      const g = m.token?.glyphRange;
      if (g && rangeContains(g, line, character)) return lineMoveAt(entry, m.range.line, m.range.character);
    }
  return undefined;
}

/** The written move a reviewed move came from. */
function tokenOf(entry: EntryReport, move: MoveReport): MoveToken | undefined {
  for (const line of allLines(entry.model)) for (const m of line.moves) if (m.range === move.range) return m.token;
  return undefined;
}
