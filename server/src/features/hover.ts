/** Hover: the value in words of the entry, component list, move or play step under the cursor. */
import type { Hover, Position } from 'vscode-languageserver';
import { rangeContains } from '../engine/notation';
import type { DocumentReport, EntryReport, MoveReport, PositionReport } from '../engine/analysis/analyzeDocument';
import { valuePhrase } from '../engine/analysis/analyzeDocument';
import { boxes } from '../engine/analysis/words';
import { componentWords, entryAt, escapeMarkdown, moveAt, positionAt, signed, toLspRange } from './convert';

export function hover(report: DocumentReport, pos: Position): Hover | null {
  const entry = entryAt(report, pos.line);
  if (!entry) return null;
  const md: string[] = [];
  const title = entry.title !== null ? ` "${escapeMarkdown(entry.title)}"` : '';
  const move = moveAt(entry, pos.line, pos.character);
  const comps = entry.model.entry.components;
  if (move) {
    md.push(moveSummary(entry, move));
    md.push('', '---', '', `**After ${escapeMarkdown(move.move)}:**`, '');
    md.push(...positionLines(entry, entry.positions[move.ply]));
    return { contents: { kind: 'markdown', value: md.join('\n') }, range: toLspRange(move.range) };
  }
  if (comps && rangeContains(comps.range, pos.line, pos.character)) {
    md.push(`**${entry.kind}${title}: ${escapeMarkdown(entry.positions[0]?.endgame?.components ?? '')}**`, '');
    md.push(...positionLines(entry, entry.positions[0]));
    md.push(...openingTable(entry.positions[0]));
    return { contents: { kind: 'markdown', value: md.join('\n') }, range: toLspRange(comps.range) };
  }
  const p = positionAt(entry, pos.line, pos.character);
  md.push(`**${entry.kind}${title}**${p && p.ply > 0 ? ` — after move ${p.ply}` : ''}`, '');
  if (!p) md.push('Not analysed: see the problems in this entry.');
  else {
    md.push(...positionLines(entry, p));
    if (entry.kind === 'endgame' && p.ply === 0) md.push(...openingTable(p));
  }
  if (entry.moves.length > 0) {
    const s = entry.summary;
    md.push(
      '',
      `Review: ${escapeMarkdown(entry.players[0])} gave away ${boxes(s.lost[0])}, ${escapeMarkdown(entry.players[1])} ${boxes(s.lost[1])}; ${s.resultChanging} result-changing error${s.resultChanging === 1 ? '' : 's'}${s.unknownMoves ? ` (${s.unknownMoves} moves not valued yet)` : ''}.`,
    );
  }
  return { contents: { kind: 'markdown', value: md.join('\n') } };
}

function moveSummary(entry: EntryReport, m: MoveReport): string {
  const who = escapeMarkdown(entry.players[m.player]);
  const head = `**${m.ply}. ${who}: ${escapeMarkdown(m.move)}${m.glyph ? escapeMarkdown(m.glyph) : ''}**${m.completes ? ` (completes ${boxes(m.completes)})` : ''}`;
  let verdict: string;
  if (m.loss === null) verdict = 'not valued yet (search pending or beyond the budget)';
  else if (m.loss === 0) verdict = 'an optimal move';
  else verdict = `gives away ${boxes(m.loss)}${m.changesResult ? ' and changes the result' : ''}`;
  const best = m.best.length ? ` Best: ${m.best.map(escapeMarkdown).join(', ')}.` : '';
  return `${head} — ${verdict}.${m.loss ? best : ''}`;
}

