/**
 * The board view beside the editor. It asks the server (custom request `dab/boardView`) for the
 * entry and move under the cursor and posts the BoardView to the webview (media/board.js), which
 * only draws it. Stepping in the webview moves the editor's cursor to the move (moveRanges); the
 * panel follows the cursor of any .dab editor.
 */
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { BoardViewRequest, type BoardView, type BoardViewParams } from '../../server/src/protocol';

export const BOARD_VIEW_TYPE = 'dab.board';

interface PanelState { uri?: string; position?: { line: number; character: number }; ply?: number }

interface Target { uri: vscode.Uri; position: vscode.Position; ply?: number }

type FromWebview =
  | { type: 'ready' }
  | { type: 'gotoPly'; ply: number }
  | { type: 'svg'; svg: string | null; title?: string };

export class BoardPanel {
  static current: BoardPanel | undefined;

  private readonly disposables: vscode.Disposable[] = [];
  private target: Target | undefined;
  private view: BoardView | null = null;
  private requestSeq = 0;
  /** A cursor move we made ourselves while stepping, and the ply it stands for. */
  private expected: { uri: string; line: number; character: number; ply: number } | undefined;
  private svgWaiter: ((svg: string | null) => void) | undefined;

  private constructor(
    readonly panel: vscode.WebviewPanel,
    private readonly extensionUri: vscode.Uri,
    private readonly getClient: () => LanguageClient | undefined,
  ) {
    panel.webview.options = {
      enableScripts: true,
      localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'media')],
    };
    panel.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'icon.svg');
    panel.webview.html = this.html();
    panel.onDidDispose(() => this.dispose(), null, this.disposables);
    panel.webview.onDidReceiveMessage((m: FromWebview) => this.onMessage(m), null, this.disposables);
    panel.onDidChangeViewState(() => { if (panel.visible) void this.refresh(); }, null, this.disposables);
  }

  /** Opens (or reveals) the panel for a document position. */
  static show(extensionUri: vscode.Uri, getClient: () => LanguageClient | undefined, target: Target | undefined): BoardPanel {
    if (BoardPanel.current) {
      BoardPanel.current.panel.reveal(vscode.ViewColumn.Beside, true);
    } else {
      const panel = vscode.window.createWebviewPanel(BOARD_VIEW_TYPE, 'dab board', { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true }, {
        enableScripts: true,
        localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'media')],
      });
      BoardPanel.current = new BoardPanel(panel, extensionUri, getClient);
    }
    void vscode.commands.executeCommand('setContext', 'dab.boardOpen', true);
    if (target) void BoardPanel.current.update(target);
    return BoardPanel.current;
  }

  /** Brings back a panel after a reload (WebviewPanelSerializer). */
  static revive(panel: vscode.WebviewPanel, extensionUri: vscode.Uri, getClient: () => LanguageClient | undefined, state: PanelState | undefined): BoardPanel {
    BoardPanel.current?.dispose();
    const p = new BoardPanel(panel, extensionUri, getClient);
    BoardPanel.current = p;
    void vscode.commands.executeCommand('setContext', 'dab.boardOpen', true);
    if (state && typeof state.uri === 'string' && state.position) {
      try {
        const uri = vscode.Uri.parse(state.uri, true);
        p.target = { uri, position: new vscode.Position(state.position.line, state.position.character), ply: state.ply };
        // The server only knows open documents: open it (without showing it) before asking.
        void vscode.workspace.openTextDocument(uri).then(() => p.refresh(), () => p.postEmpty(`Cannot open ${uri.fsPath}`));
      } catch {
        /* ignore a bad saved state */
      }
    }
    return p;
  }

  /** The cursor of a .dab editor moved (debounced by the caller). */
  followSelection(editor: vscode.TextEditor): void {
    const pos = editor.selection.active;
    const uri = editor.document.uri;
    const exp = this.expected;
    this.expected = undefined;
    if (exp && exp.uri === uri.toString() && exp.line === pos.line && exp.character === pos.character) {
      void this.update({ uri, position: pos, ply: exp.ply });
    } else {
      void this.update({ uri, position: pos });
    }
  }

  documentChanged(doc: vscode.TextDocument): void {
    if (this.target && this.target.uri.toString() === doc.uri.toString()) void this.refresh();
  }

  async update(target: Target): Promise<void> {
    this.target = target;
    await this.refresh();
  }

  async refresh(): Promise<void> {
    const t = this.target;
    if (!t) { this.postEmpty(); return; }
    const client = this.getClient();
    if (!client) { this.postEmpty('The dab language server is not running.'); return; }
    const seq = ++this.requestSeq;
    const params: BoardViewParams = { uri: t.uri.toString(), position: { line: t.position.line, character: t.position.character } };
    if (t.ply !== undefined) params.ply = t.ply;
    let view: BoardView | null;
    try {
      view = await client.sendRequest<BoardView | null>(BoardViewRequest, params);
    } catch (e) {
      if (seq !== this.requestSeq) return;
      this.postEmpty(`The language server could not draw this position: ${e instanceof Error ? e.message : String(e)}`);
      return;
    }
    if (seq !== this.requestSeq) return; // a newer request is on its way
    this.view = view;
    if (!view) {
      this.postEmpty('Place the cursor in a game, position or endgame to see its board.');
      return;
    }
    this.panel.title = view.entryTitle ? `dab: ${view.entryTitle}` : 'dab board';
    void this.panel.webview.postMessage({ type: 'view', view, uri: params.uri, position: params.position });
  }

  private postEmpty(message?: string): void {
    this.view = null;
    const t = this.target;
    void this.panel.webview.postMessage({
      type: 'empty', message,
      uri: t?.uri.toString(), position: t ? { line: t.position.line, character: t.position.character } : undefined,
    });
  }

  private async onMessage(m: FromWebview): Promise<void> {
    if (!m || typeof m !== 'object') return;
    if (m.type === 'ready') {
      await this.refresh();
    } else if (m.type === 'gotoPly' && Number.isInteger(m.ply)) {
      await this.gotoPly(m.ply);
    } else if (m.type === 'svg') {
      const w = this.svgWaiter;
      this.svgWaiter = undefined;
      w?.(typeof m.svg === 'string' ? m.svg : null);
    }
  }

  /** Moves the editor's cursor to the given move of the record (0 = the entry's start). */
  async gotoPly(ply: number): Promise<void> {
    const view = this.view;
    const t = this.target;
    if (!view || !t) return;
    const target = Math.max(0, Math.min(view.plyCount, ply));
    let pos: vscode.Position;
    if (target === 0) {
      pos = new vscode.Position(view.entryLine, 0);
    } else {
      const r = view.moveRanges[target - 1];
      if (!r) return;
      pos = new vscode.Position(r.line, r.character);
    }
    const doc = await vscode.workspace.openTextDocument(t.uri);
    const visible = vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === doc.uri.toString());
    const editor = visible ?? await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.One, preserveFocus: true });
    this.expected = { uri: doc.uri.toString(), line: pos.line, character: pos.character, ply: target };
    editor.selection = new vscode.Selection(pos, pos);
    editor.revealRange(new vscode.Range(pos, pos), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
    // Draw at once; the selection event that follows is recognised as ours and changes nothing.
    await this.update({ uri: doc.uri, position: pos, ply: target });
  }

  /** The board as a standalone SVG (theme colours inlined), or null when nothing is drawn. */
  requestSvg(timeoutMs = 5000): Promise<string | null> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => { this.svgWaiter = undefined; resolve(null); }, timeoutMs);
      this.svgWaiter = (svg) => { clearTimeout(timer); resolve(svg); };
      void this.panel.webview.postMessage({ type: 'exportSvg' });
    });
  }

  get currentView(): BoardView | null { return this.view; }

  private html(): string {
    const webview = this.panel.webview;
    const media = (f: string) => webview.asWebviewUri(vscode.Uri.joinPath(this.extensionUri, 'media', f)).toString();
    const nonce = makeNonce();
    const csp = `default-src 'none'; img-src ${webview.cspSource}; style-src ${webview.cspSource}; script-src 'nonce-${nonce}';`;
    return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${media('board.css')}">
<title>dab board</title>
</head>
<body>
<main aria-label="Dots-and-Boxes board">
  <header><h1 id="title"></h1><span class="kind" id="kind"></span></header>
  <div class="facts"><span id="score"></span><span id="mover"></span><span class="value" id="value"></span></div>
  <p id="empty"></p>
  <nav id="nav" aria-label="Step through the record" hidden>
    <button id="first" type="button" aria-label="First position (Home)" title="First (Home)">⏮</button>
    <button id="prev" type="button" aria-label="Previous move (Left arrow)" title="Previous (←)">◀</button>
    <button id="next" type="button" aria-label="Next move (Right arrow)" title="Next (→)">▶</button>
    <button id="last" type="button" aria-label="Last position (End)" title="Last (End)">⏭</button>
    <span id="ply" aria-live="polite"></span>
  </nav>
  <div id="board"></div>
  <section id="graph-box" aria-label="Value graph" hidden>
    <div id="graph"></div>
  </section>
  <div id="status" class="visually-hidden" role="status" aria-live="polite"></div>
</main>
<script nonce="${nonce}" src="${media('boardView.js')}"></script>
<script nonce="${nonce}" src="${media('board.js')}"></script>
</body>
</html>`;
  }

  dispose(): void {
    if (BoardPanel.current === this) {
      BoardPanel.current = undefined;
      void vscode.commands.executeCommand('setContext', 'dab.boardOpen', false);
    }
    this.svgWaiter?.(null);
    this.panel.dispose();
    while (this.disposables.length) this.disposables.pop()?.dispose();
  }
}

function makeNonce(): string {
  const chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  const bytes = new Uint8Array(32);
  globalThis.crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => chars[b % chars.length]).join('');
}
