/** The `dab/boardView` request: everything the webview draws for the entry and ply under the cursor. */
import type { BoardView, BoardViewLine, BoardViewParams, DotXY } from '../../../shared/protocol';
import type { DocumentReport, EntryReport, MoveReport, PositionReport } from '../engine/analysis/report';
import { clip } from '../engine/notation/text';
import { boardValueText, lineInWords, shortText, shownName, withoutBidiControls } from '../engine/phrasebook';
import { bestContinuation } from '../engine/analysis/evaluatePosition';
import { provenOptimalMoves } from '../engine/analysis/prove';
import type { Evaluation } from '../engine/analysis/evaluation';
import type { BoardState } from '../engine/board/state';
import type { BoardGeometry } from '../engine/board/geometry';
import { UNCLAIMED } from '../engine/board/state';
import { entryAt, positionAt } from './convert';
import { isVariation, lineAt, moveToPly, positionInLine } from './cursorLine';

function lineOf(g: BoardGeometry, l: number): BoardViewLine {
  const [a, b] = g.lineDots(l);
  return { from: [a.x, a.y], to: [b.x, b.y], name: g.lineName(l) };
}

/** Evaluations already known (search results); used to extend the principal variation. */
export type KnownLookup = (state: BoardState) => Evaluation | undefined;

export function boardView(
  report: DocumentReport,
  params: BoardViewParams,
  known: KnownLookup = () => undefined,
): BoardView | null {
  const entry = entryAt(report, params.position.line);
  if (!entry) return null;
  if (params.ply === undefined) {
    // Inside a variation the board shows the variation's position.
    const line = lineAt(entry, params.position.line, params.position.character);
    if (isVariation(line)) {
      const { index, position } = positionInLine(line, params.position.line, params.position.character);
      // at its start (before its first move) the last move is the one before the move it replaces,
      // in the line it branches from (nested: through the lines around it)
      const last = moveToPly(entry, line, line.startPly + index);
      return position ? { ...viewOf(entry, position, known, last), variation: { replaces: line.replaces } } : null;
    }
  }
  const p =
    params.ply !== undefined
      ? entry.positions[Math.max(0, Math.min(params.ply, entry.positions.length - 1))]
      : positionAt(entry, params.position.line, params.position.character);
  const last = p && p.ply > 0 ? entry.moves[p.ply - 1] : undefined;
  return p ? viewOf(entry, p, known, last) : null;
}

/** A move's comment is sent up to this many characters (a file may hold any length). */
const MAX_COMMENT = 2000;

