// Runs the extension's integration suite (test/electron/suite) in a real VS Code with
// @vscode/test-electron. These machines cannot download VS Code, so the suite runs only when
// VSCODE_EXECUTABLE points to a local VS Code binary; otherwise it says clearly that it did not run.
//   VSCODE_EXECUTABLE=/path/to/code npm run test:electron
import { build } from 'esbuild';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, copyFileSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');

async function main(): Promise<number> {
  const exe = process.env.VSCODE_EXECUTABLE;
  if (!exe) {
    console.log(
      'test:electron DID NOT RUN: set VSCODE_EXECUTABLE to a local VS Code executable (this machine cannot download one). The code-server end-to-end test (test/e2e) covers the same ground here.',
    );
    return 0;
  }
  if (!existsSync(exe)) {
    console.error(`test:electron: VSCODE_EXECUTABLE=${exe} does not exist`);
    return 1;
  }
  if (!existsSync(join(ROOT, 'dist', 'client.js')) || !existsSync(join(ROOT, 'dist', 'server.js'))) {
    console.error('test:electron: build first (npm run build)');
    return 1;
  }
  const outDir = join(ROOT, 'out', 'electron');
  mkdirSync(outDir, { recursive: true });
  await build({
    entryPoints: [join(ROOT, 'test', 'electron', 'suite', 'index.ts')],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
    outfile: join(outDir, 'suite.js'),
    logLevel: 'warning',
  });
  const workspace = mkdtempSync(join(tmpdir(), 'dab-electron-'));
  for (const f of readdirSync(join(ROOT, 'examples')).filter((f) => f.endsWith('.dab')))
    copyFileSync(join(ROOT, 'examples', f), join(workspace, f));
  writeFileSync(join(workspace, 'illegal.dab'), 'game "illegal"\n  size 2x2\n  moves a1-b1 b1-c1 a1-b1\n');
  const { runTests } = await import('@vscode/test-electron');
  try {
    await runTests({
      vscodeExecutablePath: exe,
      extensionDevelopmentPath: ROOT,
      extensionTestsPath: join(outDir, 'suite.js'),
      launchArgs: [
        workspace,
        '--disable-extensions',
        '--skip-welcome',
        '--skip-release-notes',
        '--disable-workspace-trust',
      ],
    });
    console.log('test:electron: all passed');
    return 0;
  } catch (e) {
    console.error(`test:electron: FAILED: ${e instanceof Error ? e.message : String(e)}`);
    return 1;
  } finally {
    rmSync(workspace, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
