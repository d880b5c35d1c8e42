/**
 * Another editor's LSP client: Neovim's own (Debian's `neovim` 0.7, installed by .ci/run), headless,
 * set up by the README's Neovim 0.7 block word for word, starts the real server
 * (bin/dab-language-server.js --stdio) on a record. What it receives is checked against
 * the brute force: the diagnostics (one per move that gives away at least the set-up's minLoss boxes, with that many boxes),
 * the hover on a mistake and on an optimal move, the document's symbol and lens; then an edit made
 * in Neovim's buffer (sent as Neovim sends changes) must bring the diagnostics of the new record.
 * Without `nvim` it fails and says so (.ci/run installs it); DAB_SKIP_NEOVIM=1 skips it, saying so.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { geometryOf } from '../../server/src/engine/board/geometry';
import { BoardState } from '../../server/src/engine/board/state';
import { bruteForce } from '../../server/src/engine/solver';
import { plausibleGame } from '../support/boards';
import { lcg } from '../support/random';

const W = 3,
  H = 2;
const SERVER = resolve(__dirname, '../../bin/dab-language-server.js');

/** Boxes each move of `lines` gives away (brute force: the position's value less the move's). */
function lossesOf(lines: number[]): number[] {
  const s = new BoardState(geometryOf(W, H));
  return lines.map((l) => {
    const r = bruteForce(s);
    const loss = r.value - r.moveValues[l]!;
    s.play(l);
    return loss;
  });
}

/** Neovim's view of the server, written by the Lua script below as JSON. */
interface NvimReport {
  before: { line: number; character: number; message: string }[];
  after: { line: number; character: number; message: string }[];
  hoverMistake: string;
  hoverOptimal: string;
  symbols: string[];
  lenses: string[];
  publishes: number;
  attached: number;
}

/**
 * The README's Neovim 0.7 set-up, word for word (the block after "Neovim 0.7 has no `vim.lsp.start`"),
 * with the real paths: what a reader pastes is what runs here.
 */
function readmeSetup(): { lua: string; minLoss: number } {
  const readme = readFileSync(resolve(__dirname, '../../README.md'), 'utf8');
  const at = readme.indexOf('Neovim 0.7 has no `vim.lsp.start`');
  const block = /```lua\n([\s\S]*?)```/.exec(readme.slice(at));
  assert.ok(at >= 0 && block, 'README.md has no Neovim 0.7 set-up block');
  assert.ok(
    block[1].includes("'/path/to/dab/bin/dab-language-server.js'"),
    'the README block names the server as before',
  );
  const minLoss = Number(/minLoss = (\d+)/.exec(block[1])?.[1] ?? 1);
  const lua = block[1]
    .replace("'node'", luaString(process.execPath))
    .replace("'/path/to/dab/bin/dab-language-server.js'", luaString(SERVER));
  return { lua, minLoss };
}

const luaString = (x: string) => JSON.stringify(x);

/** Before the user's init.lua (--cmd): counts the diagnostics' changes from the start. */
const WATCH = String.raw`
_G.dab_watch = { publishes = 0, last = 0 }
vim.api.nvim_create_autocmd('DiagnosticChanged', { callback = function()
  _G.dab_watch.publishes = _G.dab_watch.publishes + 1
  _G.dab_watch.last = vim.loop.now()
end })
`;

/** After the README's set-up has opened the record (-c): ask, edit, and write what was seen. */
const PROBE = String.raw`
local args = vim.g.dab_args
local w = _G.dab_watch
local out = {}
local buf = vim.api.nvim_get_current_buf()
-- quiet: diagnostics changed since 'since', then nothing new for 1.5 s (at most 60 s)
local function settle(since)
  vim.wait(60000, function() return w.publishes > since and vim.loop.now() - w.last > 1500 end, 100)
  local r = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    table.insert(r, { line = d.lnum, character = d.col, message = d.message })
  end
  return r
end
out.before = settle(0)
out.attached = #vim.lsp.buf_get_clients(buf)
local uri = vim.uri_from_bufnr(buf)
local function hover(ch)
  local res = vim.lsp.buf_request_sync(buf, 'textDocument/hover', { textDocument = { uri = uri }, position = { line = 2, character = ch } }, 20000)
  for _, r in pairs(res or {}) do
    if r.result and r.result.contents then return r.result.contents.value or '' end
  end
  return ''
end
out.hoverMistake = hover(args.mistakeChar)
out.hoverOptimal = hover(args.optimalChar)
out.symbols = {}
for _, r in pairs(vim.lsp.buf_request_sync(buf, 'textDocument/documentSymbol', { textDocument = { uri = uri } }, 20000) or {}) do
  for _, s in ipairs(r.result or {}) do table.insert(out.symbols, s.name) end
end
out.lenses = {}
for _, r in pairs(vim.lsp.buf_request_sync(buf, 'textDocument/codeLens', { textDocument = { uri = uri } }, 20000) or {}) do
  for _, l in ipairs(r.result or {}) do table.insert(out.lenses, l.command and l.command.title or '') end
end
-- the edit, as a user makes it: the moves from args.editFrom on replaced by one move
local n = w.publishes
local line = vim.api.nvim_buf_get_lines(buf, 2, 3, true)[1]
vim.api.nvim_buf_set_text(buf, 2, args.editFrom, 2, #line, { args.replacement })
out.after = settle(n)
out.publishes = w.publishes
vim.fn.writefile({ vim.fn.json_encode(out) }, args.out)
vim.cmd('qa!')
`;

