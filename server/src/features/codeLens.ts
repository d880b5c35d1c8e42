/**
 * Code lenses above every analysable position: what to open and who wins, or after an opening
 * whether to keep control; for records, the review in one line. Each lens opens the board view.
 */
import type { CodeLens } from 'vscode-languageserver';
import type { DocumentReport } from '../engine/analysis/analyzeDocument';
import { entryLensTitle, playLineTitle, reviewSummary } from '../engine/phrasebook';
import { toLspRange } from './convert';

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
          title: playLineTitle(e),
          command: 'dab.showBoard',
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
          command: 'dab.showBoard',
          arguments: [uri, { line: r.start.line, character: r.start.character }],
        },
      });
    }
  }
  return lenses;
}
