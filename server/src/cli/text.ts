/** Readable text output of `dab analyze` / `dab check`. */
import type { DocumentReport, EntryReport, PositionReport } from '../engine/analysis/analyzeDocument';
import { valuePhrase } from '../engine/analysis/analyzeDocument';

export interface TextOptions {
  problemsOnly?: boolean;
  maxLoss?: number | null;
}

export function formatText(report: DocumentReport, file: string, options: TextOptions = {}): string {
  const out: string[] = [];
  for (const d of report.diagnostics) {
    if (options.problemsOnly && d.severity === 'hint') continue;
    out.push(`${file}:${d.range.line + 1}:${d.range.character + 1}: ${d.severity}: ${d.message} [${d.code}]`);
  }
  if (options.problemsOnly) {
    let errors = report.diagnostics.filter((d) => d.severity === 'error').length;
    if (options.maxLoss !== null && options.maxLoss !== undefined) {
      for (const e of report.entries)
        for (const m of e.moves) {
          if (m.loss !== null && m.loss > options.maxLoss) {
            errors++;
            out.push(
              `${file}:${m.range.line + 1}:${m.range.character + 1}: error: ${m.move} loses ${m.loss} boxes, more than --max-loss ${options.maxLoss}`,
            );
          }
        }
    }
    out.push(`${file}: ${report.entries.length} entries, ${errors} error${errors === 1 ? '' : 's'}`);
    return out.join('\n') + '\n';
  }
  if (report.diagnostics.length) out.push('');
  for (const e of report.entries) out.push(...formatEntry(e));
  return `== ${file}\n` + out.join('\n') + '\n';
}

function positionLine(p: PositionReport, e: EntryReport): string {
  const who = e.players[p.toMove];
  if (p.method === 'over' && p.remaining === 0) return `game over, ${p.score[0]}-${p.score[1]}`;
  let s =
    p.value !== null
      ? `${who} to move: ${valuePhrase(p, e.players)} (value ${p.value >= 0 ? '+' : ''}${p.value})`
      : `${who} to move: value unknown${p.lower !== null && p.upper !== null ? ` (between ${p.lower} and ${p.upper})` : ''}${p.note ? ` — ${p.note}` : ''}`;
  if (p.endgame && p.endgame.size > 0 && p.endgame.controlledValue !== null && p.endgame.value !== undefined) {
    s += `; ${p.endgame.components}: size ${p.endgame.size}, fully controlled ${p.endgame.controlledValue - p.endgame.terminalBonus!}, tb(G) = ${p.endgame.terminalBonus}, c(G) = ${p.endgame.controlledValue}`;
  }
  if (p.best.length)
    s += `; best: ${p.best.length > 12 ? p.best.slice(0, 12).join(' ') + ` … (${p.best.length})` : p.best.join(' ')}`;
  return s;
}

function formatEntry(e: EntryReport): string[] {
  const out: string[] = [];
  out.push(`${e.kind} ${e.title !== null ? JSON.stringify(e.title) : '(untitled)'} (line ${e.line + 1})`);
  if (e.positions.length === 0) {
    out.push('  not analysed (see the errors above)', '');
    return out;
  }
  out.push(`  start: ${positionLine(e.positions[0], e)}`);
  for (const m of e.moves) {
    const after = e.positions[m.ply];
    const loss =
      m.loss === null
        ? 'loss unknown'
        : m.loss === 0
          ? 'best'
          : `gives away ${m.loss}${m.changesResult ? ' and changes the result' : ''}; best ${m.best.join(' ')}`;
    out.push(
      `  ${String(m.ply).padStart(3)}. ${e.players[m.player]} ${m.move}${m.glyph ?? ''}${m.completes ? ` (+${m.completes})` : ''}: ${loss}`,
    );
    if (after && m.ply === e.moves.length) out.push(`       then ${positionLine(after, e)}`);
  }
  if (e.moves.length) {
    const s = e.summary;
    out.push(
      `  summary: ${e.players[0]} gave away ${s.lost[0]}, ${e.players[1]} gave away ${s.lost[1]}; ${s.resultChanging} result-changing error${s.resultChanging === 1 ? '' : 's'}${s.unknownMoves ? `; ${s.unknownMoves} move${s.unknownMoves === 1 ? '' : 's'} not valued` : ''}`,
    );
  }
  out.push('');
  return out;
}
