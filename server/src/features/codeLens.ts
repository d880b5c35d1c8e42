/**
 * Code lenses above every analysable position: what to open and who wins, or after an opening
 * whether to keep control; for records, the review in one line. Each lens runs `command` at its
 * place: the client's board view, or the server's text view (features/showPosition.ts).
 */
import type { CodeLens } from 'vscode-languageserver';
import type { DocumentReport } from '../engine/analysis/report';
import { entryLensTitle, playLineTitle, reviewSummary } from '../engine/phrasebook';
import { toLspRange } from './convert';

export function codeLenses(report: DocumentReport, uri: string, command: string): CodeLens[] {
  const lenses: CodeLens[] = [];
  // entries left out by the work bound: a lens on the first only (it says why), not tens of thousands
  let leftOut = 0;
  for (const e of report.entries) {
    if (e.model.leftOut && leftOut++ > 0) continue;
    const header = toLspRange(e.model.entry.headerRange);
    const at = { line: header.start.line, character: header.start.character };
    lenses.push({
      range: header,
      command: { title: entryLensTitle(e), command, arguments: [uri, at] },
    });
    const play = e.model.entry.play;
    if (play && e.moves.length > 0) {
      const r = toLspRange(play.keywordRange);
      lenses.push({
        range: r,
        command: {
          title: playLineTitle(e),
          command,
          arguments: [uri, { line: r.start.line, character: r.start.character }],
        },
      });
    }
    if (e.moves.length > 0 && e.model.entry.moves) {
      const r = toLspRange(e.model.entry.moves.keywordRange);
      lenses.push({
        range: r,
        command: {
          title: `Review: ${reviewSummary(e)}`,
          command,
          arguments: [uri, { line: r.start.line, character: r.start.character }],
        },
      });
    }
  }
  return lenses;
}