function nvimVersion(): string | undefined {
  const r = spawnSync('nvim', ['--version'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.split('\n')[0] : undefined;
}

test("Neovim's LSP client gets the diagnostics, hovers, symbols and lenses the brute force expects", (t) => {
  const version = nvimVersion();
  if (process.env.DAB_SKIP_NEOVIM === '1') {
    t.skip('DAB_SKIP_NEOVIM=1: the Neovim client test did not run');
    return;
  }
  assert.ok(
    version !== undefined,
    'nvim is not installed: `apt-get install neovim` (.ci/run does), or DAB_SKIP_NEOVIM=1 to skip this test',
  );
  const setup = readmeSetup();
  // a record with at least two mistakes the set-up shows (minLoss) and an optimal move among its first moves
  let lines: number[] = [],
    losses: number[] = [];
  for (let seed = 1; seed < 200; seed++) {
    lines = plausibleGame(W, H, lcg(seed));
    losses = lossesOf(lines);
    if (losses.filter((x) => x >= setup.minLoss).length >= 2 && losses.slice(0, 6).includes(0)) break;
  }
  const g = geometryOf(W, H);
  const names = lines.map((l) => g.lineName(l));
  const prefix = '  moves ';
  const charOf = (k: number) => prefix.length + names.slice(0, k).join(' ').length + (k > 0 ? 1 : 0);
  // the edit: keep the moves before the first mistake, then play the worst move there
  const cut = losses.findIndex((x) => x >= setup.minLoss);
  const s = new BoardState(g);
  for (const l of lines.slice(0, cut)) s.play(l);
  const bf = bruteForce(s);
  let worst = -1;
  for (const l of s.undrawnLines()) if (worst < 0 || bf.moveValues[l]! < bf.moveValues[worst]!) worst = l;
  const newLines = [...lines.slice(0, cut), worst];
  const newLosses = lossesOf(newLines);

  const dir = mkdtempSync(join(tmpdir(), 'dab-nvim-'));
  try {
    const file = join(dir, 'game.dab');
    writeFileSync(file, `game "neovim"\n  size ${W}x${H}\n${prefix}${names.join(' ')}\n`);
    // as a user has it: the set-up in the config directory's nvim/init.lua, the record opened by name
    mkdirSync(join(dir, 'config', 'nvim'), { recursive: true });
    writeFileSync(join(dir, 'config', 'nvim', 'init.lua'), setup.lua);
    writeFileSync(join(dir, 'watch.lua'), WATCH);
    writeFileSync(join(dir, 'probe.lua'), PROBE);
    const args = {
      out: join(dir, 'out.json'),
      mistakeChar: charOf(cut) + 1,
      optimalChar: charOf(losses.indexOf(0)) + 1,
      editFrom: charOf(cut) - (cut > 0 ? 1 : 0),
      replacement: (cut > 0 ? ' ' : '') + g.lineName(worst),
    };
    const xdg = (name: string) => join(dir, name);
    const r = spawnSync(
      'nvim',
      [
        '--headless',
        '--cmd',
        `let g:dab_args = json_decode('${JSON.stringify(args).replace(/'/g, "''")}')`,
        '--cmd',
        `luafile ${join(dir, 'watch.lua')}`,
        file,
        '-c',
        `luafile ${join(dir, 'probe.lua')}`,
      ],
      {
        cwd: dir,
        encoding: 'utf8',
        timeout: 150_000,
        env: {
          ...process.env,
          XDG_CONFIG_HOME: xdg('config'),
          XDG_DATA_HOME: xdg('data'),
          XDG_CACHE_HOME: xdg('cache'),
          XDG_STATE_HOME: xdg('state'),
          DAB_STORE: 'off',
        },
      },
    );
    assert.equal(r.status, 0, `nvim (${version}) failed: ${r.stderr}${r.error ?? ''}`);
    const got = JSON.parse(readFileSync(args.out, 'utf8')) as NvimReport;

    const expect = (ls: number[]) =>
      ls.flatMap((loss, k) => (loss >= setup.minLoss ? [{ character: charOf(k), loss }] : []));
    const seen = (ds: NvimReport['before']) =>
      ds
        .filter((d) => d.line === 2)
        .map((d) => ({ character: d.character, loss: Number(/gives away (\d+) box/.exec(d.message)?.[1] ?? NaN) }))
        .sort((a, b) => a.character - b.character);
    assert.deepEqual(
      seen(got.before),
      expect(losses),
      `diagnostics in Neovim (${version}): ${JSON.stringify(got.before)}`,
    );
    assert.deepEqual(seen(got.after), expect(newLosses), `diagnostics after the edit: ${JSON.stringify(got.after)}`);
    assert.match(
      got.hoverMistake,
      new RegExp(`${cut + 1}\\. [^\\n]*${names[cut]}[\\s\\S]*gives away ${losses[cut]} box`),
    );
    assert.match(got.hoverOptimal, /an optimal move/);
    assert.equal(got.attached, 1, 'the README set-up attached the server to the buffer');
    assert.deepEqual(got.symbols, ['game "neovim"']);
    assert.ok(got.lenses.length >= 1 && got.lenses.every((x) => x.length > 0), `lenses: ${JSON.stringify(got.lenses)}`);
    t.diagnostic(
      `${version}: ${got.publishes} publications, ${got.before.length} then ${got.after.length} diagnostics; hover: ${got.hoverMistake.split('\n')[0]}; lens: ${got.lenses[0]}`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
