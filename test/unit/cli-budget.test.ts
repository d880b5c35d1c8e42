// dab analyze on a real-size record: bounded by its budgets, says what stayed unproven and why,
// and draws no progress line when stderr is not a terminal.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { plausibleRecord } from '../support/boards';
import { mulberry32 } from '../support/random';

const dir = mkdtempSync(join(tmpdir(), 'dab-budget-'));
const file = join(dir, 'r.dab');
writeFileSync(file, plausibleRecord(5, 5, 60, mulberry32(3), 'budget'));
const run = (...args: string[]) =>
  spawnSync(process.execPath, ['bin/dab.js', ...args, '--no-store'], { encoding: 'utf8' });

test('dab analyze --json: record budget respected, unproven positions listed with reasons, results consistent', () => {
  const t0 = Date.now();
  const r = run('analyze', '--json', '--budget-ms', '300', '--record-budget-ms', '3000', file);
  const wall = Date.now() - t0;
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stderr, '', 'no progress line in a pipe');
  const e = JSON.parse(r.stdout).entries[0];
  const s = e.search;
  assert.ok(s, 'entries[].search');
  assert.equal(s.recordBudgetMs, 3000);
  assert.equal(s.positionBudgetMs, 300);
  // the search itself keeps to the record's budget (with slack for one window search's granularity)
  assert.equal(s.ms, undefined, 'no wall time in the JSON answers');
  assert.ok(wall < 60_000, `whole run took ${wall} ms`);
  assert.equal(s.positions, e.positions.length);
  assert.ok(s.exact >= 10, JSON.stringify(s));
  const unproven = e.positions.filter((p: { exact: boolean }) => !p.exact).length;
  const listed = s.unproven.reduce(
    (n: number, u: { fromPly: number; toPly: number }) => n + u.toPly - u.fromPly + 1,
    0,
  );
  assert.equal(listed, unproven, 'every unproven position is listed with a reason');
  for (const u of s.unproven) {
    assert.ok(
      ['budget', 'extended', 'probe', 'skipped', 'margin-probe', 'record-budget', 'total-budget'].includes(u.reason),
    );
    assert.ok(typeof u.why === 'string' && u.why.length > 10);
    // the summary says what the report shows (the review adds bounds from the played moves)
    for (let ply = u.fromPly; ply <= u.toPly; ply++)
      assert.equal(u.resultProven, e.positions[ply].result !== null, `ply ${ply}: ${JSON.stringify(u)}`);
  }
  assert.equal(s.exact, e.positions.filter((p: { exact: boolean }) => p.exact).length);
  assert.equal(s.resultProven, e.positions.filter((p: { result: unknown }) => p.result !== null).length);
  for (const p of e.positions) {
    const lo = p.exact ? p.value : p.lower,
      hi = p.exact ? p.value : p.upper;
    assert.ok(lo <= hi && lo >= -p.remaining && hi <= p.remaining, JSON.stringify(p));
    const lead = p.score[p.toMove] - p.score[1 - p.toMove];
    const decided = lead + lo > 0 ? 'win' : lead + hi < 0 ? 'loss' : lead + lo >= 0 && lead + hi <= 0 ? 'tie' : null;
    assert.equal(p.result, decided, JSON.stringify(p));
    // an estimate says so; one whose proven bound proves something says what (never "best" alone)
    if (p.bestSoFar && p.bestSoFar.provenAtLeast === undefined)
      assert.equal(p.bestSoFar.label, 'best found so far, not proven');
    if (p.bestSoFar) assert.match(p.bestSoFar.label, /proven/);
    if (p.nim) {
      assert.match(p.nim.label, /ignores the score/);
      // who wins the chain fight: proven (and 0 exactly when lost) or null, never missing
      assert.ok([true, false, null].includes(p.nim.moverWinsChainFight), JSON.stringify(p.nim));
      if (typeof p.nim.nimber === 'number') assert.equal(p.nim.moverWinsChainFight, p.nim.nimber !== 0);
    }
  }
  assert.ok(
    e.positions.some((p: { nim?: unknown }) => p.nim),
    'the Nimstring view (long chain rule at least) on unknown positions',
  );
});

