/**
 * The CLI against what an independent audit threw at it: folders with dangling links and links
 * back up, empty folders, devices and huge files, exports to places that cannot take them, and a
 * reader that stops reading. Each gets a clear message and an exit code, never a stack trace.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  closeSync,
  linkSync,
  openSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
  existsSync,
  readdirSync,
  truncateSync,
} from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI_MAX_POSITIONS, MAX_FILE_BYTES, MAX_SOLVER_THREADS } from '../../server/src/engine/limits';
import { MAX_TABLE_MB } from '../../server/src/engine/solver';
import { firstNonUtf8 } from '../../server/src/cli/input';
import { mulberry32 } from '../support/random';

const dab = (...args: string[]) =>
  spawnSync(process.execPath, ['bin/dab.js', ...args], { encoding: 'utf8', timeout: 120_000 });
const GAME = 'game "g"\n  size 2x2\n  moves a1-b1 a1-a2\n';

function noTrace(r: { stderr: string }): void {
  assert.doesNotMatch(r.stderr, /\n\s+at .+:\d+:\d+/, r.stderr);
}

test('cli: folders with a dangling link and a link back up are read once, with a warning', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dab-hostile-'));
  writeFileSync(join(dir, 'a.dab'), GAME);
  symlinkSync(join(dir, 'gone.dab'), join(dir, 'dangling.dab'));
  symlinkSync(dir, join(dir, 'up'));
  const r = dab('analyze', '--no-store', '--no-search', dir);
  noTrace(r);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stderr, /dangling\.dab: skipped \(no such file\)/);
  assert.equal((r.stdout.match(/^== /gm) ?? []).length, 1, r.stdout);
});

// Found by an audit: a missing path alone was exit 2, beside another file exit 1.
test('cli: a path that does not exist is bad usage (exit 2) whether or not other files are given; those are analysed', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dab-hostile-'));
  const good = join(dir, 'a.dab');
  writeFileSync(good, GAME);
  const gone = join(dir, 'gone.dab');
  for (const command of ['analyze', 'check']) {
    const alone = dab(command, '--no-store', '--no-search', gone);
    const beside = dab(command, '--no-store', '--no-search', good, gone);
    for (const r of [alone, beside]) {
      noTrace(r);
      assert.equal(r.status, 2, `${command}: ${r.stderr}`);
      assert.match(r.stderr, /gone\.dab: no such file or directory/);
    }
    if (command === 'analyze') assert.match(beside.stdout, /^== .*a\.dab/m, 'the file that exists is analysed');
  }
});

test('cli: an empty folder, a device and a huge file get a message each', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dab-hostile-'));
  const empty = join(dir, 'empty');
  mkdirSync(empty);
  const e = dab('analyze', '--no-store', empty);
  noTrace(e);
  assert.equal(e.status, 2);
  assert.match(e.stderr, /no \.dab files in this folder/);
  if (existsSync('/dev/zero')) {
    const z = dab('analyze', '--no-store', '/dev/zero');
    noTrace(z);
    assert.equal(z.status, 1);
    assert.match(z.stderr, /\/dev\/zero: not a regular file/);
  }
  const big = join(dir, 'big.dab');
  writeFileSync(big, `game "g"\n  size 12x12\n  moves ${'a1-b1 '.repeat(Math.ceil(MAX_FILE_BYTES / 6) + 10)}\n`);
  const b = dab('analyze', '--no-store', big);
  noTrace(b);
  assert.equal(b.status, 1);
  assert.match(b.stderr, /dab reads files up to/);
  // the size and the bound in bytes: just over reads as just over (found by an audit: "8 MB: … up to 8 MB")
  writeFileSync(big, '#'.repeat(MAX_FILE_BYTES + 116));
  const over = dab('check', '--no-store', big);
  assert.match(over.stderr, /big\.dab: 8,000,116 bytes: dab reads files up to 8,000,000 bytes \(8 MB\)/);
  const piped = spawnSync(process.execPath, ['bin/dab.js', 'check', '--no-store', '-'], {
    input: '#'.repeat(MAX_FILE_BYTES + 1),
    encoding: 'utf8',
  });
  assert.match(piped.stderr, /^dab: standard input: more than 8,000,000 bytes \(8 MB\): dab reads no more/);
});

test('cli: cache export to a folder, a missing folder or standard output', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dab-hostile-'));
  const store = join(dir, 's.sqlite');
  const file = join(dir, 'g.dab');
  writeFileSync(file, GAME);
  assert.equal(dab('analyze', '--store', store, file).status, 0);
  const folder = join(dir, 'out');
  mkdirSync(folder);
  const f = dab('cache', 'export', folder, '--store', store);
  noTrace(f);
  assert.equal(f.status, 1);
  assert.match(f.stderr, /is not a regular file: not written/);
  const m = dab('cache', 'export', join(dir, 'no', 'such', 'x.jsonl'), '--store', store);
  noTrace(m);
  assert.equal(m.status, 1);
  assert.match(m.stderr, /cannot be written/);
  assert.deepEqual(
    readdirSync(dir).filter((n) => n.includes('.tmp-')),
    [],
    'no temporary file is left',
  );
  const out = dab('cache', 'export', '-', '--store', store);
  assert.equal(out.status, 0, out.stderr);
  assert.match(out.stdout.split('\n')[0], /"format":"dab-proofs"/);
  assert.match(out.stderr, /exported \d+ proofs to standard output/);
  assert.equal(existsSync('-'), false, 'no file named -');
});

test('cli: a reader that stops reading ends the run quietly', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'dab-hostile-'));
  for (let i = 0; i < 40; i++) writeFileSync(join(dir, `g${i}.dab`), GAME.replace('"g"', `"g${i}"`));
  const child = spawn(process.execPath, ['bin/dab.js', 'analyze', '--json', '--no-store', dir]);
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += String(d)));
  // read the first bytes, then close the pipe, as `| head -c 100` does
  await new Promise<void>((res) => child.stdout.once('data', () => res()));
  child.stdout.destroy();
  const code = await new Promise<number | null>((res) => child.on('exit', (c) => res(c)));
  noTrace({ stderr });
  assert.doesNotMatch(stderr, /EPIPE/);
  assert.ok(code === 0 || code === 1, `exit ${code}`);
});

test('cli: numbers are plain decimals, --store needs a path, --max-loss belongs to check', () => {
  for (const [args, message] of [
    [['--budget-ms', '0x10'], /--budget-ms needs a number/],
    [['--budget-ms', ''], /--budget-ms needs a number/],
    [['--record-budget-ms', '1e3'], /--record-budget-ms needs a number/],
    [['--store', ''], /--store needs a path/],
    // '--' ends the options: it is no option's value (found by a review: a store was made at ./--)
    [['--store', '--'], /--store needs a path/],
    [['--threads', '--'], /--threads needs a whole number/],
    // a value given twice: which one was meant? (found by an audit: the last was taken silently)
    [['--budget-ms', '100', '--budget-ms', '200'], /--budget-ms given twice/],
    [['--store', 'a.sqlite', '--store', 'b.sqlite'], /--store given twice/],
    [['--max-loss', '3'], /--max-loss is for dab check/],
  ] as [string[], RegExp][]) {
    const r = dab('analyze', ...args, 'examples/allcock.dab');
    noTrace(r);
    assert.equal(r.status, 2, args.join(' '));
    assert.match(r.stderr, message);
  }
  const c = dab('check', '--max-loss', '3', '--no-store', 'examples/allcock.dab');
  assert.equal(c.status, 0, c.stderr);
});

test('cli: cache commands refuse an empty --store (never the default store) and a device to import', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dab-hostile-'));
  // the default store of this run is one with a record in it: `clear --store ''` must not touch it
  const env = { ...process.env, DAB_STORE: join(dir, 'default.sqlite') };
  const run = (...args: string[]) =>
    spawnSync(process.execPath, ['bin/dab.js', ...args], { encoding: 'utf8', timeout: 120_000, env });
  writeFileSync(join(dir, 'g.dab'), GAME);
  assert.equal(run('analyze', join(dir, 'g.dab')).status, 0);
  const before = run('cache', 'stats').stdout;
  assert.match(before, /records: [1-9]/);
  const c = run('cache', 'clear', '--store', '');
  noTrace(c);
  assert.equal(c.status, 2);
  assert.match(c.stderr, /--store needs a path/);
  assert.equal(run('cache', 'stats').stdout, before, 'the default store is untouched');
  const z = run('cache', 'import', '/dev/zero', '--store', join(dir, 'p.sqlite'));
  noTrace(z);
  assert.equal(z.status, 1);
  assert.match(z.stderr, /not a regular file/);
});

test('cli: a byte-order mark is not a column: positions on line 1 are the editor’s', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dab-hostile-'));
  const file = join(dir, 'bom.dab');
  writeFileSync(file, '\uFEFFgame "t" junk\n  size 2x2\n');
  writeFileSync(join(dir, 'plain.dab'), 'game "t" junk\n  size 2x2\n');
  const a = dab('check', '--no-search', file);
  const b = dab('check', '--no-search', join(dir, 'plain.dab'));
  assert.equal(a.stdout.replaceAll('bom.dab', 'plain.dab'), b.stdout);
  assert.match(a.stdout, /bom\.dab:1:10: /);
});

test('cli: analyze - reads the record from standard input, as render and import do', () => {
  const text = 'game "from stdin"\nsize 2x2\nmoves: a1-b1 a2-b2\n';
  const r = spawnSync(process.execPath, ['bin/dab.js', 'analyze', '--json', '--no-store', '-'], {
    encoding: 'utf8',
    input: text,
    timeout: 120_000,
  });
  assert.equal(r.status, 0, r.stderr);
  const entry = JSON.parse(r.stdout).entries[0];
  assert.equal(entry.title, 'from stdin');
  assert.equal(entry.positions.length, 3);
  // the same answers as from a file
  const dir = mkdtempSync(join(tmpdir(), 'dab-stdin-'));
  writeFileSync(join(dir, 'g.dab'), text);
  const f = spawnSync(process.execPath, ['bin/dab.js', 'analyze', '--json', '--no-store', join(dir, 'g.dab')], {
    encoding: 'utf8',
    timeout: 120_000,
  });
  const strip = (s: string) => JSON.parse(s, (k, v) => (k === 'ms' || k === 'nodes' ? 0 : v));
  assert.deepEqual(strip(r.stdout).entries[0].positions, strip(f.stdout).entries[0].positions);
});

test('cli: control characters and bidi overrides from a file reach the terminal as escapes', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dab-term-'));
  const esc = '\u001b[2J\u001b]0;pwned\u0007';
  const files = {
    'names.dab': `game "t"\n  size 2x2\n  players "${esc}Red" "Bob\u202E"\n  moves a1-b1 b1-c1\n`,
    'title.dab': `game ${esc}\n  size 2x2\n  moves a1-b1\n`,
    'c1.dab': 'game "del\u007f csi\u009b 2J"\n  size 2x2\n  tomove "\u001b[5mZ"\n',
    'bad.dbl': `${esc}5,5\n`,
  };
  for (const [f, text] of Object.entries(files)) writeFileSync(join(dir, f), text);
  // eslint-disable-next-line no-control-regex
  const UNSAFE = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/;
  const runs = [
    ...['names.dab', 'title.dab', 'c1.dab'].flatMap((f) => [
      dab('analyze', '--no-store', '--budget-ms', '50', join(dir, f)),
      dab('check', '--no-store', '--budget-ms', '50', join(dir, f)),
    ]),
    dab('import', join(dir, 'bad.dbl')),
    dab('render', join(dir, 'c1.dab'), '--ply', '5'),
  ];
  for (const r of runs) {
    const out = r.stdout + r.stderr;
    assert.ok(out.length > 0);
    assert.doesNotMatch(out, UNSAFE, out.slice(0, 300));
  }
  assert.match(runs[0].stdout, /\\u001b\[2J/, 'the escape is shown, not dropped');
  rmSync(dir, { recursive: true, force: true });
});

test('cli: --help prints the usage on stdout for every command; bare dab shows it as an error; --version', () => {
  for (const args of [['analyze', '--help'], ['check', '-h'], ['--help'], ['help'], ['render', '--help']]) {
    const r = dab(...args);
    assert.equal(r.status, 0, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stdout, /^usage:/, args.join(' '));
    assert.equal(r.stderr, '', args.join(' '));
  }
  const bare = dab();
  assert.equal(bare.status, 2);
  assert.match(bare.stderr, /^usage:/);
  assert.doesNotMatch(bare.stderr, /unknown command/);
  const { version } = JSON.parse(readFileSync('package.json', 'utf8'));
  for (const flag of ['--version', '-V']) {
    const v = dab(flag);
    assert.equal(v.status, 0, v.stderr);
    assert.equal(v.stdout, `dab ${version}\n`);
  }
});

test('cli: contradictory, repeated or misplaced options are refused; a clamped number is said once', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dab-hostile-'));
  const store = join(dir, 'x', 's.sqlite');
  for (const args of [
    ['analyze', '--no-store', '--store', store, 'examples/allcock.dab'],
    ['check', '--store', store, '--no-store', 'examples/allcock.dab'],
    ['cache', 'stats', '--store', store, '--no-store'],
    ['cache', 'import', 'x.jsonl', '--no-store', '--store', store],
  ]) {
    const r = dab(...args);
    noTrace(r);
    assert.equal(r.status, 2, args.join(' '));
    assert.match(r.stderr, /--store and --no-store cannot both be given/, args.join(' '));
  }
  assert.equal(existsSync(join(dir, 'x')), false, 'no store made');
  const t = dab('analyze', '--threads', '1.5', '--no-store', 'examples/allcock.dab');
  assert.equal(t.status, 2);
  assert.match(t.stderr, /--threads needs a whole number of threads/);
  const c = dab('analyze', '--threads', '100', '--table-mb', '100000', '--no-search', 'examples/allcock.dab');
  assert.equal(c.status, 0, c.stderr);
  // threads: at most one a core (more only share them) and MAX_SOLVER_THREADS
  const cores = availableParallelism();
  const most = Math.min(cores, MAX_SOLVER_THREADS);
  assert.equal(
    c.stderr,
    `dab: --threads 100: using ${most}, ${most === cores ? `one a core (this machine has ${cores})` : 'the most dab uses'}\n` +
      `dab: --table-mb 100000: using ${MAX_TABLE_MB}, the largest table dab makes\n`,
  );
  const v = dab('cache', 'stats', '--verify-ms', '5', '--store', store);
  assert.equal(v.status, 2);
  assert.match(v.stderr, /--verify-ms is for dab cache import/);
  const j = dab('cache', 'export', join(dir, 'f.jsonl'), '--json', '--store', store);
  assert.equal(j.status, 2);
  assert.match(j.stderr, /^dab: unknown option '--json'/);
  for (const flag of ['--ply', '--entry']) {
    const r = dab('render', 'examples/games.dab', flag, '1', flag, '1');
    assert.equal(r.status, 2, flag);
    assert.match(r.stderr, new RegExp(`^dab render: ${flag} given twice`));
  }
});

// Found by an audit: a file of a million bare headers held a million entries (2.45 GB in dab check,
// 4 GB and unanswered requests in the editor); past the bound's count of entries the rest is not read.
test('cli: a file of more entries than the per-file bound reads no more of them, and says so', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dab-entries-'));
  writeFileSync(join(dir, 'headers.dab'), 'game\n'.repeat(CLI_MAX_POSITIONS + 10));
  const r = dab('check', '--no-search', '--no-store', join(dir, 'headers.dab'));
  assert.equal(r.status, 1, r.stderr);
  assert.match(
    r.stdout,
    new RegExp(
      `headers\\.dab:${CLI_MAX_POSITIONS + 1}:1: warning: This entry and every entry after it are not analysed by dab`,
    ),
  );
  assert.match(
    r.stdout,
    new RegExp(
      `headers\\.dab: ${CLI_MAX_POSITIONS} entries \\(the rest of the file not read: over the bound\\), \\d+ errors\\n$`,
    ),
  );
});

test('cli: check fails a file whose entries over the per-file bound were not checked, and says how many', () => {
  // 19,300 complete 2x2 games (13 positions each) pass CLI_MAX_POSITIONS; the entries after, one
  // with an illegal move, are left out: not a pass, whatever they hold
  const dir = mkdtempSync(join(tmpdir(), 'dab-bound-'));
  const game = 'game\n  size 2x2\n  moves a1-b1 b1-c1 a3-b3 b3-c3 a1-a2 c1-c2 a2-a3 c2-c3 a2-b2 b1-b2 b2-b3 b2-c2\n';
  const count = Math.ceil(CLI_MAX_POSITIONS / 13) + 50;
  writeFileSync(join(dir, 'many.dab'), game.repeat(count) + 'game "bad"\n  size 2x2\n  moves a1-b1 a1-b1\n');
  const r = dab('check', '--no-search', '--no-store', join(dir, 'many.dab'));
  assert.equal(r.status, 1, r.stderr);
  const left = r.stdout.match(/This entry and the (\d+) entries after it are not analysed by dab/);
  assert.ok(left, r.stdout.slice(-2000));
  assert.match(
    r.stdout,
    new RegExp(
      `many\\.dab: ${count + 1} entries \\(${Number(left[1]) + 1} not checked: over the bound\\), 0 errors\\n$`,
    ),
  );
  // the same games under the bound pass
  writeFileSync(join(dir, 'few.dab'), game.repeat(100));
  const ok = dab('check', '--no-search', '--no-store', join(dir, 'few.dab'));
  assert.equal(ok.status, 0, ok.stdout);
  assert.match(ok.stdout, /few\.dab: 100 entries, 0 errors\n$/);
  rmSync(dir, { recursive: true, force: true });
});

test('cli: check --json holds the moves over --max-loss, as check prints them', () => {
  const r = dab('check', '--json', '--no-search', '--max-loss', '1', '--no-store', 'examples/games.dab');
  assert.equal(r.status, 1, r.stderr);
  const over = JSON.parse(r.stdout).diagnostics.filter((d: { code: string }) => d.code === 'max-loss');
  assert.deepEqual(
    over.map((d: { severity: string; line: number; character: number; message: string }) => [
      d.severity,
      d.line,
      d.character,
      d.message,
    ]),
    [['error', 10, 8, 'a1-b1 gives away 8 boxes, more than --max-loss 1']],
  );
  const text = dab('check', '--no-search', '--max-loss', '1', '--no-store', 'examples/games.dab');
  assert.match(text.stdout, /games\.dab:11:9: error: a1-b1 gives away 8 boxes, more than --max-loss 1/);
  const two = dab(
    'check',
    '--json',
    '--no-search',
    '--max-loss',
    '1',
    '--no-store',
    'examples/games.dab',
    'examples/allcock.dab',
  );
  assert.equal(two.status, 1);
  const d = JSON.parse(two.stdout).diagnostics.filter((x: { code: string }) => x.code === 'max-loss');
  assert.deepEqual(
    d.map((x: { file: string }) => x.file),
    ['examples/games.dab'],
  );
});

test('cli: render -o never overwrites its input nor another .dab file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dab-hostile-'));
  const file = join(dir, 'g.dab');
  writeFileSync(file, GAME);
  writeFileSync(join(dir, 'other.dab'), GAME);
  symlinkSync(file, join(dir, 'link.svg'));
  // found by an audit: a hard link under another name, and a pipe that nothing reads (the write hung)
  linkSync(join(dir, 'other.dab'), join(dir, 'alias.svg'));
  spawnSync('mkfifo', [join(dir, 'pipe.svg')]);
  // found by a review: render reads the proof store now, and -o could write over it
  const store = join(dir, 'proofs.sqlite');
  assert.equal(dab('render', file, '--budget-ms', '200', '--store', store, '-o', join(dir, 'first.svg')).status, 0);
  const storeBytes = readFileSync(store);
  for (const [out, message] of [
    [file, /is the file drawn/],
    [join(dir, 'link.svg'), /is the file drawn/],
    [join(dir, 'other.dab'), /is a \.dab file/],
    [join(dir, 'alias.svg'), /has other names \(hard links\)/],
    [join(dir, 'pipe.svg'), /is a pipe that nothing reads/],
    [store, /is an SQLite database \(a proof store\?\)/],
  ] as [string, RegExp][]) {
    const r = dab('render', file, '--budget-ms', '50', '-o', out);
    noTrace(r);
    assert.equal(r.status, 2, out);
    assert.match(r.stderr, message, out);
  }
  assert.equal(readFileSync(file, 'utf8'), GAME);
  assert.equal(readFileSync(join(dir, 'other.dab'), 'utf8'), GAME);
  assert.ok(readFileSync(store).equals(storeBytes), 'the store is untouched');
  // a folder that does not exist is said in words (found by a review: ENOENT and the system's text)
  const nowhere = dab('render', file, '--budget-ms', '50', '-o', join(dir, 'no', 'such', 'x.svg'));
  assert.equal(nowhere.status, 1);
  assert.match(nowhere.stderr, /x\.svg: no such file\n$/);
  const ok = dab('render', file, '--budget-ms', '50', '-o', join(dir, 'g.svg'));
  assert.equal(ok.status, 0, ok.stderr);
  assert.match(readFileSync(join(dir, 'g.svg'), 'utf8'), /^<svg/);
});

test('cli: cache stats, clear and export on a store that is not there say so and make nothing', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dab-hostile-'));
  const store = join(dir, 'typo', 'proofs.sqlite');
  for (const args of [['stats'], ['clear']]) {
    // nothing stored yet is no failure (a first run of stats), but the path is said
    const r = dab('cache', ...args, '--store', store);
    noTrace(r);
    assert.equal(r.status, 0, args.join(' '));
    assert.equal(r.stdout, `no proof store at ${store} (nothing stored there yet)\n`, args.join(' '));
  }
  const ex = dab('cache', 'export', join(dir, 'out.jsonl'), '--store', store);
  noTrace(ex);
  assert.equal(ex.status, 1);
  assert.equal(ex.stderr, `dab: no proof store at ${store}: nothing to export\n`);
  assert.deepEqual(readdirSync(dir), [], 'nothing made');
  // import is how a store is filled: it makes one
  const from = join(dir, 'from.sqlite');
  writeFileSync(join(dir, 'g.dab'), GAME);
  assert.equal(dab('analyze', '--store', from, join(dir, 'g.dab')).status, 0);
  assert.equal(dab('cache', 'export', join(dir, 'p.jsonl'), '--store', from).status, 0);
  const i = dab('cache', 'import', join(dir, 'p.jsonl'), '--store', store);
  assert.equal(i.status, 0, i.stderr);
  assert.ok(existsSync(store));
  // the whole import's time to prove records again is bounded (found by an audit: a file of hard
  // records ran for hours); the records left when it runs out are rejected and say why
  const late = join(dir, 'late.sqlite');
  const t = dab('cache', 'import', join(dir, 'p.jsonl'), '--store', late, '--verify-total-ms', '1');
  assert.equal(t.status, 1, 'records rejected');
  assert.match(t.stdout + t.stderr, /ran out \(--verify-total-ms\); import the file again to go on/);
  const again = dab('cache', 'import', join(dir, 'p.jsonl'), '--store', late);
  assert.equal(again.status, 0, again.stderr);
  assert.doesNotMatch(again.stdout + again.stderr, /ran out/);
  const twice = dab(
    'cache',
    'import',
    join(dir, 'p.jsonl'),
    '--store',
    late,
    '--verify-total-ms',
    '5',
    '--verify-total-ms',
    '6',
  );
  assert.equal(twice.status, 2);
  assert.match(twice.stderr, /^dab: --verify-total-ms given twice/);
  const bad = dab('cache', 'stats', '--store', late, '--verify-total-ms', '5');
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /--verify-total-ms is for dab cache import/);
});

// Found by an audit: `dab-language-server --help` (or no transport) ended in a stack trace.
test('cli: dab-language-server --help prints its usage; without a transport it says so (exit 2), never a stack trace', () => {
  const server = (...args: string[]) =>
    spawnSync(process.execPath, ['bin/dab-language-server.js', ...args], { encoding: 'utf8', timeout: 20_000 });
  const help = server('--help');
  assert.equal(help.status, 0, help.stderr);
  assert.match(help.stdout, /usage: dab-language-server --stdio/);
  for (const args of [[], ['--verbose']]) {
    const r = server(...args);
    noTrace(r);
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, /no transport given/);
  }
  // the transports as vscode-languageserver reads them, with '=' or a space (found by a review)
  for (const args of [
    ['--socket', '59999'],
    ['--pipe', '/tmp/dab-no-such-pipe'],
  ]) {
    const r = server(...args);
    assert.doesNotMatch(r.stderr, /no transport given/, args.join(' '));
  }
  const version = server('--version');
  assert.equal(version.stdout.trim(), JSON.parse(readFileSync('package.json', 'utf8')).version);
});

// Found by an audit: a picture of a file with illegal moves, or bytes that are not UTF-8, came with no word of them.
// Its exit status is 1 then, as check's and analyze's (found by another: it was 0).
test('cli: render says the file’s problems on stderr, as check does, and still draws what it can', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dab-render-'));
  writeFileSync(join(dir, 'illegal.dab'), 'game\n  size 2x2\n  moves a1-b1 a1-b1 z9-z8 b1-c1\n');
  const r = dab('render', '--no-store', join(dir, 'illegal.dab'));
  assert.equal(r.status, 1, r.stderr);
  assert.equal(dab('check', '--no-store', join(dir, 'illegal.dab')).status, 1, 'as check');
  assert.match(r.stdout, /^<svg/);
  assert.match(r.stderr, /illegal\.dab:3:15: error: a1-b1 is already drawn .*\[drawn-twice\]/);
  assert.match(r.stderr, /illegal\.dab:3:21: error: .*\[off-board\]/);
  writeFileSync(join(dir, 'latin1.dab'), Buffer.from('game "caf\xe9"\n  size 2x2\n', 'latin1'));
  const e = dab('render', '--no-store', join(dir, 'latin1.dab'));
  assert.match(e.stderr, /latin1\.dab:1:\d+: error: .*\[bad-encoding\]/);
  rmSync(dir, { recursive: true, force: true });
});

// Found by an audit: a file that holds a written U+FFFD (the bytes EF BF BD, valid UTF-8) was told it is not UTF-8.
test('cli: a U+FFFD written in a UTF-8 file is a character; a byte that is not UTF-8 is an error', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dab-fffd-'));
  const file = (name: string, bytes: number[]) =>
    writeFileSync(
      join(dir, name),
      Buffer.from([...Buffer.from('game "caf'), ...bytes, ...Buffer.from('"\n  size 2x2\n')]),
    );
  file('written.dab', [0xef, 0xbf, 0xbd]);
  const ok = dab('check', '--no-store', join(dir, 'written.dab'));
  assert.equal(ok.status, 0, ok.stdout);
  assert.doesNotMatch(ok.stdout, /bad-encoding/);
  file('latin1.dab', [0xe9]);
  const bad = dab('check', '--no-store', join(dir, 'latin1.dab'));
  assert.equal(bad.status, 1);
  assert.match(bad.stdout, /latin1\.dab:1:10: error: the file is not UTF-8.*\[bad-encoding\]/);
  // a written U+FFFD before the bad byte (and a byte-order mark): the error is at the bad byte, and
  // counts it alone (found by an audit: it pointed at the written U+FFFD)
  writeFileSync(
    join(dir, 'both.dab'),
    Buffer.from([0xef, 0xbb, 0xbf, ...Buffer.from('# \ufffd\ngame "caf'), 0xe9, ...Buffer.from('"\n  size 2x2\n')]),
  );
  const both = dab('check', '--no-store', join(dir, 'both.dab'));
  assert.equal(both.status, 1);
  assert.match(both.stdout, /both\.dab:2:10: error: the file is not UTF-8.*\[bad-encoding\]/);
  assert.doesNotMatch(both.stdout, /such characters/);
  rmSync(dir, { recursive: true, force: true });
});

test('firstNonUtf8 finds the byte where a strict UTF-8 decoder first fails, on random bytes', () => {
  const strict = new TextDecoder('utf-8', { fatal: true });
  const valid = (b: Uint8Array) => {
    try {
      strict.decode(b);
      return true;
    } catch {
      return false;
    }
  };
  const r = mulberry32(8181);
  // bytes near the edges of UTF-8's ranges, so that every rule of the table is met
  const pick = [
    0x00, 0x41, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xe1, 0xec, 0xed, 0xee, 0xef,
    0xf0, 0xf1, 0xf3, 0xf4, 0xf5, 0xff,
  ];
  for (let trial = 0; trial < 20000; trial++) {
    const b = Uint8Array.from({ length: 1 + Math.floor(r() * 8) }, () => pick[Math.floor(r() * pick.length)]);
    const at = firstNonUtf8(b);
    assert.equal(valid(b.subarray(0, at)), true, `prefix of ${[...b]}`);
    if (at === b.length) continue;
    // no longer prefix ending on a character boundary is valid, and the lenient decoder replaces the byte there
    for (let end = at + 1; end <= b.length; end++)
      assert.equal(valid(b.subarray(0, end)), false, `${[...b]} to ${end}`);
    assert.equal(Buffer.from(b).toString('utf8')[strict.decode(b.subarray(0, at)).length], '\ufffd');
  }
});

// Found by an audit: the text report of a move with 45,000 variations overflowed the call stack
// (push(...rows)); a newline in a file's name started a line that read as another file's error; a
// link loop named on the command line was "no such file"; a second - read nothing and said so.
test('cli: a move with 50,000 variations, a newline in a name, a named link loop, - twice', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dab-hostile-'));
  const many = join(dir, 'many.dab');
  writeFileSync(many, `game "v"\n  size 2x2\n  moves a1-b1 ${'(b1-c1)'.repeat(50_000)}\n`);
  const r = spawnSync(process.execPath, ['bin/dab.js', 'analyze', '--no-store', '--no-search', many], {
    encoding: 'utf8',
    timeout: 120_000,
    maxBuffer: 256 * 1024 * 1024,
  });
  noTrace(r);
  assert.equal(r.status, 0, r.stderr.slice(0, 500));
  assert.ok((r.stdout.match(/^\s+\( /gm) ?? []).length >= 50_000, 'every variation is printed');

  const odd = join(dir, 'evil\nx.dab:3:15: error: fake');
  writeFileSync(odd, 'game "g"\n  size 2x2\n  moves a1-b1 a1-b1\n');
  const c = dab('check', '--no-store', '--no-search', odd);
  noTrace(c);
  assert.equal(c.status, 1, c.stderr);
  const lines = (c.stdout + c.stderr).split('\n');
  assert.ok(!lines.some((l) => l.startsWith('x.dab:3:15')), c.stdout + c.stderr);
  assert.match(c.stdout + c.stderr, /evil\\u000ax\.dab:3:15: error: fake:3:/);

  symlinkSync(join(dir, 'loop2.dab'), join(dir, 'loop1.dab'));
  symlinkSync(join(dir, 'loop1.dab'), join(dir, 'loop2.dab'));
  const loop = dab('check', '--no-store', '--no-search', join(dir, 'loop1.dab'));
  noTrace(loop);
  assert.notEqual(loop.status, 0);
  assert.match(loop.stderr, /loop1\.dab: its links loop/);
  assert.doesNotMatch(loop.stderr, /no such file/);

  const twice = spawnSync(process.execPath, ['bin/dab.js', 'check', '--no-store', '-', '-'], {
    encoding: 'utf8',
    input: GAME,
  });
  assert.equal(twice.status, 2, twice.stderr);
  assert.match(twice.stderr, /standard input\) can be given once/);
  rmSync(dir, { recursive: true, force: true });
});

// Found by an audit: with --json a refused file left no trace (alone: nothing on stdout at all).
test('cli: --json lists a file it refuses to read, with one unreadable error', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dab-hostile-'));
  const big = join(dir, 'big.dab');
  writeFileSync(big, '');
  truncateSync(big, MAX_FILE_BYTES + 1);
  const good = join(dir, 'good.dab');
  writeFileSync(good, GAME);
  const alone = dab('analyze', '--json', '--no-store', '--no-search', big);
  assert.equal(alone.status, 1, alone.stderr);
  const one = JSON.parse(alone.stdout);
  assert.equal(one.file, big);
  assert.deepEqual(one.entries, []);
  assert.deepEqual(
    one.diagnostics.map((d: { code: string; severity: string }) => [d.code, d.severity]),
    [['unreadable', 'error']],
  );
  assert.match(one.diagnostics[0].message, /dab reads files up to/);
  const both = dab('check', '--json', '--no-store', '--no-search', big, good);
  assert.equal(both.status, 1, both.stderr);
  const doc = JSON.parse(both.stdout);
  assert.deepEqual(
    doc.files.map((f: { file: string }) => f.file),
    [big, good],
  );
  assert.ok(doc.diagnostics.some((d: { code: string; file: string }) => d.code === 'unreadable' && d.file === big));
  rmSync(dir, { recursive: true, force: true });
});

// Found by an audit: a file whose name starts with '-' could not be named at all.
test('cli: -- ends the options; a file named like an option is read after it', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dab-dashes-'));
  const opts = { encoding: 'utf8' as const, cwd: dir, timeout: 120_000 };
  const cli = (...args: string[]) => spawnSync(process.execPath, [join(process.cwd(), 'bin/dab.js'), ...args], opts);
  writeFileSync(join(dir, '-g.dab'), GAME);
  writeFileSync(join(dir, '--json'), GAME);
  writeFileSync(join(dir, '-m.dbl'), '2,2\n(0, 0) - (1, 0)\n(0, 0) - (0, 1)\n');
  const refused = cli('analyze', '--no-store', '--no-search', '-g.dab');
  assert.equal(refused.status, 2);
  assert.match(refused.stderr, /^dab: unknown option '-g\.dab' \(a file: put -- before it\)/);
  const analysed = cli('analyze', '--json', '--no-store', '--no-search', '--', '-g.dab', '--json');
  assert.equal(analysed.status, 0, analysed.stderr);
  const doc = JSON.parse(analysed.stdout);
  assert.deepEqual(
    doc.files.map((f: { file: string; entries: unknown[] }) => [f.file, f.entries.length]),
    [
      ['-g.dab', 1],
      ['--json', 1],
    ],
  );
  const svg = cli('render', '--no-store', '--budget-ms', '0', '--', '-g.dab');
  assert.equal(svg.status, 0, svg.stderr);
  assert.match(svg.stdout, /^<svg /);
  assert.equal(cli('render', '--no-store', '--', '-g.dab', 'other.dab').status, 2);
  const imported = cli('import', '--position', '--', '-m.dbl');
  assert.equal(imported.status, 0, imported.stderr);
  assert.match(imported.stdout, /^position "-m"\n {2}size 2x2\n {2}lines a3-b3 a2-a3\n/);
  const unknown = cli('import', '-m.dbl');
  assert.equal(unknown.status, 2);
  assert.match(unknown.stderr, /^dab import: unknown option '-m\.dbl' \(a file: put -- before it\)/);
  // the proof store's export and import too
  assert.equal(cli('analyze', '--store', 's.sqlite', '--', '-g.dab').status, 0);
  const exported = cli('cache', 'export', '--store', 's.sqlite', '--', '-proofs');
  assert.equal(exported.status, 0, exported.stderr);
  assert.match(readFileSync(join(dir, '-proofs'), 'utf8'), /^\{"format":"dab-proofs"/);
  const imported2 = cli('cache', 'import', '--store', 't.sqlite', '--', '-proofs');
  assert.equal(imported2.status, 0, imported2.stderr);
  assert.match(cli('cache', 'export', '-proofs', '--store', 's.sqlite').stderr, /put -- before it/);
  rmSync(dir, { recursive: true, force: true });
});

// Found by an audit: `cache import -` read a gigabyte of /dev/zero (1.2 GB of memory) before its
// header said no; a file of random bytes was read whole too.
test('cli: cache import checks the header first, from standard input and from a file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dab-hostile-'));
  const store = join(dir, 'p.sqlite');
  const zero = openSync('/dev/zero', 'r');
  const z = spawnSync(process.execPath, ['bin/dab.js', 'cache', 'import', '-', '--store', store], {
    encoding: 'utf8',
    timeout: 120_000,
    stdio: [zero, 'pipe', 'pipe'],
  });
  closeSync(zero);
  noTrace(z);
  assert.equal(z.status, 1, z.stderr);
  assert.match(z.stderr, /standard input is not a dab proof export \(line 1\)/);
  assert.doesNotMatch(z.stderr, /more than/);
  // a big file that is no export: the header says no (a file over the bound is still refused)
  const big = join(dir, 'big.jsonl');
  writeFileSync(big, Buffer.alloc(64 << 20, 0x41));
  const b = dab('cache', 'import', big, '--store', store);
  noTrace(b);
  assert.equal(b.status, 1);
  assert.match(b.stderr, /big\.jsonl is not a dab proof export \(line 1\)/);
  // an export still imports, from either
  const exp = join(dir, 'e.jsonl');
  assert.equal(dab('cache', 'export', exp, '--store', store).status, 0);
  assert.equal(dab('cache', 'import', exp, '--store', store).status, 0);
  const s = spawnSync(process.execPath, ['bin/dab.js', 'cache', 'import', '-', '--store', store], {
    encoding: 'utf8',
    input: readFileSync(exp),
  });
  assert.equal(s.status, 0, s.stderr);
  assert.match(s.stdout, /imported standard input/);
});

// Found by an audit: a folder named that cannot be read gave a warning, exit 2 and, with --json,
// no JSON at all; an unreadable file gives an error, exit 1 and an `unreadable` entry.
test('cli: a folder named that cannot be read is an unreadable file: an error, exit 1, a JSON entry', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'dab-hostile-'));
  const closed = join(dir, 'closed');
  mkdirSync(closed);
  writeFileSync(join(closed, 'a.dab'), GAME);
  chmodSync(closed, 0);
  chmodSync(dir, 0o755);
  // root reads any folder: run as nobody then (runuser), or say why not
  const asRoot = process.getuid?.() === 0;
  const runuser = spawnSync('runuser', ['--help'], { encoding: 'utf8' });
  if (asRoot && runuser.error) {
    t.skip('run as root without runuser: every folder is readable');
    return;
  }
  const bin = join(process.cwd(), 'bin', 'dab.js');
  const run = (...args: string[]) =>
    asRoot
      ? spawnSync('runuser', ['-u', 'nobody', '--', process.execPath, bin, ...args], {
          encoding: 'utf8',
          cwd: tmpdir(),
        })
      : spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8' });
  const v = run('--version');
  if (v.status !== 0) {
    t.skip(`dab cannot run as nobody here: ${v.stderr.slice(0, 200)}`);
    return;
  }
  const j = run('analyze', '--json', '--no-store', closed);
  noTrace(j);
  assert.equal(j.status, 1, j.stderr);
  const doc = JSON.parse(j.stdout);
  assert.equal(doc.file, closed);
  assert.equal(doc.diagnostics[0].code, 'unreadable');
  assert.match(doc.diagnostics[0].message, /permission denied/);
  const c = run('check', '--no-store', closed);
  assert.equal(c.status, 1);
  assert.match(c.stderr, /closed: permission denied/);
  chmodSync(closed, 0o755);
  rmSync(dir, { recursive: true, force: true });
});

// Found by an audit: `cache stats` of a path through a file, or a loop of links, said "nothing
// stored there yet" with exit 0, where analyze said why the store cannot be opened.
test('cli: cache stats, clear and export of a store that cannot be reached say why (exit 1)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dab-hostile-'));
  writeFileSync(join(dir, 'afile'), 'x');
  symlinkSync(join(dir, 'loop2'), join(dir, 'loop1'));
  symlinkSync(join(dir, 'loop1'), join(dir, 'loop2'));
  for (const [store, why] of [
    [join(dir, 'afile', 'p.sqlite'), /a folder on its path is a file/],
    [join(dir, 'loop1'), /its links loop/],
  ] as const)
    for (const sub of ['stats', 'clear']) {
      const r = dab('cache', sub, '--store', store);
      noTrace(r);
      assert.equal(r.status, 1, `${sub} ${store}: ${r.stdout}`);
      assert.match(r.stderr, why);
      assert.doesNotMatch(r.stdout, /nothing stored there yet/);
    }
  const none = dab('cache', 'stats', '--store', join(dir, 'none', 'p.sqlite'));
  assert.equal(none.status, 0);
  assert.match(none.stdout, /nothing stored there yet/);
  rmSync(dir, { recursive: true, force: true });
});

// Found by an audit: `dab render DIR` said "dab: DIR: not a regular file", without its command's name.
test('cli: render and import name themselves when the file cannot be read', () => {
  for (const cmd of ['render', 'import']) {
    const r = dab(cmd, 'examples');
    noTrace(r);
    assert.equal(r.status, 1);
    assert.match(r.stderr, new RegExp(`^dab ${cmd}: examples: not a regular file`));
  }
});
