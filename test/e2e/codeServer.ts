/**
 * Harness for the end-to-end test: a real VS Code workbench (code-server 4.100.3 installed in
 * .e2e/ by scripts/e2e-setup.sh) with the packaged extension, driven by Debian's Chromium.
 * Not a test file itself (test/e2e/vscode.test.ts uses it).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Frame, Page } from 'playwright-core';

export const ROOT = join(import.meta.dirname, '..', '..');
export const E2E_DIR = join(ROOT, '.e2e');
export const CODE_SERVER = join(E2E_DIR, 'node_modules', '.bin', 'code-server');
export const CHROMIUM = process.env.DAB_CHROMIUM ?? '/usr/bin/chromium';
export const SCREENSHOTS = join(ROOT, 'screenshots');
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Why the end-to-end test cannot run here, or null when it can. */
export function missingSetup(): string | null {
  if (!existsSync(join(E2E_DIR, '.ready')) || !existsSync(CODE_SERVER)) {
    return `code-server is not set up in ${E2E_DIR}: run scripts/e2e-setup.sh (takes a few minutes the first time), or set DAB_SKIP_E2E=1 to skip the end-to-end test`;
  }
  if (!existsSync(CHROMIUM))
    return `Chromium not found at ${CHROMIUM}: apt-get install -y chromium (or DAB_SKIP_E2E=1)`;
  if (!existsSync(join(ROOT, 'dist', 'client.js'))) return 'dist/client.js is missing: run npm run build first';
  return null;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      const port = typeof a === 'object' && a ? a.port : 0;
      s.close(() => resolve(port));
    });
  });
}

export interface Session {
  scratch: string;
  /** The user-data dir; its User/settings.json is watched by the running workbench. */
  userData: string;
  workspace: string;
  port: number;
  url: string;
  proc: ChildProcess;
  log: string[];
  vsix: string;
  stop(): Promise<void>;
}