test('dab analyze (text): the search summary says how long it took and what stayed unproven', () => {
  const r = run('analyze', '--budget-ms', '200', '--record-budget-ms', '2000', '--total-budget-ms', '1500', file);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stderr, '');
  assert.match(r.stdout, /search of game "budget": [\d.]+ s \(budget 2\.0 s per record, 0\.2 s per position\)/);
  assert.match(r.stdout, /plies 0-\d+: result not proven/);
  assert.match(r.stdout, /--total-budget-ms|not searched|short search/);
  // a sentence's full stop is never followed by a clause's semicolon (found by an audit: "by at least 2.; keeps")
  assert.doesNotMatch(r.stdout, /\.;/);
});

test('dab analyze: a record with variations says how many of their positions are proven, in JSON and text', () => {
  const text = plausibleRecord(5, 5, 60, mulberry32(3), 'budget');
  const moves = /moves (.*)/.exec(text)![1].split(' ');
  // after the 40th move, the 41st and then the 40th: an alternative line from the same position
  const withVariation = text.replace(
    /moves .*/,
    `moves ${moves.slice(0, 40).join(' ')} (${moves[40]} ${moves[39]}) ${moves.slice(40).join(' ')}`,
  );
  const vfile = join(dir, 'v.dab');
  writeFileSync(vfile, withVariation);
  const r = run('analyze', '--json', '--budget-ms', '300', '--record-budget-ms', '3000', vfile);
  assert.equal(r.status, 0, r.stderr);
  const e = JSON.parse(r.stdout).entries[0];
  type Pos = { exact: boolean; result: unknown };
  type Line = { positions: Pos[]; moves: { variations?: Line[] }[]; endVariations?: Line[] };
  // every variation's positions but its first (the position it branches from), nested ones too
  const own = (l: Line): Pos[] => [
    ...l.moves.flatMap((m) => (m.variations ?? []).flatMap((v) => [...v.positions.slice(1), ...own(v)])),
    ...(l.endVariations ?? []).flatMap((v) => [...v.positions.slice(1), ...own(v)]),
  ];
  const ps = own(e);
  assert.equal(ps.length, 2);
  assert.deepEqual(e.search.variations, {
    positions: ps.length,
    exact: ps.filter((p) => p.exact).length,
    resultProven: ps.filter((p) => p.result !== null).length,
  });
  const t = run('analyze', '--budget-ms', '300', '--record-budget-ms', '3000', vfile);
  assert.match(t.stdout, /; variations: \d of 2 positions exact, \d with the result proven/);
  // the README's list of the fields of `search` names only fields the JSON has
  const readme = /each record has `search` \(([^)]*)\)/.exec(readFileSync('README.md', 'utf8'));
  assert.ok(readme, "the README's sentence on `search`");
  const keys = new Set([...JSON.stringify(e.search).matchAll(/"(\w+)":/g)].map((m) => m[1]));
  for (const [, name] of readme[1].matchAll(/`(\w+)`/g)) assert.ok(keys.has(name), `README: search.${name}`);
});

test('dab analyze: bad budget values are usage errors', () => {
  for (const flag of ['--record-budget-ms', '--total-budget-ms']) {
    const r = run('analyze', flag, 'soon', file);
    assert.equal(r.status, 2);
    assert.match(r.stderr, new RegExp(`${flag} needs a number of milliseconds`));
  }
  // one too large to keep exactly says how large one may be (found by an audit: it read as no number)
  const huge = run('analyze', '--budget-ms', '99999999999999999999999', file);
  assert.equal(huge.status, 2);
  assert.match(huge.stderr, /--budget-ms needs a number of milliseconds \(digits, at most 9,007,199,254,740,991\)/);
});
