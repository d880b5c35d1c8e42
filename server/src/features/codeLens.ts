/**
 * Code lenses above every analysable position: what to open and who wins, or after an opening
 * whether to keep control; for records, the review in one line. Each lens opens the board view.
 */
import type { CodeLens } from 'vscode-languageserver';
import type { DocumentReport, EntryReport, PositionReport } from '../engine/analysis/analyze';
import { componentPhrase, joinOr, roleWinner, toLspRange } from './convert';

export function codeLenses(report: DocumentReport, uri: string): CodeLens[] {
  const lenses: CodeLens[] = [];
  for (const e of report.entries) {
    const header = toLspRange(e.model.entry.headerRange);
    const at = { line: header.start.line, character: header.start.character };
    lenses.push({ range: header, command: { title: entryLensTitle(e), command: 'dab.showBoard', arguments: [uri, at] } });
    if (e.moves.length > 0 && e.model.entry.moves) {
      const s = e.summary;
      const r = toLspRange(e.model.entry.moves.keywordRange);
      lenses.push({
        range: r,
        command: {
          title: `Review: ${e.players[0]} gave away ${s.lost[0]}, ${e.players[1]} ${s.lost[1]} · ${s.resultChanging} result-changing error${s.resultChanging === 1 ? '' : 's'}${s.unknownMoves ? ` · ${e.pending ? 'searching' : 'unknown'}: ${s.unknownMoves} moves` : ''}`,
          command: 'dab.showBoard', arguments: [uri, { line: r.start.line, character: r.start.character }],
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
  const mover = e.players[p.toMove], other = e.players[1 - p.toMove];
  const rest = p.value > 0 ? `${mover} wins the rest by ${p.value}` : p.value < 0 ? `${other} wins the rest by ${-p.value}` : 'the rest is a tie';
  // Abstract endgame or loony board position with nothing opened: the player to move is the opener.
  if (p.endgame && p.best.length && (e.kind === 'endgame' ? !p.decision && !isDecision(p.best) : p.loony?.phase === 'loony')) {
    const counts = new Map(p.endgame.openings.map((o) => [o.component, o.count]));
    const what = e.kind === 'endgame'
      ? joinOr(p.best.map((b) => componentPhrase(b, counts.get(b) ?? 1)))
      : joinOr(p.endgame.best.map((b) => componentPhrase(b, counts.get(b) ?? 1)));
    const v = -p.value;
    return `Open ${what} — ${roleWinner(v, other, mover)}`;
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
