/**
 * The `dab/playLine` request: the user clicked an undrawn line on the board. The answer is one text
 * edit the client applies as a single WorkspaceEdit (so the editor's undo takes it back):
 *   - at the end of a record (game, or a position's `moves`): the move is appended;
 *   - a position without `moves`: a `moves` field is added;
 *   - inside a record: a variation `( … )` starts after the move that was played there instead
 *     (clicking the move that was actually played, or the first move of a variation already written
 *     there, just steps to it; no edit);
 *   - "play it out" (reply): the engine's proven best answer follows the user's move, as long as
 *     it is the engine's turn and the answer is proven within a small budget. Nothing unproven is
 *     ever written as a best move: without a proof the reply stops and says why.
 */
import type { PlayLineParams, PlayLineResult } from '../../../shared/protocol';
import type { DocumentReport, PositionReport } from '../engine/analysis/report';
import { provenBestMove, type Evaluation } from '../engine/analysis/evaluation';
import { createSolver, quickEvaluate, searchEvaluate } from '../engine/analysis/evaluatePosition';
import type { BoardState } from '../engine/board/state';
import { hasOpenText, later, variationEnd, writtenEnd, type MoveToken, type Range } from '../engine/notation';
import {
  PLAY_INTO_OPEN_TEXT,
  PLAY_NEEDS_BOARD_ENTRY,
  PLAY_NO_BOARD,
  PLAY_INSIDE_BRACKET,
  PLAY_NO_PROVEN_REPLY,
  drawnAlready,
  notALine,
  playNoSuchPly,
} from '../engine/phrasebook';
import { entryAt, positionAt } from './convert';
import { isVariation, lineAt, positionInLine } from './cursorLine';
import { REPLY_NODE_BUDGET, REPLY_TIME_BUDGET_MS } from '../engine/limits';

type Pos = { line: number; character: number };

const endOf = (r: Range): Pos => ({ line: r.endLine, character: r.endCharacter });

const sameStart = (a: Range, b: Range) => a.line === b.line && a.character === b.character;

/** Where the cursor lands after inserting text at a position. */
function afterText(at: Pos, text: string): Pos {
  const lines = text.split('\n');
  return lines.length === 1
    ? { line: at.line, character: at.character + text.length }
    : { line: at.line + lines.length - 1, character: lines[lines.length - 1].length };
}

