/**
 * The dab VS Code extension: starts the dab language server (dist/server.js) over IPC for `dab`
 * documents and adds the board view (dab.showBoard) and its SVG export (dab.exportBoardSvg), and
 * the conversion of Dabble/KSquares .dbl files (dab.convertDbl).
 */
import * as vscode from 'vscode';
import {
  LanguageClient,
  TransportKind,
  type LanguageClientOptions,
  type ServerOptions,
} from 'vscode-languageclient/node';
import { BOARD_VIEW_TYPE, BoardPanel } from './boardPanel';
import {
  AnalysisChangedNotification,
  CursorNotification,
  SHOW_BOARD_COMMAND,
  type CursorParams,
  type DabInitializationOptions,
} from '../../shared/protocol';
import { extendMarkdownIt, pictureModule, type MarkdownItLike } from './markdownPreview';
import { registerDblImport } from './dblImport';
import { hugePageEnv, hugePageSupport } from '../../shared/hugePages';
import {
  BOARD_GAVE_NO_SVG,
  BOARD_SVG_COPIED,
  EXPORT_BOARD_LABEL,
  OPEN_BOARD_FIRST,
  SVG_FILTER_NAME,
  boardSaved,
  serverDidNotStart,
  thrownWords,
} from '../../server/src/engine/phrasebook/editor';

let client: LanguageClient | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<{
  extendMarkdownIt: (md: MarkdownItLike) => MarkdownItLike;
}> {
  const serverModule = context.asAbsolutePath('dist/server.js');
  // the server's search tables on 2 MiB pages where Linux gives them only on request (hugePages.ts)
  const env = hugePageEnv(process.env, hugePageSupport()) ?? process.env;
  const serverOptions: ServerOptions = {
    run: { module: serverModule, transport: TransportKind.ipc, options: { env } },
    debug: {
      module: serverModule,
      transport: TransportKind.ipc,
      options: { env, execArgv: ['--nolazy', '--inspect=6009'] },
    },
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [{ language: 'dab' }],
    synchronize: { configurationSection: 'dab' },
    initializationOptions: {
      settings: vscode.workspace.getConfiguration('dab'),
      clientCommands: [SHOW_BOARD_COMMAND],
    } satisfies DabInitializationOptions,
    outputChannelName: 'dab language server',
  };
  client = new LanguageClient('dab', 'dab language server', serverOptions, clientOptions);
  const getClient = () => (client && client.isRunning() ? client : undefined);

  context.subscriptions.push(
    vscode.commands.registerCommand(SHOW_BOARD_COMMAND, (uriArg?: unknown, posArg?: unknown) => {
      BoardPanel.show(context.extensionUri, getClient, targetOf(uriArg, posArg));
    }),
    vscode.commands.registerCommand('dab.exportBoardSvg', () => exportBoardSvg()),
    vscode.window.registerWebviewPanelSerializer(BOARD_VIEW_TYPE, {
      async deserializeWebviewPanel(panel: vscode.WebviewPanel, state: unknown) {
        BoardPanel.revive(panel, context.extensionUri, getClient, state);
      },
    }),
  );

  // Dabble/KSquares .dbl files: problems shown, conversion offered (dab.convertDbl).
  const offerOpenDblFiles = registerDblImport(context, getClient);

  // The panel follows the cursor of .dab editors (debounced) and redraws after edits.
  let timer: ReturnType<typeof setTimeout> | undefined;
  let pendingEditor: vscode.TextEditor | undefined;
  context.subscriptions.push(
    vscode.window.onDidChangeTextEditorSelection((e) => {
      if (!BoardPanel.current || e.textEditor.document.languageId !== 'dab') return;
      pendingEditor = e.textEditor;
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => {
        timer = undefined;
        if (pendingEditor) BoardPanel.current?.followSelection(pendingEditor);
      }, 150);
    }),
    // the board of a document whose last tab was closed goes empty (found by an audit: it kept the
    // closed document's position); onDidCloseTextDocument comes only when VS Code drops the document
    vscode.window.tabGroups.onDidChangeTabs((e) => {
      if (!BoardPanel.current || e.closed.length === 0) return;
      const open = new Set<string>();
      for (const group of vscode.window.tabGroups.all)
        for (const tab of group.tabs) if (tab.input instanceof vscode.TabInputText) open.add(tab.input.uri.toString());
      for (const tab of e.closed)
        if (tab.input instanceof vscode.TabInputText && !open.has(tab.input.uri.toString()))
          BoardPanel.current.documentClosed(tab.input.uri);
    }),
    vscode.workspace.onDidChangeTextDocument((e) => {
      if (!BoardPanel.current || e.document.languageId !== 'dab') return;
      if (timer) return; // a selection update is already on its way
      timer = setTimeout(() => {
        timer = undefined;
        BoardPanel.current?.documentChanged(e.document);
      }, 300);
    }),
    {
      dispose: () => {
        if (timer) clearTimeout(timer);
      },
    },
  );

  // The server solves the position under the cursor first: tell it where the cursor is (debounced).
  let cursorTimer: ReturnType<typeof setTimeout> | undefined;
  const sendCursor = (editor: vscode.TextEditor | undefined) => {
    if (!editor || editor.document.languageId !== 'dab') return;
    if (cursorTimer) clearTimeout(cursorTimer);
    cursorTimer = setTimeout(() => {
      cursorTimer = undefined;
      const c = getClient();
      const pos = editor.selection.active;
      const params: CursorParams = {
        uri: editor.document.uri.toString(),
        position: { line: pos.line, character: pos.character },
      };
      if (c) void c.sendNotification(CursorNotification, params).catch(() => undefined);
    }, 100);
  };
  context.subscriptions.push(
    vscode.window.onDidChangeTextEditorSelection((e) => sendCursor(e.textEditor)),
    vscode.window.onDidChangeActiveTextEditor((e) => sendCursor(e)),
    { dispose: () => cursorTimer && clearTimeout(cursorTimer) },
  );

  // Not awaited: the Markdown preview (which also activates us) must not wait for the server.
  const c = client;
  c.start().then(
    () => {
      sendCursor(vscode.window.activeTextEditor);
      offerOpenDblFiles();
      // Search results arrive after the text settles: redraw the board when its document's analysis changes.
      context.subscriptions.push(
        c.onNotification(AnalysisChangedNotification, (p) => {
          const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === p.uri);
          if (doc && BoardPanel.current) BoardPanel.current.documentChanged(doc);
        }),
      );
    },
    (e: unknown) => {
      // Keep the commands working (the board says the server is down) and tell the user why.
      void vscode.window.showErrorMessage(serverDidNotStart(thrownWords(e)));
    },
  );
  const pictures = pictureModule(context.asAbsolutePath('dist/markdown.js'));
  return { extendMarkdownIt: (md: MarkdownItLike) => extendMarkdownIt(md, pictures) };
}

