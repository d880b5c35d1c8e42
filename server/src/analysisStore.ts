/**
 * One analysis per open document and version. Parsing and the exact closed-form analysis run on
 * the main thread (they are fast); the board positions that need search become the document's
 * plan for the SearchService (each record from its end backwards), and every improved answer
 * re-runs the cheap analysis of the documents that want it.
 */
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { analyzeDocument } from './engine/analysis/analyzeDocument';
import type { DocumentReport } from './engine/analysis/report';
import { allLines, readDab, type DabDocument } from './engine/notation';
import type { PlanItem, SearchService } from './search/searchService';
import type { DabSettings } from './settings';
import type { BoardState } from './engine/board/state';
import { nimSummary, type NimSummary } from './engine/analysis/nim';
import {
  EDITOR_MAX_ENTRIES,
  EDITOR_MAX_POSITIONS,
  MAX_FILE_BYTES,
  NIM_BUDGET_QUICK,
  NIM_QUICK_MEMO_ENTRIES,
} from './engine/limits';
import { fileTooLarge } from './engine/phrasebook/files';
import { entryLabel, positionLabel } from './engine/phrasebook';
import { entryAt, positionAt } from './features/convert';

/** Nimstring of positions that need no search (loony endgames): cheap, so on the main thread, memoized. */
const nimMemo = new Map<string, NimSummary>();
function quickNim(state: BoardState): NimSummary {
  const key = state.key();
  let n = nimMemo.get(key);
  if (!n) {
    n = nimSummary(state, NIM_BUDGET_QUICK);
    if (nimMemo.size > NIM_QUICK_MEMO_ENTRIES) nimMemo.clear();
    nimMemo.set(key, n);
  }
  return n;
}

interface Cached {
  version: number;
  doc: DabDocument;
  report: DocumentReport;
  /** When the analysis finished (performance.now()) and how long it took, ms. */
  at: number;
  ms: number;
}

/** A document too large to read: no entries, one error saying so at its start. */
function tooLargeDocument(bytes: number): DabDocument {
  const at = { line: 0, character: 0, endLine: 0, endCharacter: 0 };
  return {
    entries: [],
    models: [],
    diagnostics: [
      {
        severity: 'error',
        range: at,
        code: 'too-large',
        message: `${fileTooLarge(bytes, MAX_FILE_BYTES)}; split the file`,
      },
    ],
  };
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
    const t0 = performance.now();
    const text = document.getText();
    // beyond the size the command line reads, not read at all: its analysis would hold gigabytes (found
    // by an audit: 21 MB, 2.7 GB, 4 s a keystroke); in UTF-8 bytes as the command line counts (a UTF-16
    // unit is at most 3 of them)
    const bytes = text.length * 3 > MAX_FILE_BYTES ? Buffer.byteLength(text, 'utf8') : text.length;
    const doc =
      bytes > MAX_FILE_BYTES
        ? tooLargeDocument(bytes)
        : readDab(text, { maxWork: EDITOR_MAX_POSITIONS, maxEntries: EDITOR_MAX_ENTRIES });
    const fresh = this.analyze(document.uri, document.version, doc);
    // work for the text as typed: not the document's background budget
    this.search.foreground(performance.now() - t0);
    return fresh.report;
  }

  /** The board state under a cursor (the entry's position after the last move before it, or `ply`). */
  stateAt(document: TextDocument, line: number, character: number, ply?: number): BoardState | undefined {
    const entry = entryAt(this.get(document), line);
    if (!entry) return undefined;
    if (ply !== undefined) return entry.positions[Math.max(0, Math.min(ply, entry.positions.length - 1))]?.state;
    return positionAt(entry, line, character)?.state;
  }

  /**
   * Re-run the analysis over the same parse. `forResults`: because background search results
   * arrived; that analysis is background work too, and its time (on this thread: time is CPU here)
   * counts against the document's search budget (a 12x12 record's re-analyses were 15% on top).
   * When the text has changed since the last analysis, the current text is analysed instead: what
   * is published with a version must be the analysis of that version (an older parse's ranges
   * point at the wrong text while the user types).
   */
  refresh(document: TextDocument, forResults = false): DocumentReport | undefined {
    const c = this.cache.get(document.uri);
    if (!c) return undefined;
    if (c.version !== document.version) return this.get(document);
    const fresh = this.analyze(document.uri, c.version, c.doc);
    if (forResults) this.search.charge(document.uri, fresh.ms);
    return fresh.report;
  }

  /**
   * How long to wait before re-analysing `uri` for new search results: a document whose analysis
   * takes d ms is refreshed at most every 4d ms, so the main thread stays free for typing.
   */
  refreshDelay(uri: string, minMs: number): number {
    const c = this.cache.get(uri);
    if (!c) return 0;
    return Math.max(0, c.at + Math.max(minMs, 4 * c.ms) - performance.now());
  }

  uris(): string[] {
    return [...this.cache.keys()];
  }

  close(uri: string): void {
    this.cache.delete(uri);
    this.search.forgetOwner(uri);
  }

  private analyze(uri: string, version: number, doc: DabDocument): Cached {
    const t0 = performance.now();
    const s = this.settings();
    const wanted = new Set<string>();
    const report = analyzeDocument(doc, {
      search: (state) => {
        wanted.add(state.key());
        return this.search.lookup(state, uri);
      },
      nim: (state) => quickNim(state),
      minLoss: s.diagnostics.minLoss,
      resultChangeSeverity: s.diagnostics.resultChangeSeverity,
      lossSeverity: s.diagnostics.lossSeverity,
      shownNames: true,
    });
    this.search.setPlan(uri, searchPlan(doc, wanted));
    const at = performance.now();
    const c: Cached = { version, doc, report, at, ms: at - t0 };
    this.cache.set(uri, c);
    return c;
  }
}

/** The positions to search, most useful first: each record from its end backwards (later positions
 * are cheaper and fill the solver's table for the earlier ones). */
function searchPlan(doc: DabDocument, wanted: Set<string>): PlanItem[] {
  const plan: PlanItem[] = [];
  for (const [group, m] of doc.models.entries()) {
    const name = entryLabel(m.kind, m.title);
    for (let i = m.states.length - 1; i >= 0; i--) {
      const state = m.states[i];
      if (wanted.has(state.key()))
        plan.push({
          state,
          group,
          label: positionLabel(name, i),
          ...(i + 1 < m.states.length ? { next: m.states[i + 1] } : {}),
        });
    }
    // Then the variations (the main line's positions come first: they are what the record is about).
    for (const line of allLines(m)) {
      if (line === m) continue;
      for (let i = line.states.length - 1; i >= 1; i--) {
        const state = line.states[i];
        if (wanted.has(state.key()))
          plan.push({
            state,
            group,
            label: positionLabel(name, line.startPly + i, true),
            ...(i + 1 < line.states.length ? { next: line.states[i + 1] } : {}),
          });
      }
    }
  }
  return plan;
}
