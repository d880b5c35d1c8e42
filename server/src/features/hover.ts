/**
 * Hover: the value in words of the entry, component list, move (with its comment) or play step under the cursor. The
 * sentences come from the phrasebook (server/src/engine/phrasebook); this module lays them out in
 * Markdown and escapes the text that comes from the file.
 */
import type { Hover, Position } from 'vscode-languageserver';
import { rangeContains } from '../engine/notation';
import { clip } from '../engine/notation/text';
import type { DocumentReport, EntryReport, MoveReport, PositionReport } from '../engine/analysis/report';
import {
  MOVES_BY_VALUE,
  OPENING_TABLE_HEADER,
  OPTIMAL_OPENING,
  afterMoveHeading,
  afterMoveWords,
  componentsLine,
  endgameLine,
  inVariation,
  moveCommentLine,
  moveValueGroupLabel,
  moverLine,
  reviewLine,
  notAnalysedWords,
  bestMovesLine,
  bestSoFarLine,
  provenFacts,
  capitalized,
  completesWords,
  componentWords,
  decisionLine,
  endgameFacts,
  gameOver,
  listAll,
  longChainRule,
  moveVerdict,
  nimVerdict,
  nimWinningMoves,
  reviewSummary,
  unknownValue,
  valueFacts,
  valuePhrase,
  variationSummary,
  insteadWords,
} from '../engine/phrasebook';
import { estimateStanding, provenLoss } from '../engine/analysis/prove';
import { afterMove, entryAt, escapeMarkdown, lineMoveAt, linePositionAt, toLspRange } from './convert';
import { isVariation } from './cursorLine';

/** A move's comment is shown up to this many characters (a file may hold any length). */
const MAX_HOVER_COMMENT = 2000;

export function hover(report: DocumentReport, pos: Position): Hover | null {
  const entry = entryAt(report, pos.line);
  if (!entry) return null;
  const md: string[] = [];
  const title = entry.title !== null ? ` "${escapeMarkdown(entry.title)}"` : '';
  const at = lineMoveAt(entry, pos.line, pos.character);
  const comps = entry.model.entry.components;
  if (at) {
    const { line, move } = at;
    md.push(moveSummary(entry, move));
    if (move.comment) md.push('', moveCommentLine(escapeMarkdown(clip(move.comment, MAX_HOVER_COMMENT))));
    if (isVariation(line)) md.push('', inVariation(escapeMarkdown(variationSummary(line, entry.players))));
    md.push('', '---', '', `**${afterMoveHeading(escapeMarkdown(move.move))}**`, '');
    md.push(...positionLines(entry, afterMove(line, move)));
    return { contents: { kind: 'markdown', value: md.join('\n') }, range: toLspRange(move.range) };
  }
  if (comps && rangeContains(comps.range, pos.line, pos.character)) {
    // no components read: no ': ' before the closing ** (`**x: **` is not bold in Markdown)
    const components = entry.positions[0]?.endgame?.components;
    md.push(`**${entry.kind}${title}${components ? `: ${escapeMarkdown(components)}` : ''}**`, '');
    md.push(...positionLines(entry, entry.positions[0]));
    md.push(...openingTable(entry.positions[0]));
    return { contents: { kind: 'markdown', value: md.join('\n') }, range: toLspRange(comps.range) };
  }
  const { line, position: p } = linePositionAt(entry, pos.line, pos.character);
  md.push(`**${entry.kind}${title}**${p && p.ply > 0 ? ` — ${afterMoveWords(p.ply)}` : ''}`, '');
  if (isVariation(line)) md.push(inVariation(escapeMarkdown(variationSummary(line, entry.players))), '');
  if (!p) md.push(`${escapeMarkdown(capitalized(notAnalysedWords(entry)))}.`);
  else {
    md.push(...positionLines(entry, p));
    if (entry.kind === 'endgame' && p.ply === 0) md.push(...openingTable(p));
  }
  if (entry.moves.length > 0) md.push('', reviewLine(escapeMarkdown(reviewSummary(entry))));
  return { contents: { kind: 'markdown', value: md.join('\n') } };
}