export async function deactivate(): Promise<void> {
  const c = client;
  client = undefined;
  if (c) await c.stop();
}

/** Where to show the board: from a code lens ([uri, {line, character}]) or the active editor. */
function targetOf(uriArg: unknown, posArg: unknown): { uri: vscode.Uri; position: vscode.Position } | undefined {
  let uri: vscode.Uri | undefined;
  if (uriArg instanceof vscode.Uri) uri = uriArg;
  else if (typeof uriArg === 'string') {
    try {
      uri = vscode.Uri.parse(uriArg, true);
    } catch {
      uri = undefined;
    }
  }
  const p = posArg as { line?: unknown; character?: unknown } | undefined;
  if (uri && p && typeof p.line === 'number' && typeof p.character === 'number') {
    return { uri, position: new vscode.Position(p.line, p.character) };
  }
  const editor =
    vscode.window.activeTextEditor ?? vscode.window.visibleTextEditors.find((e) => e.document.languageId === 'dab');
  if (uri) {
    const ed = vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === uri!.toString());
    return { uri, position: ed ? ed.selection.active : new vscode.Position(0, 0) };
  }
  if (editor && editor.document.languageId === 'dab')
    return { uri: editor.document.uri, position: editor.selection.active };
  return undefined;
}

async function exportBoardSvg(): Promise<void> {
  const panel = BoardPanel.current;
  if (!panel || !panel.currentView) {
    void vscode.window.showInformationMessage(OPEN_BOARD_FIRST);
    return;
  }
  const svg = await panel.requestSvg();
  if (!svg) {
    void vscode.window.showErrorMessage(BOARD_GAVE_NO_SVG);
    return;
  }
  let copied = true;
  try {
    await vscode.env.clipboard.writeText(svg);
  } catch {
    copied = false; // e.g. a browser that refuses clipboard access: still offer the file
  }
  const view = panel.currentView;
  const base =
    (view.entryTitle || view.entryKind || 'board')
      .replace(/[^\w.-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60) || 'board';
  const name = view.plyCount > 0 ? `${base}-move-${view.ply}.svg` : `${base}.svg`;
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const target = await vscode.window.showSaveDialog({
    defaultUri: folder ? vscode.Uri.joinPath(folder, name) : undefined,
    filters: { [SVG_FILTER_NAME]: ['svg'] },
    saveLabel: EXPORT_BOARD_LABEL,
  });
  if (!target) {
    if (copied) void vscode.window.showInformationMessage(BOARD_SVG_COPIED);
    return;
  }
  await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(svg));
  void vscode.window.showInformationMessage(boardSaved(target.fsPath, copied));
}
