/**
 * The language server and the proof store across sessions (real server processes over stdio): what
 * one editor session proved, tried in vain, computed of the Nimstring view and found as the best
 * move so far is what the next session starts from. It shows the same answers at once and spends a
 * fraction of the CPU.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { LspTestClient } from '../protocol/lspClient';
import { plausibleGame, plausibleRecord } from '../support/boards';
import { geometryOf } from '../../server/src/engine/board/geometry';
import { BoardState } from '../../server/src/engine/board/state';
import { openProofCache } from '../../server/src/store';
import { lcg } from '../support/random';
import { processCpuMs } from '../support/process';
import { assertTrue, records, tempDir } from './support';
import { positionOfKey } from '../../server/src/store/proof';
import { capitalized, estimateLabel } from '../../server/src/engine/phrasebook';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** The hover's line of the best move found so far, whatever its proven bound proves of it. */
const ESTIMATE_LINE = new RegExp(
  `^(${(['unproven', 'optimal', 'keeps-win'] as const)
    .map((s) => capitalized(estimateLabel(s)).replace(/[()]/g, '\\$&'))
    .join('|')}): .*$`,
  'm',
);
const guess = (h: string) => ESTIMATE_LINE.exec(h)?.[0];

const MOVES = 24;
/** Character of the start of move `k` (1-based) in a plausibleRecord's moves line. */
const moveChar = (k: number) => '  moves '.length + (k - 1) * 6;

/** The value shown for the position after a move, as an interval (for the player to move). */
function shown(h: string): [number, number] {
  const exact = /^Value ([+-]?\d+) for/m.exec(h);
  if (exact) return [Number(exact[1]), Number(exact[1])];
  const b = /value unknown \(between ([+-]?\d+) and ([+-]?\d+)\)/.exec(h);
  assert.ok(b, `a value or bounds in: ${h}`);
  return [Number(b[1]), Number(b[2])];
}

async function hovers(client: LspTestClient, uri: string): Promise<string[]> {
  const out: string[] = [];
  for (let k = 1; k <= MOVES; k++) {
    const h = await client.request('textDocument/hover', {
      textDocument: { uri },
      position: { line: 2, character: moveChar(k) + 1 },
    });
    out.push(h?.contents?.value ?? '');
  }
  return out;
}

/** Hovers once no position says it is still being searched (every attempt the limit allows is done). */
async function settledHovers(client: LspTestClient, uri: string, timeoutMs: number): Promise<string[]> {
  const end = performance.now() + timeoutMs;
  for (;;) {
    const hs = await hovers(client, uri);
    if (!hs.some((h) => /searching/.test(h))) return hs;
    if (performance.now() > end) throw new Error(`still searching after ${timeoutMs} ms:\n${hs.join('\n---\n')}`);
    await sleep(500);
  }
}

/**
 * One editor session on the record: a real server opens it, waits until nothing is being searched
 * any more, and closes (flushing the store). Its hovers and the server's CPU time.
 */
async function session(
  settings: Record<string, unknown>,
  name: string,
  text: string,
  timeoutMs: number,
): Promise<{ hovers: string[]; cpuMs: number }> {
  const client = new LspTestClient(settings);
  await client.initialize();
  const uri = client.open(name, text);
  await client.waitForDiagnostics(uri);
  const hs = await settledHovers(client, uri, timeoutMs);
  const cpuMs = processCpuMs(client.process.pid!)!;
  await client.shutdown();
  await new Promise((r) => client.process.once('exit', r));
  return { hovers: hs, cpuMs };
}

test('store: a reopened editor starts from the last session: proofs, attempts that failed, Nimstring views, estimates', async () => {
  if (process.platform !== 'linux') {
    console.log('skipped: measures server CPU through /proc (Linux only)');
    return;
  }
  const path = join(tempDir(), 'editor.sqlite');
  // a 4x4 record: the early positions are far beyond a 0.3 s attempt, the late ones are solved
  const text = plausibleRecord(4, 4, MOVES, lcg(21), 'session');
  const settings = { store: { path }, search: { threads: 1, timeBudgetMs: 300, backgroundBudgetSeconds: 120 } };

  const { hovers: before, cpuMs: cpuFirst } = await session(settings, 'session-1.dab', text, 120_000);

  const rows = records(path, true);
  // every proof a fresh solve can check in a moment is checked (the early 4x4 positions take minutes)
  for (const r of rows) {
    const s = positionOfKey(r.key);
    if (typeof s !== 'string' && s.undrawnLines().length <= 26) assertTrue(r.key, r.proof);
  }
  const tried = rows.filter((r) => r.proof.tried >= 300 && r.proof.lower < r.proof.upper);
  assert.ok(tried.length >= 3, `failed attempts are kept with their budget (${tried.length} of ${rows.length} rows)`);
  assert.ok(
    before.some((h) => /not solved within the search limit/.test(h)),
    'the first session gave up on some positions',
  );
  assert.ok(
    before.some((h) => /Nimstring/i.test(h)),
    'the first session showed Nimstring views',
  );

  const { hovers: after, cpuMs: cpuSecond } = await session(settings, 'session-2.dab', text, 30_000);
  const g = geometryOf(4, 4);
  const lines = plausibleGame(4, 4, lcg(21), MOVES);
  const proofs = openProofCache(path)!;
  let fromStore = 0,
    guesses = 0;
  for (let k = 0; k < MOVES; k++) {
    const s = new BoardState(g);
    for (const l of lines.slice(0, k + 1)) s.play(l);
    const [a1, b1] = shown(before[k]),
      [a2, b2] = shown(after[k]);
    // both sessions show only what is true: their intervals meet
    assert.ok(Math.max(a1, a2) <= Math.min(b1, b2), `move ${k + 1}: [${a1}, ${b1}] and [${a2}, ${b2}] do not meet`);
    // a best move found so far is not lost on reopening while no optimal move is proven (it may be
    // replaced by a better informed one)
    if (guess(before[k]) && !/^Best: /m.test(after[k])) {
      guesses++;
      assert.ok(guess(after[k]), `move ${k + 1}: the best move found so far is shown again`);
    }
    // the second shows at least what the store kept of the first
    const row = proofs.lookup(s);
    if (!row) continue;
    fromStore++;
    const { lower, upper } = row.evaluation;
    assert.ok(lower <= a2 && b2 <= upper, `move ${k + 1}: shows [${a2}, ${b2}], the store holds [${lower}, ${upper}]`);
    if (lower < upper && row.triedMs >= 300 && a2 < b2) {
      assert.match(after[k], /not solved within the search limit/, `move ${k + 1}: a failed attempt is not repeated`);
      // not searched again: the best move found so far is the one the first session showed
      assert.equal(guess(after[k]), guess(before[k]), `move ${k + 1}: the best move found so far`);
    }
    const nim = (h: string) => /^Nimstring.*$/m.exec(h)?.[0];
    if (nim(before[k]) && !/unknown/.test(nim(before[k])!))
      assert.equal(nim(after[k]), nim(before[k]), `move ${k + 1}`);
  }
  proofs.close();
  assert.ok(fromStore >= MOVES / 2, `${fromStore} positions of the record were in the store`);
  assert.ok(
    cpuSecond * 3 < cpuFirst,
    `the second session does not search again: ${cpuSecond} ms CPU against ${cpuFirst} ms`,
  );
  console.log(
    `editor sessions on one store: first ${cpuFirst} ms CPU, second ${cpuSecond} ms; ${tried.length} failed attempts kept; ` +
      `${guesses} best moves found so far shown again`,
  );
});
