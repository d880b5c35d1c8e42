import { LspTestClient } from './test/protocol/lspClient';
import { plausibleRecord } from './test/support/boards';
import { mulberry32 } from './test/support/random';
const seeds = (process.env.SEEDS ?? '1,2,3').split(',').map(Number);
const out: string[] = [];
for (const seed of seeds) {
  const c = new LspTestClient({}, undefined, { ...process.env, DAB_STORE: 'off' });
  await c.initialize();
  const text = plausibleRecord(5, 5, 60, mulberry32(seed), `r${seed}`);
  const line = text.split('\n')[2];
  const cols = [...line.matchAll(/[a-f]\d-[a-f]\d/g)].map((m) => m.index! + 2);
  const t00 = performance.now();
  const uri = c.open(`r${seed}.dab`, text);
  const bv: number[] = [];
  const lat: { t: number; ms: number; k: number }[] = [];
  const end = t00 + Number(process.env.SECS ?? 20) * 1000;
  while (performance.now() < end) {
    for (let k = 0; k < cols.length; k++) {
      if (process.env.BV) {
        const tb = performance.now();
        await c.request('dab/boardView', { uri, position: { line: 2, character: cols[k] } });
        bv.push(performance.now() - tb);
      }
      const t0 = performance.now();
      await c.request('textDocument/hover', { textDocument: { uri }, position: { line: 2, character: cols[k] } });
      lat.push({ t: t0 - t00, ms: performance.now() - t0, k });
      if (performance.now() > end) break;
    }
  }
  const ms = lat.map((x) => x.ms).sort((a, b) => a - b);
  const q = (p: number) => ms[Math.min(ms.length - 1, Math.floor(p * ms.length))].toFixed(1);
  const first = lat.slice(0, 60).map((x) => x.ms).sort((a, b) => a - b);
  const slow = lat.filter((x) => x.ms > 50).map((x) => `${(x.t / 1000).toFixed(2)}s:${x.ms.toFixed(0)}ms@${x.k}`);
  out.push(`seed ${seed}: n=${ms.length} p50 ${q(0.5)} p95 ${q(0.95)} p99 ${q(0.99)} max ${q(1)}; first60 p95 ${first[Math.floor(0.95*first.length)].toFixed(1)} max ${first[first.length-1].toFixed(1)}; slow ${slow.length}: ${slow.slice(0, 12).join(' ')}`);
  bv.sort((a,b)=>a-b); if (bv.length) out.push(`  boardView n=${bv.length} p50 ${bv[bv.length>>1].toFixed(1)} p95 ${bv[Math.floor(bv.length*0.95)].toFixed(1)} max ${bv[bv.length-1].toFixed(1)}`);
  console.log(out.slice(-2).join('\n'));
  await c.shutdown();
}
