/** The stable JSON shape of `dab analyze --json` (see the spec and the README). */
import type { DocumentReport, EntryReport, LineReport } from '../engine/analysis/analyzeDocument';

export interface JsonReport {
  file: string;
  diagnostics: {
    severity: string;
    line: number;
    character: number;
    endLine: number;
    endCharacter: number;
    code: string;
    message: string;
  }[];
  entries: Record<string, unknown>[];
}

export function toJson(report: DocumentReport, file: string): JsonReport {
  return {
    file,
    diagnostics: report.diagnostics.map((d) => ({
      severity: d.severity,
      line: d.range.line,
      character: d.range.character,
      endLine: d.range.endLine,
      endCharacter: d.range.endCharacter,
      code: d.code,
      message: d.message,
    })),
    entries: report.entries.map((e) => ({
      kind: e.kind,
      title: e.title,
      line: e.line,
      players: e.players,
      ...lineJson(e, e.kind),
      summary: e.summary,
    })),
  };
}

/** A line's positions and moves; each move nests the variations that replace it (recursively). */
function lineJson(line: LineReport, kind: EntryReport['kind']): Record<string, unknown> {
  return {
    positions: line.positions.map((p) => ({
      ply: p.ply,
      toMove: p.toMove,
      score: p.score,
      remaining: p.remaining,
      value: p.value,
      exact: p.exact,
      ...(p.exact ? {} : { lower: p.lower, upper: p.upper }),
      controlledValue: p.controlledValue,
      best: p.best,
      ...(kind !== 'endgame' ? { nimber: p.nim && p.nim.nimber !== 'unknown' ? p.nim.nimber : null } : {}),
      method: p.method,
      ...(p.endgame && p.endgame.value !== undefined
        ? {
            endgame: {
              components: p.endgame.components,
              size: p.endgame.size,
              value: p.endgame.value,
              fullyControlledValue:
                p.endgame.controlledValue === null ? null : p.endgame.controlledValue - p.endgame.terminalBonus!,
              controlledValue: p.endgame.controlledValue,
              terminalBonus: p.endgame.terminalBonus,
            },
          }
        : {}),
      ...(p.loony ? { components: p.loony.components.map((c) => c.name) } : {}),
      ...(p.decision ? { decision: p.decision } : {}),
      ...(p.moveValues
        ? { moveValues: Object.fromEntries([...p.moveValues].sort((a, b) => (a[0] < b[0] ? -1 : 1))) }
        : {}),
      ...(p.note ? { note: p.note } : {}),
    })),
    moves: line.moves.map((m) => ({
      ply: m.ply,
      move: m.move,
      player: m.player,
      completes: m.completes,
      loss: m.loss,
      best: m.best,
      line: m.range.line,
      character: m.range.character,
      ...(m.glyph ? { glyph: m.glyph } : {}),
      ...(m.changesResult ? { changesResult: true } : {}),
      ...(m.variations.length
        ? {
            variations: m.variations.map((v) => ({
              line: v.variation.range.line,
              character: v.variation.range.character,
              replaces: v.replaces,
              ...lineJson(v, kind),
              summary: v.summary,
            })),
          }
        : {}),
    })),
  };
}
