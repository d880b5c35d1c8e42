/**
 * The board view beside the editor. It asks the server (custom request `dab/boardView`) for the
 * entry and move under the cursor and posts the BoardView to the webview (media/board.js), which
 * only draws it. Stepping in the webview moves the editor's cursor to the move (moveRanges); the
 * panel follows the cursor of any .dab editor.
 */
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import {
  BoardViewRequest,
  PlayLineRequest,
  type BoardView,
  type BoardViewParams,
  type BoardWebviewState,
  type PlayLineParams,
  type PlayLineResult,
  type FromBoardWebview,
  type ToBoardWebview,
} from '../../shared/protocol';
import { boardHtml, makeNonce } from './webviewHtml';
import {
  BOARD_PANEL_TITLE,
  BOARD_SERVER_NOT_RUNNING,
  NO_BOARD_HERE,
  boardPanelTitle,
  cannotOpenDocument,
  couldNotPlay,
  documentChangedNotPlayed,
  editRefused,
  playRefused,
  positionNotDrawn,
  thrownWords,
} from '../../server/src/engine/phrasebook/editor';

export const BOARD_VIEW_TYPE = 'dab.board';

/** The webview's script, bundled by esbuild.mjs from webview/main.ts. */
const WEBVIEW_SCRIPT = ['dist', 'webview', 'board.js'];

/** Scripts on, and only the stylesheet folder and the webview bundle's folder readable. */
function webviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions & vscode.WebviewPanelOptions {
  return {
    enableScripts: true,
    localResourceRoots: [
      vscode.Uri.joinPath(extensionUri, 'media'),
      vscode.Uri.joinPath(extensionUri, ...WEBVIEW_SCRIPT.slice(0, -1)),
    ],
  };
}

/** The target the webview saved (BoardWebviewState), checked field by field: saved state is untrusted JSON. */
function savedTarget(
  state: unknown,
): { uri: string; position: { line: number; character: number }; ply?: number } | undefined {
  if (!state || typeof state !== 'object') return undefined;
  const s = state as Partial<BoardWebviewState>;
  const pos = s.position;
  if (typeof s.uri !== 'string' || !pos || typeof pos.line !== 'number' || typeof pos.character !== 'number') {
    return undefined;
  }
  return { uri: s.uri, position: pos, ply: typeof s.ply === 'number' ? s.ply : undefined };
}

interface Target {
  uri: vscode.Uri;
  position: vscode.Position;
  ply?: number;
}

export class BoardPanel {
  static current: BoardPanel | undefined;

  private readonly disposables: vscode.Disposable[] = [];
  private target: Target | undefined;
  private view: BoardView | null = null;
  /** The document version `view` was drawn from: a click on it is played on that text or not at all. */
  private viewVersion: number | undefined;
  private requestSeq = 0;
  /** A cursor move we made ourselves while stepping, and the ply it stands for. */
  private expected: { uri: string; line: number; character: number; ply: number } | undefined;
  private svgWaiter: ((svg: string | null) => void) | undefined;
  /**
   * "Play it out": the engine answers each line the user plays. The webview's box is the truth: the
   * page is rebuilt when its tab is shown again or the window reloads, so it keeps the box in its
   * saved state and posts it on every load (before 'ready'); this copy follows.
   */
  private playOut = false;

