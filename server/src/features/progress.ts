/**
 * The search progress report: LSP work-done progress (`window/workDoneProgress/create`, then
 * `$/progress` begin/report/end), which VS Code shows in its status bar. It says which position is
 * being solved and why (cursor or record), the attempt's time, how many of the document's
 * positions are proven, and how much of its background budget is spent.
 */
import type { Connection, WorkDoneProgressServerReporter } from 'vscode-languageserver';
import type { SearchActivity } from '../search/searchService';

export class SearchProgress {
  private reporter: WorkDoneProgressServerReporter | null = null;
  private starting = false;
  private latest: SearchActivity | null = null;
  private lastMessage = '';

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
    const job = a.running[0];
    const doc = a.documents.find((d) => d.owner === job?.owner);
    const pct = doc && doc.total > 0 ? Math.floor((100 * doc.proven) / doc.total) : undefined;
    this.reporter.report(pct ?? 0, message);
  }

  private async begin(): Promise<void> {
    if (!this.enabled() || this.starting) return;
    this.starting = true;
    try {
      const p = await this.connection.window.createWorkDoneProgress();
      if (!this.latest) {
        p.done();
        return;
      }
      p.begin('dab: proving', 0, progressMessage(this.latest), false);
      this.reporter = p;
      this.lastMessage = '';
      this.report();
    } catch {
      /* the client refused: no progress then */
    } finally {
      this.starting = false;
    }
  }
}

function seconds(ms: number): string {
  return ms < 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 1000)} s`;
}

/** 'game "sixty", after move 23 (under the cursor; attempt 2, up to 1.0 s) · 34 of 61 proven · 14 s of 120 s CPU' */
export function progressMessage(a: SearchActivity): string {
  const parts = a.running.map(
    (j) =>
      `${j.label} (${j.reason === 'cursor' ? 'under the cursor; ' : ''}attempt ${j.level + 1}, up to ${seconds(j.budgetMs)})`,
  );
  const owner = a.running[0]?.owner;
  const d = a.documents.find((x) => x.owner === owner);
  if (d) {
    parts.push(`${d.proven} of ${d.total} positions proven`);
    parts.push(d.budgetMs > 0 ? `${seconds(d.spentMs)} of ${seconds(d.budgetMs)} CPU` : `${seconds(d.spentMs)} CPU`);
  }
  return parts.join(' · ');
}
