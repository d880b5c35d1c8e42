// Huge pages (shared/hugePages.ts, cli/relaunch.ts): when a process is started with the glibc
// tunable, and that the CLI's second process really has it, gives the same answers, passes its
// exit code and signals on, and dies with its parent.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  HUGE_PAGES_SWITCH,
  hugePageEnv,
  hugePageSupport,
  hugePagesOn,
  withoutHugePages,
  type HugePageSupport,
} from '../../shared/hugePages';
import { PARENT_VARIABLE, WATCH_MS } from '../../server/src/relaunch';
import { LspTestClient } from '../protocol/lspClient';

const linux: HugePageSupport = { platform: 'linux', thpMode: 'madvise', glibc: '2.36' };

test('huge pages: the tunable is added only where it changes something', () => {
  const on = hugePageEnv({ PATH: '/bin' }, linux);
  assert.equal(on?.GLIBC_TUNABLES, 'glibc.malloc.hugetlb=1');
  assert.equal(on?.PATH, '/bin');
  assert.ok(hugePagesOn(on));
  // other tunables are kept, in front
  assert.equal(
    hugePageEnv({ GLIBC_TUNABLES: 'glibc.malloc.arena_max=2' }, linux)?.GLIBC_TUNABLES,
    'glibc.malloc.arena_max=2:glibc.malloc.hugetlb=1',
  );
  // the user's own choice either way stands
  assert.equal(hugePageEnv({ GLIBC_TUNABLES: 'glibc.malloc.hugetlb=0' }, linux), undefined);
  assert.equal(hugePageEnv({ GLIBC_TUNABLES: 'glibc.malloc.hugetlb=1' }, linux), undefined);
  assert.equal(hugePageEnv({ [HUGE_PAGES_SWITCH]: '0' }, linux), undefined);
  assert.ok(hugePageEnv({ [HUGE_PAGES_SWITCH]: '1' }, linux));
  // nothing to gain: THP always on or off, old glibc or none, not Linux
  for (const s of [
    { ...linux, thpMode: 'always' },
    { ...linux, thpMode: 'never' },
    { ...linux, thpMode: undefined },
    { ...linux, glibc: '2.34' },
    { ...linux, glibc: undefined },
    { ...linux, platform: 'darwin' as const },
    { ...linux, platform: 'win32' as const },
  ])
    assert.equal(hugePageEnv({}, s), undefined, JSON.stringify(s));
  assert.ok(hugePageEnv({}, { ...linux, glibc: '3.0' }));
  assert.ok(hugePageEnv({}, { ...linux, glibc: '2.40' }));
  assert.ok(!hugePagesOn({ GLIBC_TUNABLES: 'glibc.malloc.hugetlb=0' }));
  // and back, as a user would start a process
  assert.deepEqual(withoutHugePages(on!), { PATH: '/bin' });
  assert.deepEqual(withoutHugePages({ GLIBC_TUNABLES: 'a=1:glibc.malloc.hugetlb=1' }), { GLIBC_TUNABLES: 'a=1' });
});

const root = join(__dirname, '..', '..');
const dab = join(root, 'bin', 'dab.js');
const here = hugePageEnv({}, hugePageSupport()) !== undefined;
const why = here
  ? false
  : 'this machine offers no huge pages on request (not Linux with THP "madvise" and glibc >= 2.35)';
if (!here) console.log(`# huge pages: CLI relaunch tests skipped: ${why}`);

/** A 5x5 record whose early positions keep the solver busy for seconds. */
function busyRecord(): string {
  const dir = mkdtempSync(join(tmpdir(), 'dab-huge-'));
  const file = join(dir, 'busy.dab');
  writeFileSync(file, 'game "busy"\nsize 5x5\nmoves: c3-d3 b2-b3\n');
  return file;
}

/** The processes whose parent is `pid` (from /proc/PID/stat: the field after the state is the parent). */
const children = (pid: number): number[] =>
  readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .filter((d) => {
      try {
        const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid;
      } catch {
        return false;
      }
    })
    .map(Number);
const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until(what: () => boolean, ms: number): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await sleep(20)) if (what()) return true;
  return what();
}

