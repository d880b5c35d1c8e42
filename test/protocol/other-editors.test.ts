/**
 * Other editors' own LSP clients, set up by the README's blocks word for word (with the real
 * paths): Neovim 0.7's (`nvim --headless`) and Emacs 28's Eglot (`emacs --batch`), Debian's
 * `neovim`, `emacs-nox` and `elpa-eglot`, which .ci/run installs. Each opens a record, and what it
 * receives from the real server (bin/dab-language-server.js --stdio) is checked against the brute
 * force: the diagnostics (one per move giving away at least the block's minLoss, with that many
 * boxes; a smaller mistake gets none, so the block's settings reached the server), the hover on a
 * mistake and on an optimal move, the document's symbol and lenses; then an edit made in the
 * editor's buffer, sent as the editor sends changes, must bring the diagnostics of the new record.
 * Neovim also runs the README's cursor and code lens blocks: with the cursor resting on a move, it
 * shows the lenses, and no block raises an error.
 * Without the editor a test fails and says so; DAB_SKIP_NEOVIM=1 / DAB_SKIP_EMACS=1 skip one, saying so.
 */
import { test, type TestContext } from 'node:test';
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
const PREFIX = '  moves ';

/** What an editor's client saw, written by its probe script as JSON. */
interface EditorReport {
  before: { line: number; character: number; message: string }[];
  after: { line: number; character: number; message: string }[];
  hoverMistake: string;
  hoverOptimal: string;
  symbols: string[];
  lenses: string[];
  publishes: number;
  attached: number;
  /** Neovim: the lenses it shows after the README's refresh on CursorHold, and its last error message. */
  shownLenses?: string[];
  errmsg?: string;
}

/** The probe's instructions: where to write, where to hover, the edit to make on the moves line (line 2). */
interface ProbeArgs {
  out: string;
  mistakeChar: number;
  optimalChar: number;
  editFrom: number;
  replacement: string;
  /** Diagnostics the record should get before and after the edit: the probe waits for as many (then reports what it has). */
  expectBefore: number;
  expectAfter: number;
}

/** The README's code block after `marker` (the first ```` ```fence ```` block there), as written. */
function readmeCode(marker: string, fence: string): string {
  const readme = readFileSync(resolve(__dirname, '../../README.md'), 'utf8');
  const at = readme.indexOf(marker);
  const block = new RegExp('```' + fence + '\\n([\\s\\S]*?)```').exec(readme.slice(at));
  assert.ok(at >= 0 && block, `README.md has no ${fence} block after "${marker}"`);
  return block[1];
}

