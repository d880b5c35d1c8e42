/** What the search of each record proved, how long it took and what stayed unproven and why (text and JSON). */
import type { DocumentReport } from '../engine/analysis/report';
import { entryName, pliesWords, recordSearchSummary, unprovenReasonWords } from '../engine/phrasebook';
import type { RecordProof } from './search';

/** Consecutive unproven plies with the same reason, as [from, to, reason, resultProven]. */
function groups(
  p: RecordProof,
): { from: number; to: number; reason: RecordProof['unproven'][number]['reason']; resultProven: boolean }[] {
  const out: { from: number; to: number; reason: RecordProof['unproven'][number]['reason']; resultProven: boolean }[] =
    [];
  for (const u of p.unproven) {
    const g = out[out.length - 1];
    if (g && g.to === u.ply - 1 && g.reason === u.reason && g.resultProven === u.resultProven) g.to = u.ply;
    else out.push({ from: u.ply, to: u.ply, reason: u.reason, resultProven: u.resultProven });
  }
  return out;
}

/**
 * The record's proof as the review shows it: the review also takes bounds from the played moves
 * (a position is worth at least the move played from it), so some positions the search left open
 * are exact or have their result proven in the report. Counts and unproven plies follow the report.
 */
export function reconcileProof(p: RecordProof, report: DocumentReport): RecordProof {
  const e = report.entries[p.entry];
  if (!e) return p;
  const at = (ply: number) => e.positions.find((q) => q.ply === ply);
  const unproven = p.unproven
    .filter((u) => at(u.ply)?.exact !== true)
    .map((u) => ({ ...u, resultProven: u.resultProven || (at(u.ply)?.result ?? null) !== null }));
  const exactPlies = e.positions.filter((q) => q.exact).map((q) => q.ply);
  // a variation's first position is the one it branches from, its parent's
  const variationPositions = e.lines.slice(1).flatMap((l) => l.positions.slice(1));
  const resultPlies = e.positions.filter((q) => q.result !== null).map((q) => q.ply);
  return {
    ...p,
    unproven,
    exact: exactPlies.length,
    resultProven: resultPlies.length,
    firstExactPly: exactPlies.length ? Math.min(...exactPlies) : p.firstExactPly,
    firstResultPly: resultPlies.length ? Math.min(...resultPlies) : p.firstResultPly,
    variationPositions: variationPositions.length,
    variationExact: variationPositions.filter((q) => q.exact).length,
    variationResultProven: variationPositions.filter((q) => q.result !== null).length,
  };
}

export function searchSummary(proofs: RecordProof[], report: DocumentReport, positionBudgetMs: number): string {
  const out: string[] = [];
  for (const p of proofs) {
    const e = report.entries[p.entry];
    if (!e || e.kind === 'endgame' || (p.exact === p.positions && p.variationExact === p.variationPositions)) continue;
    out.push(recordSearchSummary(entryName(e.kind, e.title), p, positionBudgetMs));
    for (const g of groups(p))
      out.push(`  ${pliesWords(g.from, g.to)}: ${unprovenReasonWords(g.reason, g.resultProven, positionBudgetMs)}`);
  }
  return out.length ? out.join('\n') + '\n\n' : '';
}

/** The same in JSON, for entries[].search. */
export function searchJson(p: RecordProof, positionBudgetMs: number): Record<string, unknown> {
  // no wall time here: the JSON holds answers, the same on every run (the text says how long it took)
  return {
    recordBudgetMs: p.budgetMs,
    positionBudgetMs,
    positions: p.positions,
    exact: p.exact,
    resultProven: p.resultProven,
    firstExactPly: p.firstExactPly,
    firstResultPly: p.firstResultPly,
    ...(p.variationPositions > 0
      ? {
          variations: {
            positions: p.variationPositions,
            exact: p.variationExact,
            resultProven: p.variationResultProven,
          },
        }
      : {}),
    unproven: groups(p).map((g) => ({
      fromPly: g.from,
      toPly: g.to,
      reason: g.reason,
      resultProven: g.resultProven,
      why: unprovenReasonWords(g.reason, g.resultProven, positionBudgetMs),
    })),
  };
}