/** The position in words: who wins the rest by how much, the predicted final score, c(G), tb(G), size, best. */
export function positionLines(entry: EntryReport, p: PositionReport | undefined): string[] {
  if (!p) return ['Not analysed.'];
  const out: string[] = [];
  const who = escapeMarkdown(entry.players[p.toMove]);
  if (p.remaining === 0) {
    out.push(`Game over: ${p.score[0]}-${p.score[1]}.`);
    return out;
  }
  if (p.value !== null) {
    out.push(`${who} to move: ${escapeMarkdown(valuePhrase(p, entry.players))}.`);
    out.push(
      '',
      `Value ${signed(p.value)} for ${who}${p.controlledValue !== null ? ` · controlled value ${signed(p.controlledValue)}` : ''} · ${p.remaining} boxes left · score ${p.score[0]}-${p.score[1]}`,
    );
  } else if (p.pending) {
    out.push(`${who} to move: searching… (value between ${signed(p.lower)} and ${signed(p.upper)})`);
  } else {
    out.push(
      `${who} to move: value unknown${p.lower !== null && p.upper !== null && Number.isFinite(p.lower) ? ` — between ${signed(p.lower)} and ${signed(p.upper)}` : ''}${p.note ? ` (${escapeMarkdown(p.note)})` : ''}.`,
    );
  }
  const eg = p.endgame;
  if (eg && eg.size > 0 && eg.value !== undefined) {
    const facts = [`size(G) = ${eg.size}`];
    if (eg.controlledValue !== null) {
      facts.push(
        `fully controlled value ${eg.controlledValue - eg.terminalBonus!}`,
        `tb(G) = ${eg.terminalBonus}`,
        `c(G) = ${eg.controlledValue}`,
      );
    }
    facts.push(`v(G) = ${eg.value}`);
    out.push('', `Endgame ${escapeMarkdown(eg.components)}: ${facts.join(' · ')} (controller's margins)`);
  }
  if (p.loony?.components.length) {
    out.push('', `Components: ${p.loony.components.map((c) => escapeMarkdown(c.name)).join(', ')}`);
  }
  if (p.decision) {
    const d = p.decision;
    out.push(
      '',
      `Keep control: ${d.keep === null ? 'not possible' : signed(d.keep)} · take all: ${signed(d.all)} → ${d.best === 'either' ? 'either is optimal' : d.best === 'keep' ? 'keep control' : 'take all'}`,
    );
  }
  if (p.state && p.moveValues && p.moveValues.size > 1) out.push('', ...moveValueLines(p));
  if (p.nim) out.push('', ...nimLines(entry, p));
  if (p.best.length) {
    const shown = p.best
      .slice(0, 16)
      .map((b) => `\`${escapeMarkdown(b)}\``)
      .join(', ');
    out.push('', `Best: ${shown}${p.best.length > 16 ? ` and ${p.best.length - 16} more` : ''}`);
  }
  return out;
}

function openingTable(p: PositionReport | undefined): string[] {
  const eg = p?.endgame;
  if (!eg || eg.value === undefined || eg.openings.length === 0) return [];
  const rows = ['', '| open | v(G;C) | controller | |', '|---|---|---|---|'];
  for (const o of eg.openings) {
    rows.push(
      `| ${componentWords(o.component)} | ${o.valueAfter ?? '?'} | ${o.decision ?? '?'} | ${o.optimal ? 'optimal' : ''} |`,
    );
  }
  return rows;
}

function nimText(v: number | 'loony' | 'unknown'): string {
  return v === 'loony' ? 'loony' : v === 'unknown' ? 'unknown' : v === 0 ? '0' : `*${v}`;
}

/** Nimstring: value, regions, chain fight, long chain rule (the fallback truth when the value is unknown). */
function nimLines(entry: EntryReport, p: PositionReport): string[] {
  const n = p.nim!;
  const who = escapeMarkdown(entry.players[p.toMove]);
  const fight =
    n.nimber === 'unknown'
      ? 'the chain fight is not solved within the budget'
      : n.nimber === 0
        ? `${who} loses the chain fight (nim-value 0)`
        : n.nimber === 'loony'
          ? `${who} wins the chain fight (the last move was loony)`
          : `${who} wins the chain fight`;
  const regions =
    n.regions.length > 1
      ? ` = ${n.regions.map((r) => nimText(r.nimber)).join(' ⊕ ')} over ${n.regions.length} regions`
      : '';
  const out = [
    `Nimstring${p.value === null ? ' (fallback: the exact value is unknown)' : ''}: ${nimText(n.nimber)}${regions} — ${fight}.`,
  ];
  out.push(
    '',
    `Long chains now: ${n.longChains}${n.loops ? `, loops: ${n.loops}` : ''}; the long chain rule asks ${who} for an ${n.wantsLongChains} number (${n.currentFavoursPlayerToMove ? 'met now' : 'not met now'}).`,
  );
  if (n.winningMoves && n.winningMoves.length && p.state) {
    const g = p.state.geometry;
    const names = n.winningMoves.map((l) => `\`${g.lineName(l)}\``);
    out.push(
      '',
      `Moves that win the chain fight: ${names.slice(0, 12).join(', ')}${names.length > 12 ? ` and ${names.length - 12} more` : ''}`,
    );
  }
  return out;
}

/** Every legal move grouped by its value for the player to move, best first (like Wilson's analyser). */
function moveValueLines(p: PositionReport): string[] {
  const groups = new Map<string, string[]>();
  for (const [name, v] of p.moveValues!) {
    const k = v === null ? '?' : String(v);
    if (!groups.has(k)) groups.set(k, []);
    groups.get(k)!.push(name);
  }
  const keys = [...groups.keys()].sort((a, b) => (a === '?' ? 1 : b === '?' ? -1 : Number(b) - Number(a)));
  const rows = keys.map((k) => {
    const names = groups.get(k)!.sort();
    const shown = names
      .slice(0, 10)
      .map((n) => `\`${n}\``)
      .join(' ');
    return `- ${k === '?' ? 'unknown' : signed(Number(k))}: ${shown}${names.length > 10 ? ` … (${names.length})` : ''}`;
  });
  return ['Every move, by its value for the player to move:', '', ...rows];
}
