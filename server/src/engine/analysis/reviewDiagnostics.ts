/**
 * The diagnostics that come from values: a wrong `value` claim, moves that throw boxes away (those
 * that change the result apart), an endgame's play left out, and glyphs that contradict the loss.
 */
import type { Diagnostic } from '../notation';
import {
  glyphMessage,
  mistakeMessage,
  playNotAnalysedMessage,
  valueUncheckedMessage,
  wrongValueBoundsMessage,
  wrongValueMessage,
} from '../phrasebook';
import type { AnalysisOptions, EntryReport } from './report';

export function reviewDiagnostics(report: EntryReport, options: AnalysisOptions): Diagnostic[] {
  const out: Diagnostic[] = [];
  if (report.playLeftOut)
    out.push({
      severity: 'warning',
      range: report.playLeftOut.range,
      code: 'play-not-analysed',
      message: playNotAnalysedMessage(report.playLeftOut.steps, report.model.endgame?.components.length ?? 0),
    });
  const minLoss = options.minLoss ?? 1;
  const claim = report.model.claimedValue;
  const start = report.positions[0];
  if (claim && start) {
    // without the value, what every value has (its parity, at most the boxes left) and the proven bounds
    const lower = Math.max(-start.remaining, start.lower ?? -Infinity),
      upper = Math.min(start.remaining, start.upper ?? Infinity);
    const ruledOut =
      start.value === null &&
      (claim.value < lower || claim.value > upper || Math.abs(claim.value - start.remaining) % 2 === 1);
    if (start.value !== null && start.exact && claim.value !== start.value) {
      out.push({
        severity: 'error',
        range: claim.range,
        code: 'wrong-value',
        message: wrongValueMessage(claim.value, start, report.players),
      });
    } else if (ruledOut) {
      out.push({
        severity: 'error',
        range: claim.range,
        code: 'wrong-value',
        message: wrongValueBoundsMessage(claim.value, start, lower, upper, report.players),
      });
    } else if (start.value === null && !start.pending) {
      out.push({
        severity: 'information',
        range: claim.range,
        code: 'value-unverified',
        message: valueUncheckedMessage(claim.value, start.note),
      });
    }
  }
  for (const m of report.lines.flatMap((l) => l.moves)) {
    // only what is proven: the exact loss, or a proven lower bound on it
    const proven = m.loss ?? m.lossAtLeast;
    if (proven !== null && proven >= minLoss) {
      out.push({
        severity: m.changesResult
          ? (options.resultChangeSeverity ?? 'warning')
          : (options.lossSeverity ?? 'information'),
        range: m.range,
        code: m.changesResult ? 'result-changing-mistake' : 'mistake',
        message: mistakeMessage(report.kind, m, report.players),
      });
    }
    const glyph = m.glyph && m.loss !== null ? glyphMessage(m.glyph, m.loss) : undefined;
    if (glyph) out.push({ severity: 'hint', range: m.range, code: 'glyph', message: glyph });
  }
  return out;
}