function viewOf(full: EntryReport, p: PositionReport, known: KnownLookup, last?: MoveReport): BoardView {
  const lastName = last?.move;
  // names and title as the picture shows them (names are repeated in every line's words), cut from
  // what the file says (the picture isolates right-to-left text itself: render/board.ts); inside the
  // sentences made here, isolated (found by an audit: a U+202E in a name reversed the value's words)
  const names = full.model.players;
  const entry: EntryReport = { ...full, players: [shownName(names[0]), shownName(names[1])] };
  const base = {
    entryTitle: shortText(full.model.title ?? ''),
    entryKind: entry.kind,
    entryLine: entry.line,
    players: [shortText(names[0]), shortText(names[1])] as [string, string],
    score: p.score,
    toMove: p.toMove,
    value: p.value,
    ply: p.ply,
    plyCount: entry.moves.length,
    valueText: boardValueText(entry, p),
    // without explicit bidi controls, as names (found by an audit: a U+202E reversed the comment)
    ...(last?.comment ? { lastMoveComment: clip(withoutBidiControls(last.comment), MAX_COMMENT) } : {}),
    moveRanges: entry.moves.map((m) => ({
      line: m.range.line,
      character: m.range.character,
      endLine: m.range.endLine,
      endCharacter: m.range.endCharacter,
    })),
    graph: entry.positions.map((q, i) => ({
      ply: q.ply,
      ...marginForFirst(q),
      mistake: i > 0 && (entry.moves[i - 1]?.loss ?? 0) > 0,
    })),
  };
  const state = p.state;
  const g = state?.geometry;
  if (!state || !g) {
    const components = (p.components ?? []).map((c) => ({ kind: c.kind, size: c.size, boxes: [] as DotXY[] }));
    return { ...base, width: 0, height: 0, drawn: [], boxes: [], components, best: [] };
  }
  const drawn: BoardViewLine[] = [];
  for (let l = 0; l < g.lineCount; l++) if (state.drawn[l]) drawn.push(lineOf(g, l));
  const boxes: BoardView['boxes'] = [];
  for (let b = 0; b < g.boxCount; b++) {
    const o = state.owner[b];
    if (o !== UNCLAIMED) boxes.push({ at: [g.boxX(b), g.boxY(b)], owner: o === 0 || o === 1 ? o : null });
  }
  const components = (p.loony?.components ?? []).map((c) => ({
    kind: c.kind.endsWith('loop') ? ('loop' as const) : ('chain' as const),
    size: c.size,
    boxes: c.boxes.map((b) => [g.boxX(b), g.boxY(b)] as DotXY),
  }));
  const lastLine = lastName === undefined ? undefined : g.allLines().find((l) => g.lineName(l) === lastName);
  const best = entry.kind === 'endgame' ? [] : (p.loony?.best ?? bestLines(entry, p)).map((l) => lineOf(g, l));
  const moves = undrawnMoves(entry, p, g, state);
  return {
    ...base,
    moves,
    solved: p.value !== null && moves.length > 0 && moves.every((m) => m.loss !== null),
    pv: p.value === null ? [] : bestContinuation(state, known, 2 * g.lineCount).map((l) => lineOf(g, l)),
    width: g.width,
    height: g.height,
    drawn,
    lastMove: lastLine !== undefined ? lineOf(g, lastLine) : undefined,
    boxes,
    components,
    best,
    regions: p.nim?.regions
      .filter((r) => r.nimber !== 'unknown')
      .map((r) => ({
        boxes: r.boxes.map((b) => [g.boxX(b), g.boxY(b)] as DotXY),
        nimber: r.nimber as number | 'loony',
      })),
  };
}

/**
 * The predicted final margin for the first player (score so far plus the value of the rest), exact
 * when the value is, and the proven bounds on it otherwise (null when nothing better than the
 * trivial bounds is proven, so the graph draws nothing rather than a band that says nothing).
 */
function marginForFirst(q: PositionReport): {
  valueForFirst: number | null;
  lowerForFirst: number | null;
  upperForFirst: number | null;
} {
  const lead = q.score[0] - q.score[1];
  const forFirst = (v: number) => (q.toMove === 0 ? v : -v) + lead;
  if (q.value !== null) {
    const v = forFirst(q.value);
    return { valueForFirst: v, lowerForFirst: v, upperForFirst: v };
  }
  const lo = q.lower;
  const hi = q.upper;
  if (lo === null || hi === null || !Number.isFinite(lo) || !Number.isFinite(hi)) {
    return { valueForFirst: null, lowerForFirst: null, upperForFirst: null };
  }
  if (lo <= -q.remaining && hi >= q.remaining) return { valueForFirst: null, lowerForFirst: null, upperForFirst: null };
  const a = forFirst(lo);
  const b = forFirst(hi);
  return { valueForFirst: null, lowerForFirst: Math.min(a, b), upperForFirst: Math.max(a, b) };
}

/** Every undrawn line with what playing it means (its value for the mover, the boxes it throws away). */
function undrawnMoves(
  entry: EntryReport,
  p: PositionReport,
  g: BoardGeometry,
  state: BoardState,
): NonNullable<BoardView['moves']> {
  if (state.isOver()) return [];
  const mover = entry.players[p.toMove];
  const other = entry.players[1 - p.toMove];
  const out: NonNullable<BoardView['moves']> = [];
  for (let l = 0; l < g.lineCount; l++) {
    if (state.drawn[l]) continue;
    const name = g.lineName(l);
    const after = p.moveValues?.get(name);
    const value = after === undefined ? null : after;
    const loss = value !== null && p.value !== null ? p.value - value : null;
    out.push({ line: lineOf(g, l), loss, text: lineInWords(name, value, loss, mover, other) });
  }
  return out;
}

function bestLines(entry: EntryReport, p: PositionReport): number[] {
  const g = p.state!.geometry;
  const names = new Set(p.best.length ? p.best : provenOptimalMoves(p));
  return g.allLines().filter((l) => names.has(g.lineName(l)));
}
