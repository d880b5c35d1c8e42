/**
 * The `dab.showPosition` command (workspace/executeCommand), what the code lenses run in editors
 * without dab's board view (every client but dab's VS Code extension, which shows the board
 * itself): the position at a place in the document in words and as a text diagram (the notation's
 * own, docs/notation.md §6), shown as a message and returned.
 */
import type { Position } from 'vscode-languageserver';
import type { DocumentReport } from '../engine/analysis/report';
import { writeDiagram } from '../engine/notation';
import {
  boardValueText,
  captionScore,
  capitalized,
  entryLabel,
  entryLensTitle,
  notAnalysedWords,
  positionLabel,
  shownName,
} from '../engine/phrasebook';
import { entryAt, linePositionAt } from './convert';
import { isVariation } from './cursorLine';

export function showPosition(report: DocumentReport, pos: Position): string | null {
  const entry = entryAt(report, pos.line);
  if (!entry) return null;
  const name = entryLabel(entry.kind, entry.title);
  const { line, position: p } = linePositionAt(entry, pos.line, pos.character);
  if (!p) return `${capitalized(name)}: ${capitalized(notAnalysedWords(entry))}.`;
  if (!p.state) return `${capitalized(name)}: ${entryLensTitle(entry)}`;
  const where = positionLabel(name, p.ply, isVariation(line));
  const diagram = writeDiagram(p.state, entry.model.players).map((r) => (r ? `  ${r}` : ''));
  // the score and the mover, which the diagram cannot show (found by an audit: a box completed
  // before the record, with no owner to write in it, left the score unsaid)
  const names: [string, string] = [shownName(entry.model.players[0]), shownName(entry.model.players[1])];
  return [
    `${capitalized(where)}: ${boardValueText(entry, p)}`,
    `  ${captionScore(names, p.score, names[p.toMove], 0, 0)}`,
    ...diagram,
  ].join('\n');
}
