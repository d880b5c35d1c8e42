/** Inlay hints: value and controlled value at the end of each analysable entry; optionally after each move. */
import { InlayHintKind, type InlayHint, type Range } from 'vscode-languageserver';
import type { DocumentReport } from '../engine/analysis/report';
import type { DabSettings } from '../settings';
import { moveHint, valueLabel, VALUE_LABEL_TOOLTIP } from '../engine/phrasebook';
import { afterMove } from './convert';
import { allLines, rangeContains, type Range as NotationRange } from '../engine/notation';

export function inlayHints(report: DocumentReport, range: Range, settings: DabSettings): InlayHint[] {
  if (!settings.inlayHints.enabled) return [];
  const hints: InlayHint[] = [];
  // the requested range, to the character (the notation's range test, ends included)
  const requested = {
    line: range.start.line,
    character: range.start.character,
    endLine: range.end.line,
    endCharacter: range.end.character,
  };
  const inRange = (p: { line: number; character: number }) => rangeContains(requested, p.line, p.character);
  for (const e of report.entries) {
    const p = e.positions[0];
    const end = lastContentEnd(e.model.entry);
    if (p && inRange(end)) {
      const label = valueLabel(p);
      hints.push({
        position: end,
        label,
        kind: InlayHintKind.Type,
        paddingLeft: true,
        tooltip: VALUE_LABEL_TOOLTIP,
      });
    }
    if (settings.inlayHints.afterEachMove) {
      // the hint goes after the move's glyph, not between the two (`b1-c1? v +2`, not `b1-c1 v +2?`)
      const glyphOf = new Map<unknown, NotationRange | null>();
      for (const line of allLines(e.model)) for (const m of line.moves) glyphOf.set(m.range, m.token.glyphRange);
      for (const line of e.lines)
        for (const m of line.moves) {
          const end = glyphOf.get(m.range) ?? m.range;
          const position = { line: end.endLine, character: end.endCharacter };
          if (!inRange(position)) continue;
          const after = afterMove(line, m);
          if (!after) continue;
          const { label, tooltip } = moveHint(m.loss, m.lossAtLeast, after.value);
          hints.push({
            position,
            label,
            kind: InlayHintKind.Parameter,
            paddingLeft: true,
            tooltip,
          });
        }
    }
  }
  return hints;
}

/** End of the entry's last field (where a hint reads naturally). */
function lastContentEnd(entry: DocumentReport['entries'][number]['model']['entry']): {
  line: number;
  character: number;
} {
  let best = { line: entry.headerRange.endLine, character: entry.headerRange.endCharacter };
  for (const f of entry.fields) {
    if (f.range.endLine > best.line || (f.range.endLine === best.line && f.range.endCharacter > best.character)) {
      best = { line: f.range.endLine, character: f.range.endCharacter };
    }
  }
  return best;
}
