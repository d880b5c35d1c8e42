/**
 * Typing latency of the language server while the review of a 60-move 5x5 record fills in:
 * hovers are sent every 25 ms (with an edit every 10th) while the worker solves, and the p50/p95
 * latencies are printed, against the same hovers on an idle server (baseline, same process).
 */
import { LspTestClient } from '../test/protocol/lspClient';
import { lcg } from '../test/support/random';
import { plausibleRecord } from '../test/support/boards';

function record60(): string {
  // A plausible 5x5 game (captures, else a safe move, else any), by a fixed PRNG.
  return plausibleRecord(5, 5, 60, lcg(5), 'sixty');
}

function pct(xs: number[], p: number): number {
  const s = xs.slice().sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))];
}

async function hovers(client: LspTestClient, uri: string, n: number, edit: (i: number) => void): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    if (i % 10 === 9) edit(i);
    const t = performance.now();
    await client.request('textDocument/hover', {
      textDocument: { uri },
      position: { line: 2, character: 10 + (i % 200) },
    });
    times.push(performance.now() - t);
    await new Promise((r) => setTimeout(r, 25));
  }
  return times;
}

export default async function run(): Promise<void> {
  const text = record60();
  const idle = new LspTestClient({ search: { timeBudgetMs: 1 } });
  await idle.initialize();
  const u0 = idle.open('idle.dab', 'endgame\n  components 3 4l\n');
  await idle.waitForDiagnostics(u0);
  const base = await hovers(idle, u0, 80, () => undefined);
  await idle.shutdown();

  const client = new LspTestClient({ search: { timeBudgetMs: 3000 } });
  await client.initialize();
  let version = 1;
  const uri = client.open('sixty.dab', text, version);
  await client.waitForDiagnostics(uri);
  const busy = await hovers(client, uri, 200, (i) => client.change(uri, text + `# edit ${i}\n`, ++version));
  await client.shutdown();
  console.log(
    `hover latency, idle server (baseline): p50 ${pct(base, 0.5).toFixed(1)} ms, p95 ${pct(base, 0.95).toFixed(1)} ms`,
  );
  console.log(
    `hover latency, 60-move 5x5 record while solving (edit every 10th): p50 ${pct(busy, 0.5).toFixed(1)} ms, p95 ${pct(busy, 0.95).toFixed(1)} ms, max ${Math.max(...busy).toFixed(1)} ms (aim: p95 < 50 ms)`,
  );
}
