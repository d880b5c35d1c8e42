/**
 * The search progress report: LSP work-done progress (`window/workDoneProgress/create`, then
 * `$/progress` begin/report/end), which VS Code shows in its status bar. It says which position is
 * being solved and why (cursor or record), the attempt's time, how many of the document's
 * positions are proven, and how much of its background budget is spent.
 */
import type { Connection, WorkDoneProgressServerReporter } from 'vscode-languageserver';
import type { SearchActivity } from '../search/searchService';
import { PROGRESS_TITLE, attemptWords, cpuSpent, provenCount } from '../engine/phrasebook';

export class SearchProgress {
  private reporter: WorkDoneProgressServerReporter | null = null;
  private starting = false;
  /** The client answered a create request with an error: it is not asked again. */
  private refused = false;
  private latest: SearchActivity | null = null;
  private lastMessage = '';
  /** The percentage this progress last reported. */
  private lastPct = 0;

  constructor(
    private readonly connection: Connection,
    private readonly enabled: () => boolean,
  ) {}

  update(activity: SearchActivity | null): void {
    this.latest = activity;
    if (!activity) {
      this.reporter?.done();
      this.reporter = null;
      this.lastMessage = '';
      this.lastPct = 0;
      return;
    }
    if (!this.reporter) {
      void this.begin();
      return;
    }
    this.report();
  }

  private report(): void {
    const a = this.latest;
    if (!a || !this.reporter) return;
    const message = progressMessage(a);
    if (message === this.lastMessage) return;
    this.lastMessage = message;
    // of every document's positions (a job moving to another document does not make it jump); a
    // share that falls (an edit added positions) ends this progress and starts another, since LSP
    // wants one progress's percentage steadily rising
    const pct = provenShare(a);
    if (pct < this.lastPct) {
      this.reporter.done();
      this.reporter = null;
      this.lastPct = 0;
      void this.begin();
      return;
    }
    this.lastPct = pct;
    this.reporter.report(pct, message);
  }

  private async begin(): Promise<void> {
    if (!this.enabled() || this.starting || this.refused) return;
    this.starting = true;
    try {
      const p = await this.connection.window.createWorkDoneProgress();
      if (!this.latest) {
        p.done();
        return;
      }
      this.lastPct = provenShare(this.latest);
      p.begin(PROGRESS_TITLE, this.lastPct, progressMessage(this.latest), false);
      this.reporter = p;
      this.lastMessage = '';
      this.report();
    } catch {
      // the client refused: no progress then, and no more asking
      this.refused = true;
    } finally {
      this.starting = false;
    }
  }
}

/** The percentage of the positions of every document with search work that are proven (0 when none). */
export function provenShare(a: SearchActivity): number {
  let proven = 0,
    total = 0;
  for (const d of a.documents) {
    proven += d.proven;
    total += d.total;
  }
  return total > 0 ? Math.floor((100 * proven) / total) : 0;
}

/** 'game "sixty", after move 23 (under the cursor; attempt 2, up to 1.0 s) · 34 of 61 positions proven · 14 s of 120 s CPU' */
export function progressMessage(a: SearchActivity): string {
  const parts = a.running.map((j) => attemptWords(j.label, j.reason === 'cursor', j.level, j.budgetMs));
  const owner = a.running[0]?.owner;
  const d = a.documents.find((x) => x.owner === owner);
  if (d) parts.push(provenCount(d.proven, d.total), cpuSpent(d.spentMs, d.budgetMs));
  return parts.join(' · ');
}