/** The README's set-up block after `marker`, with the real node and server paths, and the minLoss it sets. */
function readmeSetup(marker: string, fence: string): { code: string; minLoss: number } {
  const block = readmeCode(marker, fence);
  assert.ok(block.includes('/path/to/dab/bin/dab-language-server.js'), 'the README block names the server as before');
  const minLoss = Number(/minLoss\W+(\d+)/.exec(block)?.[1]);
  assert.ok(minLoss > 2, 'the README block sets a minLoss that leaves out some mistakes (losses are even)');
  const code = block
    .replace(/(['"])node\1/, (_, q: string) => q + process.execPath + q)
    .replace('/path/to/dab/bin/dab-language-server.js', SERVER);
  return { code, minLoss };
}

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

/** The diagnostics a record should get: one per move giving away at least minLoss, at its start on the moves line (2). */
function flagged(losses: number[], minLoss: number, charOf: (k: number) => number) {
  return losses.flatMap((loss, k) => (loss >= minLoss ? [{ line: 2, character: charOf(k), loss }] : []));
}

/**
 * A record with two mistakes of at least minLoss, one smaller one and an optimal move among its
 * first moves; the edit keeps the moves before its first big mistake and plays the worst move there.
 */
function editorCase(title: string, minLoss: number) {
  let lines: number[] = [],
    losses: number[] = [];
  for (let seed = 1; ; seed++) {
    assert.ok(seed < 500, 'no record fits');
    lines = plausibleGame(W, H, lcg(seed));
    losses = lossesOf(lines);
    const big = losses.filter((x) => x >= minLoss).length,
      small = losses.filter((x) => x > 0 && x < minLoss).length;
    if (big >= 2 && small >= 1 && losses.slice(0, 6).includes(0)) break;
  }
  const g = geometryOf(W, H);
  const names = lines.map((l) => g.lineName(l));
  const charOf = (k: number) => PREFIX.length + names.slice(0, k).join(' ').length + (k > 0 ? 1 : 0);
  const cut = losses.findIndex((x) => x >= minLoss);
  const s = new BoardState(g);
  for (const l of lines.slice(0, cut)) s.play(l);
  const bf = bruteForce(s);
  let worst = -1;
  for (const l of s.undrawnLines()) if (worst < 0 || bf.moveValues[l]! < bf.moveValues[worst]!) worst = l;
  const newLosses = lossesOf([...lines.slice(0, cut), worst]);
  const args: Omit<ProbeArgs, 'out'> = {
    mistakeChar: charOf(cut) + 1,
    optimalChar: charOf(losses.indexOf(0)) + 1,
    editFrom: charOf(cut) - (cut > 0 ? 1 : 0),
    replacement: (cut > 0 ? ' ' : '') + g.lineName(worst),
    expectBefore: flagged(losses, minLoss, charOf).length,
    expectAfter: flagged(newLosses, minLoss, charOf).length,
  };
  return {
    text: `game "${title}"\n  size ${W}x${H}\n${PREFIX}${names.join(' ')}\n`,
    names,
    losses,
    newLosses,
    cut,
    charOf,
    args,
  };
}

/** The editor's version line, or the test skips (its DAB_SKIP_… set) or fails (not installed). */
function editorVersion(t: TestContext, cmd: string, skipVar: string, install: string): string | undefined {
  if (process.env[skipVar] === '1') {
    t.skip(`${skipVar}=1: the ${cmd} client test did not run`);
    return undefined;
  }
  const r = spawnSync(cmd, ['--version'], { encoding: 'utf8' });
  assert.ok(
    r.status === 0,
    `${cmd} is not installed: \`apt-get install ${install}\` (.ci/run does), or ${skipVar}=1 to skip this test`,
  );
  return r.stdout.split('\n')[0];
}

/** Runs an editor on a case in a fresh directory; `run` starts it and returns its spawnSync result. */
function runEditor(
  title: string,
  minLoss: number,
  run: (dir: string, file: string, args: ProbeArgs) => ReturnType<typeof spawnSync>,
) {
  const c = editorCase(title, minLoss);
  const dir = mkdtempSync(join(tmpdir(), `dab-${title}-`));
  try {
    const file = join(dir, 'game.dab');
    writeFileSync(file, c.text);
    const args = { ...c.args, out: join(dir, 'out.json') };
    const r = run(dir, file, args);
    assert.equal(r.status, 0, `${title} failed: ${r.stderr}${r.error ?? ''}`);
    return { c, got: JSON.parse(readFileSync(args.out, 'utf8')) as EditorReport };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Every check of what the editor saw against the brute force. */
function checkReport(t: TestContext, who: string, title: string, minLoss: number, run: ReturnType<typeof runEditor>) {
  const { c, got } = run;
  // every diagnostic, on the moves line (2) or not
  const expect = (ls: number[]) => flagged(ls, minLoss, c.charOf);
  const seen = (ds: EditorReport['before']) =>
    ds
      .map((d) => ({
        line: d.line,
        character: d.character,
        loss: Number(/gives away (\d+) box/.exec(d.message)?.[1] ?? NaN),
      }))
      .sort((a, b) => a.line - b.line || a.character - b.character);
  assert.equal(got.attached, 1, 'the README set-up attached the server to the buffer');
  assert.deepEqual(seen(got.before), expect(c.losses), `diagnostics in ${who}: ${JSON.stringify(got.before)}`);
  assert.deepEqual(seen(got.after), expect(c.newLosses), `diagnostics after the edit: ${JSON.stringify(got.after)}`);
  assert.match(
    got.hoverMistake,
    new RegExp(`${c.cut + 1}\\. [^\\n]*${c.names[c.cut]}[\\s\\S]*gives away ${c.losses[c.cut]} box`),
  );
  assert.match(got.hoverOptimal, /an optimal move/);
  assert.deepEqual(got.symbols, [`game "${title}"`]);
  assert.ok(got.lenses.length >= 1 && got.lenses.every((x) => x.length > 0), `lenses: ${JSON.stringify(got.lenses)}`);
  t.diagnostic(
    `${who}: ${got.publishes} publications, ${got.before.length} then ${got.after.length} diagnostics; hover: ${got.hoverMistake.split('\n')[0]}; lens: ${got.lenses[0]}`,
  );
}

/** Neovim: counts the diagnostics' changes from the start (--cmd, before the user's init.lua). */
const NVIM_WATCH = String.raw`
_G.dab_watch = { publishes = 0, last = 0 }
vim.api.nvim_create_autocmd('DiagnosticChanged', { callback = function()
  _G.dab_watch.publishes = _G.dab_watch.publishes + 1
  _G.dab_watch.last = vim.loop.now()
end })
`;

/** Neovim, after the README's set-up has opened the record (-c): ask, edit, and write what was seen. */
const NVIM_PROBE = String.raw`
local args = vim.g.dab_args
local w = _G.dab_watch
local out = {}
local buf = vim.api.nvim_get_current_buf()
-- quiet: diagnostics changed since 'since', as many as expected (a busy machine may publish some
-- before the others), then nothing new for 1.5 s (at most 60 s)
local function settle(since, expected)
  vim.wait(60000, function()
    return w.publishes > since and #vim.diagnostic.get(buf) == expected and vim.loop.now() - w.last > 1500
  end, 100)
  local r = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    table.insert(r, { line = d.lnum, character = d.col, message = d.message })
  end
  return r
end
out.before = settle(0, args.expectBefore)
out.attached = #vim.lsp.buf_get_clients(buf)
-- the cursor rests on a move: the README's CursorHold blocks send dab/cursor and refresh the lenses
vim.api.nvim_win_set_cursor(0, { 3, args.mistakeChar })
vim.cmd('doautocmd CursorHold')
vim.wait(10000, function() return #vim.lsp.codelens.get(buf) > 0 end, 100)
out.shownLenses = {}
for _, l in ipairs(vim.lsp.codelens.get(buf)) do table.insert(out.shownLenses, l.command and l.command.title or '') end
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
out.after = settle(n, args.expectAfter)
out.publishes = w.publishes
out.errmsg = vim.v.errmsg
vim.fn.writefile({ vim.fn.json_encode(out) }, args.out)
vim.cmd('qa!')
`;

/**
 * Emacs, after the README's set-up (-l): open the record, ask, edit, and write what was seen. In
 * batch mode no command loop runs, so what it would do is done here: the post-command hook (where
 * eglot-ensure connects) after opening the file, and Eglot's own change sender after the edit (its
 * idle timer never fires).
 */
const EMACS_PROBE = String.raw`
(require 'json)
(defvar dab-args (let ((json-object-type 'alist)) (json-read-file (getenv "DAB_PROBE_ARGS"))))
(defvar dab-publishes 0)
(defvar dab-last 0)
(advice-add 'eglot-handle-notification :before
            (lambda (_server method &rest _params)
              (when (eq method 'textDocument/publishDiagnostics)
                (setq dab-publishes (1+ dab-publishes) dab-last (float-time)))))
(find-file (getenv "DAB_PROBE_FILE"))
(run-hooks 'post-command-hook)
(defun dab-settle (since expected)
  (let ((end (+ (float-time) 60)))
    (while (and (< (float-time) end)
                (not (and (> dab-publishes since) (= (length (flymake-diagnostics)) expected)
                          (> (- (float-time) dab-last) 1.5))))
      (accept-process-output nil 0.1)))
  (vconcat (mapcar (lambda (d)
                     (save-excursion
                       (goto-char (flymake-diagnostic-beg d))
                       (list (cons 'line (1- (line-number-at-pos))) (cons 'character (current-column))
                             (cons 'message (flymake-diagnostic-text d)))))
                   (flymake-diagnostics))))
(defun dab-request (method params)
  (jsonrpc-request (eglot-current-server) method
                   (append (list :textDocument (eglot--TextDocumentIdentifier)) params)))
(defun dab-hover (ch)
  (let ((h (dab-request :textDocument/hover (list :position (list :line 2 :character ch)))))
    (or (plist-get (plist-get h :contents) :value) "")))
(let ((out nil))
  (push (cons 'before (dab-settle 0 (alist-get 'expectBefore dab-args))) out)
  (push (cons 'attached (if (eglot-current-server) 1 0)) out)
  (push (cons 'hoverMistake (dab-hover (alist-get 'mistakeChar dab-args))) out)
  (push (cons 'hoverOptimal (dab-hover (alist-get 'optimalChar dab-args))) out)
  (push (cons 'symbols (vconcat (mapcar (lambda (s) (plist-get s :name)) (dab-request :textDocument/documentSymbol nil)))) out)
  (push (cons 'lenses (vconcat (mapcar (lambda (l) (or (plist-get (plist-get l :command) :title) ""))
                                       (dab-request :textDocument/codeLens nil))))
        out)
  (let ((n dab-publishes))
    (goto-char (point-min))
    (forward-line 2)
    (let ((from (+ (point) (alist-get 'editFrom dab-args))))
      (delete-region from (line-end-position))
      (goto-char from)
      (insert (alist-get 'replacement dab-args)))
    (eglot--signal-textDocument/didChange)
    (push (cons 'after (dab-settle n (alist-get 'expectAfter dab-args))) out))
  (push (cons 'publishes dab-publishes) out)
  (with-temp-file (alist-get 'out dab-args) (insert (json-encode out))))
(kill-emacs 0)
`;

test("Neovim's LSP client, set up by the README, gets what the brute force expects", (t) => {
  const version = editorVersion(t, 'nvim', 'DAB_SKIP_NEOVIM', 'neovim');
  if (version === undefined) return;
  const setup = readmeSetup('Neovim 0.7 has no `vim.lsp.start`', 'lua');
  // and the README's two Neovim additions: the cursor notification and the code lens refresh
  const extras = [
    readmeCode('To follow the cursor itself in Neovim', 'lua'),
    readmeCode('Neovim shows code lenses', 'lua'),
  ];
  const run = runEditor('neovim', setup.minLoss, (dir, file, args) => {
    // as a user has it: the set-up in the config directory's nvim/init.lua, the record opened by name
    mkdirSync(join(dir, 'config', 'nvim'), { recursive: true });
    writeFileSync(join(dir, 'config', 'nvim', 'init.lua'), [setup.code, ...extras].join('\n'));
    writeFileSync(join(dir, 'watch.lua'), NVIM_WATCH);
    writeFileSync(join(dir, 'probe.lua'), NVIM_PROBE);
    const xdg = (name: string) => join(dir, name);
    return spawnSync(
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
  });
  checkReport(t, version, 'neovim', setup.minLoss, run);
  assert.deepEqual(run.got.shownLenses, run.got.lenses, 'Neovim shows the lenses after the README refresh');
  assert.equal(run.got.errmsg, '', 'no error from the README blocks');
});

test("Emacs's Eglot, set up by the README, gets what the brute force expects", (t) => {
  const version = editorVersion(t, 'emacs', 'DAB_SKIP_EMACS', 'emacs-nox elpa-eglot');
  if (version === undefined) return;
  const setup = readmeSetup('Emacs with Eglot', 'elisp');
  const run = runEditor('emacs', setup.minLoss, (dir, file, args) => {
    writeFileSync(join(dir, 'init.el'), setup.code);
    writeFileSync(join(dir, 'probe.el'), EMACS_PROBE);
    writeFileSync(join(dir, 'args.json'), JSON.stringify(args));
    // -q: no user init file (the set-up is loaded as one); Debian's site start still activates elpa-eglot
    return spawnSync('emacs', ['--batch', '-q', '-l', join(dir, 'init.el'), '-l', join(dir, 'probe.el')], {
      cwd: dir,
      encoding: 'utf8',
      timeout: 150_000,
      env: {
        ...process.env,
        HOME: dir,
        DAB_PROBE_ARGS: join(dir, 'args.json'),
        DAB_PROBE_FILE: file,
        DAB_STORE: 'off',
      },
    });
  });
  checkReport(t, version, 'emacs', setup.minLoss, run);
});
