// Integration checks run inside VS Code's extension host by @vscode/test-electron (see ../run.ts).
// No test framework: each check is an async function; run() rejects if any fails.
import * as vscode from 'vscode';
import assert from 'node:assert/strict';

const checks: [string, () => Promise<void>][] = [];
const check = (name: string, fn: () => Promise<void>) => checks.push([name, fn]);

function ws(name: string): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'a workspace folder is open');
  return vscode.Uri.joinPath(folder.uri, name);
}

async function until<T>(what: string, fn: () => Promise<T | undefined> | T | undefined, timeout = 30_000): Promise<T> {
  const t0 = Date.now();
  while (Date.now() - t0 < timeout) {
    const v = await fn();
    if (v) return v;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`timed out waiting for ${what}`);
}

function hoverToText(h: vscode.Hover[]): string {
  return h.flatMap((x) => x.contents.map((c) => (typeof c === 'string' ? c : 'value' in c ? c.value : ''))).join('\n');
}

check('the extension activates on a .dab file', async () => {
  const doc = await vscode.workspace.openTextDocument(ws('allcock.dab'));
  await vscode.window.showTextDocument(doc);
  assert.equal(doc.languageId, 'dab');
  const ext = vscode.extensions.all.find((e) => e.packageJSON?.name === 'dab');
  assert.ok(ext, 'the dab extension is installed');
  await until('activation', () => ext.isActive);
});

check('hover on an endgame header gives its value in words', async () => {
  const doc = await vscode.workspace.openTextDocument(ws('allcock.dab'));
  const line = doc
    .getText()
    .split('\n')
    .findIndex((l) => /^endgame\s+"Allcock, section 1/.test(l));
  assert.ok(line >= 0);
  const text = await until('a hover', async () => {
    const h = await vscode.commands.executeCommand<vscode.Hover[]>(
      'vscode.executeHoverProvider',
      doc.uri,
      new vscode.Position(line, 2),
    );
    const t = hoverToText(h ?? []);
    return t ? t : undefined;
  });
  assert.match(text, /wins/);
});

check('code lenses give values and open the board', async () => {
  const doc = await vscode.workspace.openTextDocument(ws('allcock.dab'));
  const lenses = await until('code lenses', async () => {
    const l = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', doc.uri, 100);
    return l && l.length ? l : undefined;
  });
  const titles = lenses.map((l) => l.command?.title ?? '');
  assert.ok(
    titles.some((t) => /4-loop/.test(t) && /wins by 1/.test(t)),
    JSON.stringify(titles),
  );
  const board = lenses.find((l) => l.command?.command === 'dab.showBoard');
  assert.ok(board, 'a lens runs dab.showBoard');
  await vscode.commands.executeCommand(board.command!.command, ...(board.command!.arguments ?? []));
  await until('the board panel', () =>
    vscode.window.tabGroups.all
      .flatMap((g) => g.tabs)
      .some((t) => t.input instanceof vscode.TabInputWebview && /dab\.board/.test(t.input.viewType)),
  );
});

check('an illegal move is a diagnostic', async () => {
  const doc = await vscode.workspace.openTextDocument(ws('illegal.dab'));
  await vscode.window.showTextDocument(doc);
  const diags = await until('diagnostics', () => {
    const d = vscode.languages.getDiagnostics(doc.uri);
    return d.length ? d : undefined;
  });
  assert.ok(
    diags.some((d) => d.severity === vscode.DiagnosticSeverity.Error && d.range.start.line === 2),
    JSON.stringify(diags.map((d) => d.message)),
  );
});

check('dab: Show Board runs from the command palette on the active editor', async () => {
  const doc = await vscode.workspace.openTextDocument(ws('allcock.dab'));
  const editor = await vscode.window.showTextDocument(doc, vscode.ViewColumn.One);
  editor.selection = new vscode.Selection(4, 0, 4, 0);
  await vscode.commands.executeCommand('dab.showBoard');
  const cmds = await vscode.commands.getCommands(true);
  assert.ok(cmds.includes('dab.showBoard') && cmds.includes('dab.exportBoardSvg'));
});

export async function run(): Promise<void> {
  const failures: string[] = [];
  for (const [name, fn] of checks) {
    try {
      await fn();
      console.log(`ok - ${name}`);
    } catch (e) {
      failures.push(name);
      console.log(`not ok - ${name}\n  ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    }
  }
  if (failures.length) throw new Error(`${failures.length} of ${checks.length} checks failed: ${failures.join('; ')}`);
}
