/**
 * Typing latency of the language server while the review of a 60-move 5x5 record fills in:
 * hovers are sent every 25 ms (with an edit every 10th, and the cursor following the hover) while
 * the worker solves, and the p50/p95 latencies are printed, against the same hovers on an idle
 * server, and side by side with the server of the commit we started from (/work/baseline, when
 * built there), with the positions each has proven by the end and the CPU it used.
 */
import { existsSync } from 'node:fs';
import { LspTestClient } from '../test/protocol/lspClient';
import { lcg } from '../test/support/random';
import { plausibleRecord } from '../test/support/boards';
import { processCpuMs } from '../test/support/process';

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
    const position = { line: 2, character: 10 + (i % 200) };
    if (i % 5 === 0) void client.connection.sendNotification('dab/cursor', { uri, position });
    const t = performance.now();
    await client.request('textDocument/hover', { textDocument: { uri }, position });
    times.push(performance.now() - t);
    await new Promise((r) => setTimeout(r, 25));
  }
  return times;
}

const BASELINE_SERVER = '/work/baseline/dist/server.js';

async function busy(name: string, text: string, serverPath?: string): Promise<void> {
  const client = new LspTestClient({}, serverPath);
  await client.initialize();
  const pid = client.process.pid!;
  let version = 1;
  const c0 = processCpuMs(pid) ?? NaN;
  const t0 = performance.now();
  const uri = client.open('sixty.dab', text, version);
  await client.waitForDiagnostics(uri);
  const times = await hovers(client, uri, 200, (i) => client.change(uri, text + `# edit ${i}\n`, ++version));
  const view = await client.request('dab/boardView', { uri, position: { line: 0, character: 0 } });
  const exact = view.graph.filter((p: { valueForFirst: number | null }) => p.valueForFirst !== null).length;
  const wall = (performance.now() - t0) / 1000;
  const cpu = ((processCpuMs(pid) ?? NaN) - c0) / 1000;
  await client.shutdown();
  console.log(
    `${name}: hover p50 ${pct(times, 0.5).toFixed(1)} ms, p95 ${pct(times, 0.95).toFixed(1)} ms, max ${Math.max(...times).toFixed(1)} ms (aim: p95 < 50 ms); after ${wall.toFixed(1)} s: ${exact} of ${view.graph.length} positions exact, server CPU ${cpu.toFixed(1)} s`,
  );
}

export default async function run(): Promise<void> {
  const text = record60();
  const idle = new LspTestClient({ search: { timeBudgetMs: 1 } });
  await idle.initialize();
  const u0 = idle.open('idle.dab', 'endgame\n  components 3 4l\n');
  await idle.waitForDiagnostics(u0);
  const base = await hovers(idle, u0, 80, () => undefined);
  await idle.shutdown();
  console.log(
    `hover latency, idle server (baseline): p50 ${pct(base, 0.5).toFixed(1)} ms, p95 ${pct(base, 0.95).toFixed(1)} ms`,
  );
  console.log('60-move 5x5 record while solving, default settings (edit every 10th hover, cursor follows):');
  if (existsSync(BASELINE_SERVER)) await busy('  server as it was (3e4b635)', text, BASELINE_SERVER);
  else console.log(`  server as it was: not built at ${BASELINE_SERVER} (skipped)`);
  await busy('  anytime server (this build)  ', text);
}