export function playLine(
  report: DocumentReport,
  params: PlayLineParams,
  known: (s: BoardState) => Evaluation | undefined = () => undefined,
  /** The document's line (its indentation is copied), '' when not known. */
  lineText: (line: number) => string = () => '',
): PlayLineResult {
  const entry = entryAt(report, params.position.line);
  if (!entry || entry.kind === 'endgame') return { error: PLAY_NEEDS_BOARD_ENTRY };
  if (hasOpenText(entry.model.entry)) return { error: PLAY_INTO_OPEN_TEXT };
  // Inside a variation the click plays on from the variation's position.
  const cursorLine = lineAt(entry, params.position.line, params.position.character);
  const inVariation = isVariation(cursorLine);
  let p: PositionReport | undefined;
  let k: number;
  if (isVariation(cursorLine)) {
    const at = positionInLine(cursorLine, params.position.line, params.position.character);
    p = at.position;
    k = at.index;
  } else {
    const last = entry.positions.length - 1;
    if (params.ply !== undefined && !(Number.isInteger(params.ply) && params.ply >= 0 && params.ply <= last))
      return { error: playNoSuchPly(params.ply, Math.max(0, last)) };
    p =
      params.ply !== undefined
        ? entry.positions[params.ply]
        : positionAt(entry, params.position.line, params.position.character);
    k = p?.ply ?? 0;
  }
  const state = p?.state;
  if (!p || !state) return { error: PLAY_NO_BOARD };
  const g = state.geometry;
  const line = g.allLines().find((l) => g.lineName(l) === params.line);
  if (line === undefined) return { error: notALine(params.line, g.width, g.height) };
  if (state.drawn[line]) return { error: drawnAlready(params.line) };

  const model = entry.model;
  const lineMoves = isVariation(cursorLine) ? cursorLine.moves : entry.moves;
  const tokens = isVariation(cursorLine) ? cursorLine.variation.moves : (model.entry.moves?.moves ?? []);
  const next = lineMoves[k];
  const nextToken = next && tokens.find((t) => sameStart(t.range, next.range));
  if (next && next.move === params.line) {
    // The move that was played: step to it rather than write it twice.
    const cursor = { line: next.range.line, character: next.range.character };
    return inVariation ? { cursor } : { ply: k + 1, cursor };
  }
  // A variation already written from this position that starts with the move: step into it (the
  // cursor on its first move shows the position after it), as for the move played, not a copy of it.
  const branches = next ? next.variations : k === lineMoves.length ? cursorLine.endVariations : [];
  const existing = branches.find((v) => v.moves[0]?.move === params.line);
  if (existing) {
    const first = existing.moves[0].range;
    return { cursor: { line: first.line, character: first.character } };
  }

  const after = state.clone();
  after.play(line);
  const written = [params.line];
  let note: string | undefined;
  if (params.reply) {
    const r = engineReplies(after, state.toMove, known);
    written.push(...r.moves.map((l) => g.lineName(l)));
    note = r.note;
  }

  const field = model.entry.moves;
  let at: Pos;
  let newText: string;
  let cursorAt: (text: string) => Pos;
  // a move from a littlegolem bracket `;b[haevbe]`: text can only go after the bracket's ']'
  const bracket = (t: MoveToken) => (t.turn !== null ? field?.turns[t.turn] : undefined);
  if (next && nextToken) {
    // Inside the line: an alternative to the move played from this position.
    const tok = nextToken;
    const end = field ? variationEnd(tok, field) : writtenEnd(tok);
    if (end === null) return { error: PLAY_INSIDE_BRACKET };
    at = end;
    const num = tok.number !== null ? `${tok.number}. ` : '';
    newText = ` (${num}${written.join(' ')})`;
    cursorAt = () => ({ line: at.line, character: at.character + 2 + num.length });
  } else if (tokens.length) {
    // At the end of the line (the record, or a variation before its ')'): append after the last move,
    // as turn brackets after a bracket (a pasted littlegolem record stays one).
    const last = tokens[tokens.length - 1];
    const turn = bracket(last);
    at = turn ? later(writtenEnd(last), endOf(turn.range)) : writtenEnd(last);
    newText = turn ? turnBrackets(state, written) : ' ' + numbered(written, last.number);
    cursorAt = (t) => afterText(at, t);
  } else if (field) {
    // An empty `moves` (`moves:`, `moves {comment}`): after all it holds.
    at = endOf(field.range);
    newText = ' ' + written.join(' ');
    cursorAt = (t) => afterText(at, t);
  } else {
    // No `moves` yet: add the field under the entry, indented like its first field (tabs as tabs).
    at = endOf(model.entry.range);
    const first = model.entry.fields[0]?.keywordRange;
    const lead = first ? lineText(first.line).slice(0, first.character) : '';
    const indent =
      first && lead.length === first.character && /^[ \t]*$/.test(lead) ? lead : ' '.repeat(first?.character ?? 2);
    newText = `\n${indent}moves ${written.join(' ')}`;
    cursorAt = (t) => afterText(at, t);
  }
  return {
    edit: { range: { start: at, end: at }, newText },
    cursor: cursorAt(newText),
    note,
  };
}

/** The moves as littlegolem turns from `state`: `;b[haa];r[hab]`, a bracket per player's turn. */
function turnBrackets(state: BoardState, moves: string[]): string {
  const s = state.clone();
  const g = s.geometry;
  let text = '';
  let player = -1;
  for (const name of moves) {
    const line = g.allLines().find((l) => g.lineName(l) === name)!;
    if (s.toMove !== player) {
      if (player >= 0) text += ']';
      player = s.toMove;
      text += `;${player === 0 ? 'b' : 'r'}[`;
    }
    text += g.littlegolemCode(line);
    s.play(line);
  }
  return text + ']';
}

/** Numbers moves on from the last written number (`14.` → `15. a1-b1 16. …`), or not at all. */
function numbered(moves: string[], lastNumber: number | null): string {
  if (lastNumber === null) return moves.join(' ');
  return moves.map((m, i) => `${lastNumber + 1 + i}. ${m}`).join(' ');
}

/**
 * The engine's proven best answers while it is the engine's turn (a move that completes a box
 * gives the same side another move). Stops without a proof, saying why.
 */
function engineReplies(
  state: BoardState,
  user: 0 | 1,
  known: (s: BoardState) => Evaluation | undefined,
): { moves: number[]; note?: string } {
  const moves: number[] = [];
  const s = state.clone();
  let solver: ReturnType<typeof createSolver> | undefined;
  while (!s.isOver() && s.toMove !== user) {
    let e = quickEvaluate(s)?.evaluation ?? known(s);
    if (!e || e.status !== 'exact') {
      solver ??= createSolver();
      e = searchEvaluate(solver, s, { nodeBudget: REPLY_NODE_BUDGET, timeBudgetMs: REPLY_TIME_BUDGET_MS });
    }
    const best = provenBestMove(e);
    if (best === undefined) {
      return { moves, note: PLAY_NO_PROVEN_REPLY };
    }
    moves.push(best);
    s.play(best);
  }
  return { moves };
}
