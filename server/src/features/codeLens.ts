/**
 * Code lenses above every analysable position: what to open and who wins, or after an opening
 * whether to keep control; for records, the review in one line. Each lens opens the board view.
 */
import type { CodeLens } from 'vscode-languageserver';
import type { DocumentReport, EntryReport, PositionReport } from '../engine/analysis/analyzeDocument';
import { componentPhrase, joinOr, roleWinner, toLspRange } from './convert';

export function codeLenses(report: DocumentReport, uri: string): CodeLens[] {
  const lenses: CodeLens[] = [];
  for (const e of report.entries) {
    const header = toLspRange(e.model.entry.headerRange);
    const at = { line: header.start.line, character: header.start.character };
    lenses.push({
      range: header,
      command: { title: entryLensTitle(e), command: 'dab.showBoard', arguments: [uri, at] },
    });
    const play = e.model.entry.play;
    if (play && e.moves.length > 0) {
      const r = toLspRange(play.keywordRange);
      lenses.push({
        range: r,
        command: {
          title: playLensTitle(e),
          command: 'dab.showBoard',
          arguments: [uri, { line: r.start.line, character: r.start.character }],
        },
      });
    }
    if (e.moves.length > 0 && e.model.entry.moves) {
      const s = e.summary;
      const r = toLspRange(e.model.entry.moves.keywordRange);
      lenses.push({
        range: r,
        command: {
          title: `Review: ${e.players[0]} gave away ${s.lost[0]}, ${e.players[1]} ${s.lost[1]} · ${s.resultChanging} result-changing error${s.resultChanging === 1 ? '' : 's'}${s.unknownMoves ? ` · ${e.pending ? 'searching' : 'unknown'}: ${s.unknownMoves} moves` : ''}`,
          command: 'dab.showBoard',
          arguments: [uri, { line: r.start.line, character: r.start.character }],
        },
      });
    }
  }
  return lenses;
}

export function entryLensTitle(e: EntryReport): string {
  const p = e.positions[0];
  if (!p) return 'Not analysed — see the problems';
  return positionAdvice(e, p);
}

/** "Open the 4-loop — the controller wins by 1"; "Keep control — …"; "Best: a1-b1 — Alice wins the rest by 2". */
export function positionAdvice(e: EntryReport, p: PositionReport): string {
  if (p.remaining === 0) return `Game over: ${p.score[0]}-${p.score[1]}`;
  if (p.value === null) {
    if (p.pending) return 'Searching for the exact value…';
    return `Value unknown${p.lower !== null && p.upper !== null && Number.isFinite(p.lower) ? ` (between ${p.lower} and ${p.upper})` : ''}${p.note ? ` — ${p.note}` : ''}`;
  }
  const mover = e.players[p.toMove],
    other = e.players[1 - p.toMove];
  const rest =
    p.value > 0
      ? `${mover} wins the rest by ${p.value}`
      : p.value < 0
        ? `${other} wins the rest by ${-p.value}`
        : 'the rest is a tie';
  // Abstract endgame or loony board position with nothing opened: the player to move is the opener.
  if (
    p.endgame &&
    p.best.length &&
    (e.kind === 'endgame' ? !p.decision && !isDecision(p.best) : p.loony?.phase === 'loony')
  ) {
    const counts = new Map(p.endgame.openings.map((o) => [o.component, o.count]));
    const what =
      e.kind === 'endgame'
        ? joinOr(p.best.map((b) => componentPhrase(b, counts.get(b) ?? 1)))
        : joinOr(p.endgame.best.map((b) => componentPhrase(b, counts.get(b) ?? 1)));
    const v = -p.value;
    return `Open ${what} — ${roleWinner(v)}`;
  }
  if (isDecision(p.best) || p.loony?.controller) {
    const d = p.decision?.best ?? p.loony?.controller?.decision;
    const advice = d === 'keep' ? 'Keep control' : d === 'all' ? 'Take all' : 'Keep control or take all (equal)';
    return `${advice} — ${rest}`;
  }
  return `Best: ${joinOr(p.best.slice(0, 4))}${p.best.length > 4 ? ` (+${p.best.length - 4})` : ''} — ${rest}`;
}

function isDecision(best: string[]): boolean {
  return best.length > 0 && best.every((b) => b === 'keep' || b === 'all');
}

/** "Optimal line of play — final score 7-8" or where the line first throws boxes away. */
function playLensTitle(e: EntryReport): string {
  const last = e.positions[e.positions.length - 1];
  const end =
    last.remaining === 0 ? `final score ${last.score[0]}-${last.score[1]}` : `then ${positionAdvice(e, last)}`;
  const bad = e.moves.filter((m) => (m.loss ?? 0) > 0);
  if (bad.length === 0) return `Optimal line of play — ${end}`;
  const first = bad[0];
  const lost = bad.reduce((a, m) => a + (m.loss ?? 0), 0);
  const what =
    first.move === 'keep' ? 'keeping control' : first.move === 'all' ? 'taking all' : `opening ${first.move}`;
  return `This line throws away ${lost} box${lost === 1 ? '' : 'es'}, first by ${what} (step ${Math.ceil(first.ply / 2)}) — ${end}`;
}