  private constructor(
    readonly panel: vscode.WebviewPanel,
    private readonly extensionUri: vscode.Uri,
    private readonly getClient: () => LanguageClient | undefined,
  ) {
    panel.webview.options = webviewOptions(extensionUri);
    panel.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'icon.svg');
    panel.webview.html = this.html();
    panel.onDidDispose(() => this.dispose(), null, this.disposables);
    panel.webview.onDidReceiveMessage((m: FromBoardWebview) => this.onMessage(m), null, this.disposables);
    panel.onDidChangeViewState(
      () => {
        if (panel.visible) void this.refresh();
      },
      null,
      this.disposables,
    );
  }

  /** Opens (or reveals) the panel for a document position. */
  static show(
    extensionUri: vscode.Uri,
    getClient: () => LanguageClient | undefined,
    target: Target | undefined,
  ): BoardPanel {
    if (BoardPanel.current) {
      BoardPanel.current.panel.reveal(vscode.ViewColumn.Beside, true);
    } else {
      const panel = vscode.window.createWebviewPanel(
        BOARD_VIEW_TYPE,
        BOARD_PANEL_TITLE,
        { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
        webviewOptions(extensionUri),
      );
      BoardPanel.current = new BoardPanel(panel, extensionUri, getClient);
    }
    void vscode.commands.executeCommand('setContext', 'dab.boardOpen', true);
    if (target) void BoardPanel.current.update(target);
    return BoardPanel.current;
  }

  /** Brings back a panel after a reload (WebviewPanelSerializer). */
  static revive(
    panel: vscode.WebviewPanel,
    extensionUri: vscode.Uri,
    getClient: () => LanguageClient | undefined,
    state: unknown,
  ): BoardPanel {
    BoardPanel.current?.dispose();
    const p = new BoardPanel(panel, extensionUri, getClient);
    BoardPanel.current = p;
    void vscode.commands.executeCommand('setContext', 'dab.boardOpen', true);
    const saved = savedTarget(state);
    if (saved) {
      try {
        const uri = vscode.Uri.parse(saved.uri, true);
        p.target = {
          uri,
          position: new vscode.Position(saved.position.line, saved.position.character),
          ply: saved.ply,
        };
        // The server only knows open documents: open it (without showing it) before asking.
        void vscode.workspace.openTextDocument(uri).then(
          () => p.refresh(),
          () => p.postEmpty(cannotOpenDocument(uri.fsPath)),
        );
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
      void this.update({ uri, position: pos, ply: exp.ply < 0 ? undefined : exp.ply });
    } else {
      void this.update({ uri, position: pos });
    }
  }

  /** The last tab of a document was closed: a board of it goes empty. */
  documentClosed(uri: vscode.Uri): void {
    if (this.target?.uri.toString() !== uri.toString()) return;
    this.target = undefined;
    this.requestSeq++; // an answer on its way is for the closed document
    this.postEmpty();
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
    if (!t) {
      this.postEmpty();
      return;
    }
    const client = this.getClient();
    if (!client) {
      this.postEmpty(BOARD_SERVER_NOT_RUNNING);
      return;
    }
    const seq = ++this.requestSeq;
    const params: BoardViewParams = {
      uri: t.uri.toString(),
      position: { line: t.position.line, character: t.position.character },
    };
    if (t.ply !== undefined) params.ply = t.ply;
    // requests and edits reach the server in order: the view is drawn from this version
    const version = vscode.workspace.textDocuments.find((d) => d.uri.toString() === params.uri)?.version;
    let view: BoardView | null;
    try {
      view = await client.sendRequest(BoardViewRequest, params);
    } catch (e) {
      if (seq !== this.requestSeq) return;
      this.postEmpty(positionNotDrawn(thrownWords(e)));
      return;
    }
    if (seq !== this.requestSeq) return; // a newer request is on its way
    this.view = view;
    this.viewVersion = version;
    if (!view) {
      this.postEmpty(NO_BOARD_HERE);
      return;
    }
    this.panel.title = boardPanelTitle(view.entryTitle);
    this.post({ type: 'view', view, uri: params.uri, position: params.position });
  }

  private postEmpty(message?: string): void {
    this.view = null;
    this.panel.title = BOARD_PANEL_TITLE;
    const t = this.target;
    this.post({
      type: 'empty',
      message,
      uri: t?.uri.toString(),
      position: t ? { line: t.position.line, character: t.position.character } : undefined,
    });
  }

  private post(m: ToBoardWebview): void {
    void this.panel.webview.postMessage(m);
  }

  private async onMessage(m: FromBoardWebview): Promise<void> {
    if (!m || typeof m !== 'object') return;
    if (m.type === 'ready') {
      await this.refresh();
    } else if (m.type === 'gotoPly' && Number.isInteger(m.ply)) {
      await this.gotoPly(m.ply);
    } else if (m.type === 'play' && typeof m.line === 'string') {
      await this.play(m.line);
    } else if (m.type === 'playOut') {
      this.playOut = m.on === true;
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
    const editor =
      visible ??
      (await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.One, preserveFocus: true }));
    this.expected = { uri: doc.uri.toString(), line: pos.line, character: pos.character, ply: target };
    editor.selection = new vscode.Selection(pos, pos);
    editor.revealRange(new vscode.Range(pos, pos), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
    // Draw at once; the selection event that follows is recognised as ours and changes nothing.
    await this.update({ uri: doc.uri, position: pos, ply: target });
  }

  /**
   * Plays a line clicked on the board: the server computes the edit (append, variation, `moves`),
   * applied here as one WorkspaceEdit so the editor's undo takes it back; the cursor then goes to
   * the new move and the board follows.
   */
  async play(line: string): Promise<void> {
    const t = this.target;
    const client = this.getClient();
    if (!t || !client) return;
    const doc = await vscode.workspace.openTextDocument(t.uri);
    const params: PlayLineParams = {
      uri: t.uri.toString(),
      version: this.viewVersion ?? doc.version,
      position: { line: t.position.line, character: t.position.character },
      line,
      reply: this.playOut,
    };
    // On the main line the board may show a ply stepped to; inside a variation the cursor decides.
    if (this.view && this.view.plyCount > 0 && !this.view.variation) params.ply = this.view.ply;
    let r: PlayLineResult;
    try {
      r = await client.sendRequest(PlayLineRequest, params);
    } catch (e) {
      void vscode.window.showErrorMessage(couldNotPlay(line, thrownWords(e)));
      return;
    }
    if (r.error) {
      void vscode.window.showWarningMessage(playRefused(r.error));
      return;
    }
    if (r.ply !== undefined && !r.edit) {
      await this.gotoPly(r.ply);
      return;
    }
    if (r.edit) {
      if (doc.version !== params.version) {
        // typed into while the server worked: the edit's position belongs to an older text
        void vscode.window.showWarningMessage(documentChangedNotPlayed(line));
        return;
      }
      const edit = new vscode.WorkspaceEdit();
      const at = new vscode.Position(r.edit.range.start.line, r.edit.range.start.character);
      edit.insert(doc.uri, at, r.edit.newText);
      if (!(await vscode.workspace.applyEdit(edit))) {
        void vscode.window.showWarningMessage(editRefused(line));
        return;
      }
    }
    if (r.cursor) {
      const pos = new vscode.Position(r.cursor.line, r.cursor.character);
      const visible = vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === doc.uri.toString());
      const editor =
        visible ??
        (await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.One, preserveFocus: true }));
      this.expected = { uri: doc.uri.toString(), line: pos.line, character: pos.character, ply: -1 };
      editor.selection = new vscode.Selection(pos, pos);
      editor.revealRange(new vscode.Range(pos, pos), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
      await this.update({ uri: doc.uri, position: pos });
    }
    if (r.note) void vscode.window.showInformationMessage(`dab: ${r.note}`);
  }

  /** The board as a standalone SVG (theme colours inlined), or null when nothing is drawn. */
  requestSvg(timeoutMs = 5000): Promise<string | null> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.svgWaiter = undefined;
        resolve(null);
      }, timeoutMs);
      this.svgWaiter = (svg) => {
        clearTimeout(timer);
        resolve(svg);
      };
      this.post({ type: 'exportSvg' });
    });
  }

  get currentView(): BoardView | null {
    return this.view;
  }

  private html(): string {
    const webview = this.panel.webview;
    const asset = (...path: string[]) =>
      webview.asWebviewUri(vscode.Uri.joinPath(this.extensionUri, ...path)).toString();
    return boardHtml({
      cspSource: webview.cspSource,
      nonce: makeNonce(),
      css: asset('media', 'board.css'),
      boardJs: asset(...WEBVIEW_SCRIPT),
    });
  }

  private disposed = false;

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    if (BoardPanel.current === this) {
      BoardPanel.current = undefined;
      void vscode.commands.executeCommand('setContext', 'dab.boardOpen', false);
    }
    this.svgWaiter?.(null);
    this.panel.dispose();
    while (this.disposables.length) this.disposables.pop()?.dispose();
  }
}
