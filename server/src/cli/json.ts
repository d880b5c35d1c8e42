/** The stable JSON shape of `dab analyze --json` and `dab check --json` (see the spec and the README). */
import type { DocumentReport, EntryReport, LineReport, VariationReport } from '../engine/analysis/report';
import { NIM_VIEW_LABEL, estimateLabel } from '../engine/phrasebook';
import { estimateStanding } from '../engine/analysis/prove';
import type { RecordProof } from './search';
import { searchJson } from './summary';
import { maxLossProblems } from './text';

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

/**
 * The JSON of a file the CLI refused to read (too large, not a regular file, unreadable): no
 * entries and one error, code `unreadable`, at its start, saying why; so that a --json document
 * always holds every file named, as the exit status counts them (found by an audit: such a file
 * left no trace, and a run of that file alone printed nothing at all).
 */
export function unreadableJson(file: string, why: string): JsonReport {
  return {
    file,
    diagnostics: [
      { severity: 'error', line: 0, character: 0, endLine: 0, endCharacter: 0, code: 'unreadable', message: why },
    ],
    entries: [],
  };
}

export function toJson(
  report: DocumentReport,
  file: string,
  proofs: RecordProof[] = [],
  positionBudgetMs = 0,
  /** `dab check --max-loss N`: each move over it is one more diagnostic (an error, code max-loss), as in its text. */
  maxLoss: number | null = null,
): JsonReport {
  const overMaxLoss = maxLoss === null ? [] : maxLossProblems(report, maxLoss);
  // by entry (found by an audit: a find per entry took 300,000 entries to minutes)
  const proofOf = new Map(proofs.map((p) => [p.entry, p]));
  return {
    file,
    diagnostics: [
      ...report.diagnostics.map((d) => ({ severity: d.severity, range: d.range, code: d.code, message: d.message })),
      ...overMaxLoss.map((p) => ({ severity: 'error', range: p.range, code: 'max-loss', message: p.message })),
    ].map((d) => ({
      severity: d.severity,
      line: d.range.line,
      character: d.range.character,
      endLine: d.range.endLine,
      endCharacter: d.range.endCharacter,
      code: d.code,
      message: d.message,
    })),
    entries: report.entries.map((e, index) => {
      const proof = e.kind !== 'endgame' ? proofOf.get(index) : undefined;
      return {
        kind: e.kind,
        title: e.title,
        line: e.line,
        players: e.players,
        ...lineJson(e, e.kind),
        summary: e.summary,
        ...(proof ? { search: searchJson(proof, positionBudgetMs) } : {}),
      };
    }),
  };
}

/**
 * A line's positions and moves; each move nests the variations that replace it (recursively), and
 * `endVariations` holds those from the line's last position.
 */
function lineJson(line: LineReport, kind: EntryReport['kind']): Record<string, unknown> {
  return {
    positions: line.positions.map((p) => ({
      ply: p.ply,
      toMove: p.toMove,
      score: p.score,
      ...(p.unowned ? { unowned: p.unowned } : {}),
      remaining: p.remaining,
      value: p.value,
      exact: p.exact,
      ...(p.exact ? {} : { lower: p.lower, upper: p.upper }),
      controlledValue: p.controlledValue,
      best: p.best,
      ...(kind !== 'endgame' ? { nimber: p.nim && p.nim.nimber !== 'unknown' ? p.nim.nimber : null } : {}),
      result: p.result,
      ...(p.bestSoFar?.length
        ? {
            bestSoFar: {
              moves: p.bestSoFar,
              label: estimateLabel(estimateStanding(p)),
              // proven: the move is worth at least this to the player to move (net boxes of the rest)
              ...(p.bestSoFarLower !== undefined ? { provenAtLeast: p.bestSoFarLower } : {}),
            },
          }
        : {}),
      ...(p.nim && p.value === null && p.state
        ? {
            nim: {
              label: NIM_VIEW_LABEL,
              nimber: p.nim.nimber,
              moverWinsChainFight: p.nim.moverWinsChainFight ?? null,
              longChains: p.nim.longChains,
              loops: p.nim.loops,
              wantsLongChains: p.nim.wantsLongChains,
              currentFavoursPlayerToMove: p.nim.currentFavoursPlayerToMove,
              ...(p.nim.winningMoves
                ? { winningMoves: p.nim.winningMoves.map((l) => p.state!.geometry.lineName(l)) }
                : {}),
            },
          }
        : {}),
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
      ...(m.loss === null && m.lossAtLeast !== null ? { lossAtLeast: m.lossAtLeast, lossAtMost: m.lossAtMost } : {}),
      resultBefore: m.resultBefore,
      resultAfter: m.resultAfter,
      best: m.best,
      ...(m.provenInstead ? { provenInstead: m.provenInstead } : {}),
      line: m.range.line,
      character: m.range.character,
      ...(m.glyph ? { glyph: m.glyph } : {}),
      ...(m.changesResult ? { changesResult: true } : {}),
      ...(m.variations.length ? { variations: variationsJson(m.variations, kind) } : {}),
    })),
    ...(line.endVariations.length ? { endVariations: variationsJson(line.endVariations, kind) } : {}),
  };
}

/** Variations, each with where it is written, the ply it replaces and its own line. */
function variationsJson(vs: VariationReport[], kind: EntryReport['kind']): Record<string, unknown>[] {
  return vs.map((v) => ({
    line: v.variation.range.line,
    character: v.variation.range.character,
    replaces: v.replaces,
    ...lineJson(v, kind),
    summary: v.summary,
  }));
}
