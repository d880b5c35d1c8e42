/** What the search of each record proved, how long it took and what stayed unproven and why (text and JSON). */
import type { DocumentReport } from '../engine/analysis/analyzeDocument';
import { seconds, unprovenReasonWords } from '../engine/phrasebook';
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

export function searchSummary(proofs: RecordProof[], report: DocumentReport, positionBudgetMs: number): string {
  const out: string[] = [];
  for (const p of proofs) {
    const e = report.entries[p.entry];
    if (!e || e.kind === 'endgame' || p.exact === p.positions) continue;
    out.push(
      `search of ${e.kind} ${e.title !== null ? JSON.stringify(e.title) : '(untitled)'}: ${seconds(p.ms)} (budget ${seconds(p.budgetMs)} per record, ${seconds(positionBudgetMs)} per position); ` +
        `${p.exact} of ${p.positions} positions exact${p.firstExactPly !== null ? ` (from ply ${p.firstExactPly})` : ''}, ` +
        `${p.resultProven} with the result proven${p.firstResultPly !== null ? ` (from ply ${p.firstResultPly})` : ''}`,
    );
    for (const g of groups(p))
      out.push(
        `  ${g.from === g.to ? `ply ${g.from}` : `plies ${g.from}-${g.to}`}: ${unprovenReasonWords(g.reason, g.resultProven, positionBudgetMs)}`,
      );
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
    unproven: groups(p).map((g) => ({
      fromPly: g.from,
      toPly: g.to,
      reason: g.reason,
      resultProven: g.resultProven,
      why: unprovenReasonWords(g.reason, g.resultProven, positionBudgetMs),
    })),
  };
}
