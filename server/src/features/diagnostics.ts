/** Diagnostics: the parser's, the board's (illegal moves) and the analysis' (wrong claims, mistakes). */
import type { Diagnostic } from 'vscode-languageserver';
import type { DocumentReport } from '../engine/analysis/report';
import { toLspRange, toLspSeverity } from './convert';

export function diagnostics(report: DocumentReport): Diagnostic[] {
  return report.diagnostics.map((d) => ({
    range: toLspRange(d.range),
    severity: toLspSeverity(d.severity),
    code: d.code,
    source: 'dab',
    message: d.message,
  }));
}