/** Packages the extension (dist/ must be built), installs it, starts code-server on the workspace. */
export async function startCodeServer(files: Record<string, string>): Promise<Session> {
  const scratch = mkdtempSync(join(tmpdir(), 'dab-e2e-'));
  const userData = join(scratch, 'user-data');
  const extensions = join(scratch, 'extensions');
  const workspace = join(scratch, 'workspace');
  mkdirSync(join(userData, 'User'), { recursive: true });
  mkdirSync(extensions, { recursive: true });
  mkdirSync(workspace, { recursive: true });
  writeFileSync(
    join(userData, 'User', 'settings.json'),
    JSON.stringify(
      {
        'workbench.startupEditor': 'none',
        'security.workspace.trust.enabled': false,
        'telemetry.telemetryLevel': 'off',
        'extensions.autoCheckUpdates': false,
        'extensions.autoUpdate': false,
        'update.mode': 'none',
        'workbench.tips.enabled': false,
        'workbench.enableExperiments': false,
        'editor.codeLens': true,
        'editor.hover.delay': 100,
        // Long `moves` lines stay one line on screen, so a test can read them back.
        'editor.wordWrap': 'off',
        'window.restoreWindows': 'none',
        'chat.commandCenter.enabled': false,
        'workbench.secondarySideBar.defaultVisibility': 'hidden',
      },
      null,
      2,
    ),
  );
  for (const [name, text] of Object.entries(files)) writeFileSync(join(workspace, name), text);

  // Package with vsce straight from the built dist/ (no rebuild: other tests may be using dist/).
  const vsix = join(scratch, 'dab.vsix');
  const vsce = spawnSync(
    process.execPath,
    [
      join(ROOT, 'node_modules', '@vscode', 'vsce', 'vsce'),
      'package',
      '--no-dependencies',
      '--no-rewrite-relative-links',
      '-o',
      vsix,
    ],
    { cwd: ROOT, encoding: 'utf8' },
  );
  if (vsce.status !== 0 || !existsSync(vsix)) throw new Error(`vsce package failed:\n${vsce.stdout}\n${vsce.stderr}`);
  const inst = spawnSync(
    CODE_SERVER,
    ['--install-extension', vsix, '--extensions-dir', extensions, '--user-data-dir', userData],
    { encoding: 'utf8', timeout: 120_000 },
  );
  if (inst.status !== 0) throw new Error(`installing the .vsix failed:\n${inst.stdout}\n${inst.stderr}`);

  const port = await freePort();
  const log: string[] = [];
  const proc = spawn(
    CODE_SERVER,
    [
      '--auth',
      'none',
      '--bind-addr',
      `127.0.0.1:${port}`,
      '--disable-telemetry',
      '--disable-update-check',
      '--disable-workspace-trust',
      '--user-data-dir',
      userData,
      '--extensions-dir',
      extensions,
      workspace,
    ],
    { detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  proc.stdout?.on('data', (d) => log.push(String(d)));
  proc.stderr?.on('data', (d) => log.push(String(d)));
  const url = `http://127.0.0.1:${port}/?folder=${encodeURIComponent(workspace)}`;

  // If this process dies before stop() runs, take code-server (its own process group) with it.
  const killGroup = () => {
    if (proc.exitCode === null && proc.pid) {
      try {
        process.kill(-proc.pid, 'SIGKILL');
      } catch {
        /* gone */
      }
    }
  };
  process.once('exit', killGroup);

  const stop = async () => {
    process.removeListener('exit', killGroup);
    if (proc.exitCode === null && proc.pid) {
      try {
        process.kill(-proc.pid, 'SIGTERM');
      } catch {
        /* already gone */
      }
      const t0 = Date.now();
      while (proc.exitCode === null && Date.now() - t0 < 5000) await new Promise((r) => setTimeout(r, 100));
      if (proc.exitCode === null) {
        try {
          process.kill(-proc.pid, 'SIGKILL');
        } catch {
          /* gone */
        }
      }
    }
    rmSync(scratch, { recursive: true, force: true });
  };

  const t0 = Date.now();
  for (;;) {
    if (proc.exitCode !== null) {
      await stop();
      throw new Error(`code-server exited (${proc.exitCode}):\n${log.join('')}`);
    }
    try {
      const r = await fetch(`http://127.0.0.1:${port}/healthz`);
      if (r.ok) break;
    } catch {
      /* not up yet */
    }
    if (Date.now() - t0 > 60_000) {
      await stop();
      throw new Error(`code-server did not answer within 60 s:\n${log.join('')}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return { scratch, userData, workspace, port, url, proc, log, vsix, stop };
}

export async function launchBrowser(): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
}

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const file = join(SCREENSHOTS, `e2e-${name}.png`);
  await page.screenshot({ path: file });
  return file;
}

const quickInput = '.quick-input-widget';

/** Runs a command from the palette by its label, e.g. "dab: Show Board". */
export async function runCommand(page: Page, label: string): Promise<void> {
  await page.keyboard.press('F1');
  const input = page.locator(`${quickInput} input`);
  await input.waitFor({ state: 'visible', timeout: 10_000 });
  await input.fill(`>${label}`);
  // Pick the row whose label is exactly the command (not the first fuzzy match).
  const exact = new RegExp(`^\\s*${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`);
  const any = page.locator(`${quickInput} .monaco-list-row`, { hasText: label }).first();
  await any.waitFor({ state: 'visible', timeout: 10_000 });
  const exactRow = page
    .locator(`${quickInput} .monaco-list-row`)
    .filter({ has: page.locator('.label-name', { hasText: exact }) })
    .first();
  await ((await exactRow.count()) ? exactRow : any).click();
  await page
    .locator(quickInput)
    .waitFor({ state: 'hidden', timeout: 10_000 })
    .catch(() => undefined);
}

/** Opens a workspace file with Quick Open and waits for its editor. */
export async function openFile(page: Page, name: string): Promise<void> {
  await page.keyboard.press('Control+1'); // open it in the first editor group
  await page.keyboard.press('Control+P');
  const input = page.locator(`${quickInput} input`);
  await input.waitFor({ state: 'visible', timeout: 10_000 });
  await input.fill(name);
  // Click the row of exactly that file (Enter could pick a row from before the filter applied).
  const exact = new RegExp(`^\\s*${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`);
  const row = page
    .locator(`${quickInput} .monaco-list-row`)
    .filter({ has: page.locator('.label-name', { hasText: exact }) })
    .first();
  await row.waitFor({ state: 'visible', timeout: 15_000 });
  await row.click();
  await page
    .locator(`.tab.active[aria-label*="${name}"], .tab.active:has-text("${name}")`)
    .first()
    .waitFor({ timeout: 15_000 });
  await page.locator('.editor-instance .monaco-editor .view-lines').first().waitFor({ timeout: 15_000 });
}

/** Puts the editor cursor at a 1-based line and column (Ctrl+G). */
export async function gotoLine(page: Page, line: number, column = 1): Promise<void> {
  await page
    .locator('.editor-instance .monaco-editor .view-lines')
    .first()
    .click({ position: { x: 5, y: 5 } })
    .catch(() => undefined);
  await page.keyboard.press('Control+G');
  const input = page.locator(`${quickInput} input`);
  await input.waitFor({ state: 'visible', timeout: 10_000 });
  await input.fill(`:${line}:${column}`);
  await page.keyboard.press('Enter');
  await page
    .locator(quickInput)
    .waitFor({ state: 'hidden', timeout: 10_000 })
    .catch(() => undefined);
}

/** The status bar's "Ln x, Col y". */
export async function cursorPosition(page: Page): Promise<{ line: number; column: number } | null> {
  const t = await page
    .locator('#status\\.editor\\.selection')
    .first()
    .textContent({ timeout: 5000 })
    .catch(() => null);
  const m = t?.match(/Ln (\d+), Col (\d+)/);
  return m ? { line: Number(m[1]), column: Number(m[2]) } : null;
}

/** The hover at the cursor (Ctrl+K Ctrl+I), as text. */
export async function hoverText(page: Page, timeout = 20_000): Promise<string> {
  const t0 = Date.now();
  while (Date.now() - t0 < timeout) {
    await page.keyboard.press('Control+K');
    await page.keyboard.press('Control+I');
    const t1 = Date.now();
    while (Date.now() - t1 < 3000) {
      const texts = (await page.locator('.monaco-hover-content').allInnerTexts())
        .map((s) => s.trim())
        .filter((s) => s && !/^Loading/i.test(s));
      if (texts.length) return texts.join('\n');
      await page.waitForTimeout(200);
    }
    await page.keyboard.press('Escape');
    await page.waitForTimeout(500);
  }
  return '';
}

/** Texts of the code lenses currently shown. */
export async function codeLensTexts(page: Page): Promise<string[]> {
  return (await page.locator('.codelens-decoration').allInnerTexts()).map((s) => s.trim()).filter(Boolean);
}

/** The frame holding the board webview's own document, or undefined. */
export async function boardFrame(page: Page): Promise<Frame | undefined> {
  for (const f of page.frames()) {
    try {
      if (await f.locator('#board').count()) return f;
    } catch {
      /* detached frame */
    }
  }
  return undefined;
}

export async function waitFor<T>(
  what: string,
  fn: () => Promise<T | undefined | null | false>,
  timeout = 30_000,
  every = 500,
): Promise<T> {
  const t0 = Date.now();
  let lastErr: unknown;
  while (Date.now() - t0 < timeout) {
    try {
      const v = await fn();
      if (v) return v;
    } catch (e) {
      lastErr = e;
    }
    await new Promise((r) => setTimeout(r, every));
  }
  throw new Error(`timed out after ${timeout} ms waiting for ${what}${lastErr ? `: ${String(lastErr)}` : ''}`);
}

export function readExample(name: string): string {
  return readFileSync(join(ROOT, 'examples', name), 'utf8');
}