function moveSummary(entry: EntryReport, m: MoveReport): string {
  const who = escapeMarkdown(entry.players[m.player]);
  const head = `**${m.ply}. ${who}: ${escapeMarkdown(m.move)}${m.glyph ? escapeMarkdown(m.glyph) : ''}**${m.completes ? ` (${completesWords(m.completes)})` : ''}`;
  const instead = provenLoss(m) > 0 ? insteadWords(m, escapeMarkdown) : '';
  const best = instead ? ` ${capitalized(instead)}.` : '';
  return `${head} — ${moveVerdict(m, [escapeMarkdown(entry.players[0]), escapeMarkdown(entry.players[1])])}.${best}`;
}

/** The position in words: who wins the rest by how much, the predicted final score, c(G), tb(G), size, best. */
export function positionLines(entry: EntryReport, p: PositionReport | undefined): string[] {
  if (!p) return [`${escapeMarkdown(capitalized(notAnalysedWords(entry)))}.`];
  const out: string[] = [];
  const who = escapeMarkdown(entry.players[p.toMove]);
  if (p.remaining === 0) {
    out.push(`${capitalized(gameOver(p.score, p.unowned))}.`);
    return out;
  }
  if (p.value !== null) {
    out.push(`${moverLine(who)}: ${escapeMarkdown(valuePhrase(p, entry.players))}.`);
    out.push('', escapeMarkdown(valueFacts(p, entry.players[p.toMove])));
  } else {
    out.push(`${moverLine(who)}: ${escapeMarkdown(unknownValue(p))}.`);
    const proven = provenFacts(p, entry.players);
    if (proven) out.push('', escapeMarkdown(proven));
  }
  const eg = p.endgame;
  if (eg && eg.size > 0 && eg.value !== undefined) {
    out.push('', endgameLine(escapeMarkdown(eg.components), endgameFacts(eg)));
  }
  if (p.loony?.components.length) {
    out.push('', componentsLine(escapeMarkdown(listAll(p.loony.components.map((c) => c.name)))));
  }
  if (p.decision) out.push('', decisionLine(p.decision));
  if (p.state && p.moveValues && p.moveValues.size > 1) out.push('', ...moveValueLines(p));
  if (p.nim) out.push('', ...nimLines(entry, p));
  if (p.best.length)
    out.push(
      '',
      bestMovesLine(p.best, 16, (b) => `\`${escapeMarkdown(b)}\``),
    );
  else if (p.bestSoFar?.length)
    out.push(
      '',
      bestSoFarLine(p.bestSoFar, (b) => `\`${escapeMarkdown(b)}\``, estimateStanding(p)),
    );
  return out;
}

function openingTable(p: PositionReport | undefined): string[] {
  const eg = p?.endgame;
  if (!eg || eg.value === undefined || eg.openings.length === 0) return [];
  const rows = ['', OPENING_TABLE_HEADER, '|---|---|---|---|'];
  for (const o of eg.openings) {
    rows.push(
      `| ${componentWords(o.component)} | ${o.valueAfter ?? '?'} | ${o.decision ?? '?'} | ${o.optimal ? OPTIMAL_OPENING : ''} |`,
    );
  }
  return rows;
}

/** Nimstring: value, regions, chain fight, long chain rule (the fallback truth when the value is unknown). */
function nimLines(entry: EntryReport, p: PositionReport): string[] {
  const n = p.nim!;
  const who = entry.players[p.toMove];
  const out = [escapeMarkdown(nimVerdict(n, who, p.value !== null)), '', escapeMarkdown(longChainRule(n, who))];
  if (n.winningMoves && n.winningMoves.length && p.state) {
    const g = p.state.geometry;
    out.push(
      '',
      nimWinningMoves(
        n.winningMoves.map((l) => `\`${g.lineName(l)}\``),
        12,
      ),
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
    const shown = listAll(
      names.map((n) => `\`${n}\``),
      10,
      ' ',
    );
    return `- ${moveValueGroupLabel(k === '?' ? null : Number(k))}: ${shown}`;
  });
  return [MOVES_BY_VALUE, '', ...rows];
}