test('huge pages: the CLI answers the same with and without, and passes its exit code on', { skip: why }, () => {
  const file = join(root, 'examples', 'chains.dab');
  const runs = ['1', '0'].map((v) =>
    spawnSync(process.execPath, [dab, 'analyze', '--json', '--no-store', file], {
      encoding: 'utf8',
      env: { ...process.env, [HUGE_PAGES_SWITCH]: v },
    }),
  );
  assert.equal(runs[0].status, runs[1].status);
  const strip = (s: string) => JSON.parse(s, (k, v) => (k === 'ms' || k === 'nodes' ? 0 : v));
  assert.deepEqual(strip(runs[0].stdout), strip(runs[1].stdout));
  const bad = spawnSync(process.execPath, [dab, 'analyze', '/no/such/file.dab'], { encoding: 'utf8' });
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /no such file/);
});

// Found when the whole suite ran under load: SIGTERM reached the first process between its spawn of
// the second and its handlers, so it died alone, and the second one, whose parent was gone before it
// looked, did not watch and worked on as an orphan.
test('huge pages: a second process whose first one is gone before it starts ends at once', { skip: why }, () => {
  const r = spawnSync(process.execPath, [dab, 'analyze', '--no-store', busyRecord()], {
    encoding: 'utf8',
    env: { ...process.env, [PARENT_VARIABLE]: '1' }, // a first process that is not its parent
    timeout: 20_000,
  });
  assert.equal(r.signal, 'SIGKILL', `status ${r.status}, signal ${r.signal}`);
});

test(
  'huge pages: the second process has the tunable and its table on 2 MiB pages; it dies with its parent',
  { skip: why },
  async () => {
    const file = busyRecord();
    for (const signal of ['SIGKILL', 'SIGTERM'] as const) {
      const p = spawn(process.execPath, [dab, 'analyze', '--no-store', '--table-mb', '64', file], { stdio: 'ignore' });
      let child = 0;
      assert.ok(await until(() => (child = children(p.pid!)[0] ?? 0) > 0, 5000), 'the second process starts');
      // seen between its fork and its exec, the second process still has the first one's environment
      const environ = () => readFileSync(`/proc/${child}/environ`, 'utf8').split('\0');
      assert.ok(
        await until(() => environ().includes('GLIBC_TUNABLES=glibc.malloc.hugetlb=1'), 5000),
        environ().join(' '),
      );
      if (signal === 'SIGKILL') {
        const huge = () =>
          Number(/AnonHugePages:\s+(\d+)/.exec(readFileSync(`/proc/${child}/smaps_rollup`, 'utf8'))?.[1] ?? 0);
        assert.ok(await until(() => huge() >= 32 * 1024, 8000), `AnonHugePages ${huge()} kB`);
      }
      const ended = new Promise<NodeJS.Signals | null>((r) => p.on('exit', (_c, s) => r(s)));
      p.kill(signal);
      assert.equal(await ended, signal);
      assert.ok(await until(() => !alive(child), 10 * WATCH_MS + 2000), `the second process ends after ${signal}`);
    }
  },
);

test(
  'huge pages: the language server over stdio runs in a second process with the tunable, answers, and ends with its exit code',
  { skip: why },
  async () => {
    const client = new LspTestClient({}, join(root, 'bin', 'dab-language-server.js'));
    const init = await client.initialize();
    assert.ok(init.capabilities.hoverProvider);
    const parent = client.process.pid!;
    const child = children(parent)[0];
    assert.ok(child, 'the second process runs');
    assert.ok(
      readFileSync(`/proc/${child}/environ`, 'utf8').split('\0').includes('GLIBC_TUNABLES=glibc.malloc.hugetlb=1'),
    );
    const uri = client.open('e.dab', 'endgame "e"\ncomponents: 3 + 4l\n');
    const h = await client.request('textDocument/hover', {
      textDocument: { uri },
      position: { line: 1, character: 14 },
    });
    assert.match(JSON.stringify(h), /value/i);
    const ended = new Promise<number | null>((r) => client.process.on('exit', (c) => r(c)));
    await client.shutdown();
    assert.equal(await ended, 0, 'the exit notification ends both with code 0');
    assert.ok(await until(() => !alive(child), 2000), 'the second process has ended');
  },
);

test('huge pages: a CLI being debugged (--inspect) is not started again', { skip: why }, async () => {
  const p = spawn(process.execPath, ['--inspect=0', dab, 'analyze', '--no-store', busyRecord()], { stdio: 'ignore' });
  try {
    await sleep(1500);
    assert.ok(alive(p.pid!), 'it runs');
    assert.deepEqual(children(p.pid!), [], 'no second process');
  } finally {
    p.kill('SIGKILL');
  }
});
