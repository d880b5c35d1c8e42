/**
 * The analysis of a whole document: every position of every entry valued (or marked unknown /
 * pending), every move reviewed (boxes thrown away, best moves, result changes) and the
 * diagnostics that follow from it. A pure function of the text and an evaluator, so the server
 * can re-run it cheaply whenever a search result arrives, and the CLI prints the same thing.
 * The report's shapes are in report.ts; board entries are boardLine.ts, abstract endgames
 * endgameEntry.ts, one move's review moveReview.ts, the diagnostics reviewDiagnostics.ts.
 */
import { entryWork, readDab, type DabDocument } from '../notation';
import { notAnalysedHereMessage, shownName } from '../phrasebook';
import { analyzeBoardEntry } from './boardLine';
import { analyzeEndgameEntry } from './endgameEntry';
import { resultFor } from './moveReview';
import { emptyReport, type AnalysisOptions, type DocumentReport } from './report';
import { reviewDiagnostics } from './reviewDiagnostics';

export function analyzeText(text: string, options: AnalysisOptions = {}): DocumentReport {
  return analyzeDocument(readDab(text, { maxWork: options.maxWork }), options);
}

export function analyzeDocument(doc: DabDocument, options: AnalysisOptions = {}): DocumentReport {
  const diagnostics = doc.diagnostics.slice();
  const entries = doc.models.map((model, index) => {
    // left out by readDab's work bound: nothing to analyse (the report says why, through its model)
    if (model.leftOut) return emptyReport(model, index);
    const report =
      model.kind === 'endgame' ? analyzeEndgameEntry(model, index) : analyzeBoardEntry(model, index, options);
    for (const line of report.lines) for (const p of line.positions) p.result = resultFor(p, p.toMove);
    if (options.shownNames) {
      report.players = [shownName(report.players[0]), shownName(report.players[1])];
      if (report.title !== null) report.title = shownName(report.title);
    }
    for (const d of reviewDiagnostics(report, options)) diagnostics.push(d);
    return report;
  });
  const leftOut = doc.models.filter((m) => m.leftOut);
  // entries left out: read but not analysed, then (past the bound's count of entries) not even read
  const firstLeftOut = leftOut.length > 0 ? leftOut[0].entry.headerRange : doc.unreadFrom;
  if (firstLeftOut)
    diagnostics.push({
      severity: 'warning',
      range: firstLeftOut,
      code: 'not-analysed-here',
      message: notAnalysedHereMessage(
        leftOut.length > 0 ? leftOut.length : 1,
        doc.maxWork ?? 0,
        doc.boundBy ?? 'editor',
        // the first entry left out is larger than the bound on its own: splitting the file cannot help
        leftOut.length > 0 && entryWork(leftOut[0].entry) > (doc.maxWork ?? 0),
        doc.unreadFrom !== undefined,
      ),
    });
  diagnostics.sort((a, b) => a.range.line - b.range.line || a.range.character - b.range.character);
  return { doc, entries, diagnostics };
}
