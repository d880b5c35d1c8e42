/** Readable text output of `dab analyze` / `dab check`. */
import type {
  DocumentReport,
  EntryReport,
  LineReport,
  MoveReport,
  PositionReport,
  VariationReport,
} from '../engine/analysis/report';
import {
  NOT_ANALYSED,
  NOT_ANALYSED_BY_CLI,
  endgameFacts,
  gameOver,
  bestList,
  checkTally,
  entryHeading,
  listAll,
  longChainRule,
  maxLossMessage,
  moveVerdict,
  moverLine,
  nimVerdict,
  provenFacts,
  reviewSummary,
  startLine,
  summaryLine,
  thenLine,
  unknownValue,
  valuePhrase,
  valueWords,
  variationLine,
  variationSummary,
  estimateLabel,
  insteadWords,
  diagnosticLine,
  shownPath,
} from '../engine/phrasebook';
import { estimateStanding, provenLoss } from '../engine/analysis/prove';

export interface TextOptions {
  problemsOnly?: boolean;
  maxLoss?: number | null;
}

export function formatText(report: DocumentReport, file: string, options: TextOptions = {}): string {
  const out: string[] = [];
  for (const d of report.diagnostics) {
    if (options.problemsOnly && d.severity === 'hint') continue;
    out.push(diagnosticLine(file, d));
  }
  if (options.problemsOnly) {
    let errors = report.diagnostics.filter((d) => d.severity === 'error').length;
    if (options.maxLoss !== null && options.maxLoss !== undefined) {
      for (const p of maxLossProblems(report, options.maxLoss)) {
        errors++;
        out.push(`${shownPath(file)}:${p.range.line + 1}:${p.range.character + 1}: error: ${p.message} [max-loss]`);
      }
    }
    const notChecked = report.entries.filter((e) => e.model.leftOut).length;
    out.push(
      `${shownPath(file)}: ${checkTally(report.entries.length, errors, notChecked, report.doc.unreadFrom !== undefined)}`,
    );
    return out.join('\n') + '\n';
  }
  if (report.diagnostics.length) out.push('');
  for (const e of report.entries) for (const line of formatEntry(e)) out.push(line);
  return `== ${shownPath(file)}\n` + out.join('\n') + '\n';
}

/** `more`: the indent of its continuation lines (proven facts, the Nimstring view), under the line's words. */
function positionLine(p: PositionReport, e: EntryReport, more = '         '): string {
  const who = e.players[p.toMove];
  if (p.method === 'over' && p.remaining === 0) return gameOver(p.score, p.unowned);
  let s =
    p.value !== null
      ? `${moverLine(who)}: ${valuePhrase(p, e.players)} (${valueWords(p.value)})`
      : `${moverLine(who)}: ${unknownValue(p)}`;
  const proven = p.value === null ? provenFacts(p, e.players) : '';
  if (proven) s += `\n${more}${proven}`;
  // after the proven facts' sentence a clause starts a sentence of its own (found by an audit: "by at least 2.; keeps")
  const clause = (c: string) => (s = s.endsWith('.') ? `${s} ${c[0].toUpperCase()}${c.slice(1)}` : `${s}; ${c}`);
  if (p.endgame && p.endgame.size > 0 && p.endgame.controlledValue !== null && p.endgame.value !== undefined) {
    clause(`${p.endgame.components}: ${endgameFacts(p.endgame)}`);
  }
  // names of several words (`2 (opened at an end)`) are told apart by commas
  if (p.best.length) clause(bestList(listAll(p.best, 12, p.best.some((b) => b.includes(' ')) ? ', ' : ' ')));
  else if (p.bestSoFar?.length) clause(`${estimateLabel(estimateStanding(p))}: ${p.bestSoFar.join(' ')}`);
  if (p.value === null && p.nim) s += `\n${more}${nimVerdict(p.nim, who, false)} ${longChainRule(p.nim, who)}`;
  return s;
}

function formatEntry(e: EntryReport): string[] {
  const out: string[] = [];
  out.push(entryHeading(e.kind, e.title, e.line));
  if (e.positions.length === 0) {
    out.push(`  ${e.model.leftOut ? NOT_ANALYSED_BY_CLI : NOT_ANALYSED}`, '');
    return out;
  }
  out.push(`  ${startLine(positionLine(e.positions[0], e))}`);
  formatMoves(e, e, '  ', out);
  if (e.moves.length) {
    out.push(`  ${summaryLine(reviewSummary(e))}`);
  }
  out.push('');
  return out;
}

/**
 * The moves of a line, one per row, appended to `out`; each move's variations follow it, indented,
 * in parentheses. Rows are appended one by one (found by an audit: `push(...rows)` of a move with
 * 45,000 variations overflowed the call stack).
 */
function formatMoves(e: EntryReport, line: LineReport, indent: string, out: string[]): void {
  line.moves.forEach((m, k) => {
    const after = line.positions[m.ply - line.startPly];
    const instead = provenLoss(m) > 0 ? insteadWords(m) : '';
    const best = instead ? `; ${instead}` : '';
    const loss = `${moveVerdict(m, e.players)}${best}`;
    out.push(
      `${indent}${String(m.ply).padStart(3)}. ${e.players[m.player]} ${m.move}${m.glyph ?? ''}${m.completes ? ` (+${m.completes})` : ''}: ${loss}`,
    );
    // after the last move, the position it leaves; after another, one whose value is unknown but of
    // which something is proven or found (the middle game of a long record says what it knows)
    if (after && (k === line.moves.length - 1 || (after.value === null && knownOfUnsolved(after, e))))
      out.push(`${indent}     ${thenLine(positionLine(after, e, `${indent}       `))}`);
    formatVariations(e, m.variations, indent, out);
  });
  formatVariations(e, line.endVariations, indent, out);
}

/** An unsolved position of which something is known: proven bounds, who wins the chain fight, a best move found. */
function knownOfUnsolved(p: PositionReport, e: EntryReport): boolean {
  const found = p.nim?.moverWinsChainFight !== undefined || (p.bestSoFar?.length ?? 0) > 0 || p.best.length > 0;
  return found || provenFacts(p, e.players) !== '';
}

/** Variations, indented under what they replace, in parentheses, appended to `out`. */
function formatVariations(e: EntryReport, vs: VariationReport[], indent: string, out: string[]): void {
  for (const v of vs) {
    out.push(`${indent}     ( ${variationLine(variationSummary(v, e.players))}`);
    formatMoves(e, v, indent + '      ', out);
    out.push(`${indent}     )`);
  }
}

/** `dab check --max-loss`: the moves of the main lines over it, where and why (its text and its JSON). */
export function maxLossProblems(
  report: DocumentReport,
  maxLoss: number,
): { range: MoveReport['range']; message: string }[] {
  const out: { range: MoveReport['range']; message: string }[] = [];
  for (const e of report.entries)
    for (const m of e.moves) {
      const over = overMaxLoss(m, maxLoss);
      if (over) out.push({ range: m.range, message: maxLossMessage(m.move, over.loss, maxLoss, over.atLeast) });
    }
  return out;
}

/**
 * `--max-loss`: the move's proven loss when it is more than `maxLoss` (exact, or a proven lower bound:
 * `atLeast`), else null.
 */
export function overMaxLoss(m: MoveReport, maxLoss: number): { loss: number; atLeast: boolean } | null {
  if (m.loss !== null) return m.loss > maxLoss ? { loss: m.loss, atLeast: false } : null;
  return m.lossAtLeast !== null && m.lossAtLeast > maxLoss ? { loss: m.lossAtLeast, atLeast: true } : null;
}
