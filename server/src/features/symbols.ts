/**
 * Document symbols (one per entry, its value as detail; variations nested under it as they are
 * nested in the text) and folding ranges (entries, diagrams, move lists, variations).
 */
import {
  FoldingRangeKind,
  SymbolKind,
  type DocumentSymbol,
  type FoldingRange,
  type SymbolInformation,
} from 'vscode-languageserver';
import type { DocumentReport, EntryReport, VariationReport } from '../engine/analysis/report';
import { allLines, type LineModel, type Variation, type VariationModel } from '../engine/notation';
import { entryLensTitle, variationSummary } from '../engine/phrasebook';
import { toLspRange } from './convert';
import { isVariation } from './cursorLine';

export function documentSymbols(report: DocumentReport): DocumentSymbol[] {
  return report.entries.map((e) => {
    const entry = e.model.entry;
    const range = toLspRange(entry.range);
    const selectionRange = toLspRange(entry.titleRange ?? entry.headerRange);
    return {
      name: `${e.kind} ${e.title !== null ? `"${e.title}"` : '(untitled)'}`,
      detail: entryLensTitle(e),
      kind: e.kind === 'game' ? SymbolKind.Event : e.kind === 'position' ? SymbolKind.Object : SymbolKind.Struct,
      range,
      selectionRange: clampInside(selectionRange, range),
      children: variationSymbols(e, e.model, new Map(e.lines.filter(isVariation).map((v) => [v.variation, v]))),
    };
  });
}

/** What a client says it can show of document symbols (textDocument.documentSymbol capabilities). */
export interface SymbolSupport {
  /** DocumentSymbol with children; else a flat SymbolInformation list. */
  hierarchical: boolean;
  /** The symbol kinds it knows; undefined: File to Array (1-18), as LSP says for a client that names none. */
  kinds?: number[];
}

/** The kinds dab uses beyond File to Array, and the older kind shown instead to a client without them. */
const OLDER_KIND: Partial<Record<SymbolKind, SymbolKind>> = {
  [SymbolKind.Event]: SymbolKind.Module,
  [SymbolKind.Object]: SymbolKind.Class,
  [SymbolKind.Struct]: SymbolKind.Namespace,
};

/**
 * The symbols in the shape and kinds the client declared (found by an audit: a client without
 * hierarchical support got DocumentSymbols, and kinds it does not know).
 */
export function symbolsForClient(
  symbols: DocumentSymbol[],
  uri: string,
  support: SymbolSupport,
): DocumentSymbol[] | SymbolInformation[] {
  const known = (k: SymbolKind) => (support.kinds ? support.kinds.includes(k) : k <= SymbolKind.Array);
  const kind = (k: SymbolKind) => (known(k) ? k : (OLDER_KIND[k] ?? SymbolKind.Array));
  if (support.hierarchical) {
    const fix = (d: DocumentSymbol): DocumentSymbol => ({ ...d, kind: kind(d.kind), children: d.children?.map(fix) });
    return symbols.map(fix);
  }
  const flat: SymbolInformation[] = [];
  const add = (d: DocumentSymbol, container?: string) => {
    flat.push({
      name: d.name,
      kind: kind(d.kind),
      location: { uri, range: d.range },
      ...(container !== undefined ? { containerName: container } : {}),
    });
    for (const c of d.children ?? []) add(c, d.name);
  };
  for (const d of symbols) add(d);
  return flat;
}

/** The variations of a line's moves, each with its own variations as children. */
function variationSymbols(e: EntryReport, line: LineModel, reports: Map<Variation, VariationReport>): DocumentSymbol[] {
  const out: DocumentSymbol[] = [];
  for (const mv of line.moves)
    for (const v of mv.variations) {
      const r = reports.get(v.variation);
      out.push({
        name: variationName(v),
        detail: r ? variationSummary(r, e.players) : undefined,
        kind: SymbolKind.Array,
        range: toLspRange(v.variation.range),
        selectionRange: toLspRange(v.variation.openRange),
        children: variationSymbols(e, v, reports),
      });
    }
  return out;
}

/** "(25. b6-c6 b5-c5 c5-c6 …)": the first moves as written. */
function variationName(v: VariationModel): string {
  const moves = v.variation.moves;
  const number = moves[0].number !== null ? `${moves[0].number}. ` : '';
  const shown = moves.slice(0, 3).map((m) => m.text + (m.glyph ?? ''));
  return `(${number}${shown.join(' ')}${moves.length > 3 ? ' …' : ''})`;
}

function clampInside(sel: DocumentSymbol['range'], outer: DocumentSymbol['range']): DocumentSymbol['range'] {
  const before = (a: { line: number; character: number }, b: { line: number; character: number }) =>
    a.line < b.line || (a.line === b.line && a.character < b.character);
  if (before(sel.start, outer.start) || before(outer.end, sel.end)) return outer;
  return sel;
}

export function foldingRanges(report: DocumentReport): FoldingRange[] {
  const out: FoldingRange[] = [];
  for (const e of report.entries) {
    const r = e.model.entry.range;
    if (r.endLine > r.line) out.push({ startLine: r.line, endLine: r.endLine, kind: FoldingRangeKind.Region });
    for (const f of [e.model.entry.diagram, e.model.entry.moves, e.model.entry.play]) {
      if (f && f.range.endLine > f.range.line) out.push({ startLine: f.range.line, endLine: f.range.endLine });
    }
    for (const line of allLines(e.model)) {
      if (!('variation' in line)) continue;
      const r = (line as VariationModel).variation.range;
      if (r.endLine > r.line) out.push({ startLine: r.line, endLine: r.endLine });
    }
  }
  return out;
}
