/**
 * One analysis per open document and version. Parsing and the exact closed-form analysis run on
 * the main thread (they are fast); board search goes to the SearchService, and every finished
 * search re-runs the cheap analysis of the documents that wanted it.
 */
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { analyzeDocument, type DocumentReport } from './engine/analysis/analyzeDocument';
import { readDab, type DabDocument } from './engine/notation';
import type { SearchService } from './search/searchService';
import type { DabSettings } from './settings';
import type { BoardState } from './engine/board/state';
import { nimSummary, type NimSummary } from './engine/analysis/nim';

/** Nimstring of positions that need no search (loony endgames): cheap, so on the main thread, memoized. */
const QUICK_NIM_BUDGET = 5_000;
const nimMemo = new Map<string, NimSummary>();
function quickNim(state: BoardState): NimSummary {
  const key = state.key();
  let n = nimMemo.get(key);
  if (!n) {
    n = nimSummary(state, QUICK_NIM_BUDGET);
    if (nimMemo.size > 20_000) nimMemo.clear();
    nimMemo.set(key, n);
  }
  return n;
}

interface Cached {
  version: number;
  doc: DabDocument;
  report: DocumentReport;
  /** Bumped whenever the report changes without a new text version (search results). */
  generation: number;
}

export class AnalysisStore {
  private readonly cache = new Map<string, Cached>();

  constructor(
    private readonly search: SearchService,
    private settings: () => DabSettings,
  ) {}

  /** The current analysis of a document (computed now if the text changed). */
  get(document: TextDocument): DocumentReport {
    const c = this.cache.get(document.uri);
    if (c && c.version === document.version) return c.report;
    return this.analyze(document.uri, document.version, readDab(document.getText()), (c?.generation ?? 0) + 1).report;
  }

  /** Re-run the analysis over the same parse (after search results arrived). */
  refresh(uri: string): DocumentReport | undefined {
    const c = this.cache.get(uri);
    if (!c) return undefined;
    return this.analyze(uri, c.version, c.doc, c.generation + 1).report;
  }

  generation(uri: string): number {
    return this.cache.get(uri)?.generation ?? 0;
  }

  uris(): string[] {
    return [...this.cache.keys()];
  }

  close(uri: string): void {
    this.cache.delete(uri);
    this.search.forgetOwner(uri);
  }

  private analyze(uri: string, version: number, doc: DabDocument, generation: number): Cached {
    const s = this.settings();
    this.search.beginOwner(uri);
    const report = analyzeDocument(doc, {
      search: (state) => this.search.lookup(state, uri),
      nim: (state) => quickNim(state),
      minLoss: s.diagnostics.minLoss,
      resultChangeSeverity: s.diagnostics.resultChangeSeverity,
      lossSeverity: s.diagnostics.lossSeverity,
    });
    // Late positions first: they are quick and fill the solver's table for the earlier ones.
    const order: string[] = [];
    for (const m of doc.models) for (let i = m.states.length - 1; i >= 0; i--) order.push(m.states[i].key());
    this.search.prioritise(order);
    this.search.commit();
    const c: Cached = { version, doc, report, generation };
    this.cache.set(uri, c);
    return c;
  }
}
