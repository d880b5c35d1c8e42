/**
 * The dab language server. Thin: it keeps documents, asks the AnalysisStore (engine) and hands
 * each request to one small feature module. Start with `--stdio` (any editor) or from the VS Code
 * client (IPC). Search runs in a worker thread; the editor never waits for it.
 */
import { version } from '../../package.json';
import {
  PLAY_DOCUMENT_CHANGED,
  PLAY_DOCUMENT_NOT_OPEN,
  PLAY_NEEDS_BOARD_ENTRY,
  SERVER_ALREADY_INITIALIZED,
  SERVER_NOT_INITIALIZED,
  SERVER_SHUT_DOWN,
  SHOW_POSITION_NOTHING,
  INVALID_MESSAGE,
  PARSE_ERROR,
  UNHANDLED_METHOD,
  brokenFramingMessage,
  internalErrorMessage,
  thrownWords,
} from './engine/phrasebook';
import {
  CodeActionRequest,
  CodeLensRefreshRequest,
  CodeLensRequest,
  DiagnosticSeverity,
  DocumentSymbolRequest,
  ExecuteCommandRequest,
  FoldingRangeRequest,
  HoverRequest,
  InlayHintRequest,
  ErrorCodes,
  InlayHintRefreshRequest,
  MarkupKind,
  MessageType,
  ResponseError,
  ShowMessageNotification,
  createConnection,
  ProposedFeatures,
  Message,
  StreamMessageReader,
  StreamMessageWriter,
  type DataCallback,
  type Disposable,
  type ResponseMessage,
  type TextDocumentContentChangeEvent,
  TextDocuments,
  TextDocumentSyncKind,
  type Hover,
  type InitializeParams,
  type InitializeResult,
  type Range,
} from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { AnalysisStore } from './analysisStore';
import { SearchService } from './search/searchService';
import { defaultSettings, readSettings, type DabSettings } from './settings';
import {
  AnalysisChangedNotification,
  BoardViewRequest,
  SHOW_BOARD_COMMAND,
  SHOW_POSITION_COMMAND,
  INSERT_BETTER_LINE_COMMAND,
  type DabInitializationOptions,
  CursorNotification,
  ImportDblRequest,
  PlayLineRequest,
} from '../../shared/protocol';
import { SearchProgress } from './features/progress';
import { openProofCache, resolveStorePath, type ProofCache } from './store';
import { diagnostics } from './features/diagnostics';
import { hover } from './features/hover';
import { plainFromMarkdown } from './features/convert';
import { codeLenses } from './features/codeLens';
import { inlayHints } from './features/inlayHints';
import { documentSymbols, foldingRanges, symbolsForClient, type SymbolSupport } from './features/symbols';
import { codeActions, codeActionsForClient, type CodeActionForm } from './features/codeActions';
import { boardView } from './features/boardViewRequest';
import { playLine } from './features/playLine';
import { showPosition } from './features/showPosition';
import { importDbl } from './features/importDbl';
import { guardFraming } from './framingGuard';

/**
 * Over stdio the reader is made here, to hear when a message's header cannot be read (no or a bad
 * Content-Length, a header line without ':'): the stream is then out of step for good, so the
 * server says so on stderr and exits, and the client can start it again. A message whose body is
 * not JSON is answered with a ParseError, and one that is neither a request, a notification nor a
 * response (an id of null or an object, a method that is not a string) with an InvalidRequest, as
 * JSON-RPC 2.0 asks (id null when the message has no usable id); its length was right, so the next
 * one is found.
 */
function stdioReader(writer: StreamMessageWriter): StreamMessageReader {
  const broken = (detail: string) => {
    process.stderr.write(brokenFramingMessage(detail) + '\n');
    process.exit(1);
  };
  // a header the library would wait on for good (bare line feeds, no end) is caught before it
  const reader = new CheckedReader(guardFraming(process.stdin, broken), (m) => {
    const id = (m as { id?: unknown } | null)?.id;
    answerError(
      writer,
      typeof id === 'string' || typeof id === 'number' ? id : null,
      ErrorCodes.InvalidRequest,
      INVALID_MESSAGE,
    );
  });
  reader.onError((e) => {
    const message = thrownWords(e);
    if (/header|content-length/i.test(message)) broken(message);
    else answerError(writer, null, ErrorCodes.ParseError, `${PARSE_ERROR}: ${message}`);
  });
  return reader;
}

/** Passes on the messages JSON-RPC knows (requests, notifications, responses); gives the others to `invalid`. */
class CheckedReader extends StreamMessageReader {
  constructor(
    readable: NodeJS.ReadableStream,
    private readonly invalid: (m: unknown) => void,
  ) {
    super(readable);
  }

  override listen(callback: DataCallback): Disposable {
    return super.listen((m) =>
      Message.isRequest(m) || Message.isNotification(m) || Message.isResponse(m) ? callback(m) : this.invalid(m),
    );
  }
}

function answerError(writer: StreamMessageWriter, id: string | number | null, code: number, message: string): void {
  void writer.write({ jsonrpc: '2.0', id, error: { code, message } } as ResponseMessage).catch(() => undefined);
}

const overStdio = process.argv.includes('--stdio');
const stdioWriter = overStdio ? new StreamMessageWriter(process.stdout) : null;
const connection = stdioWriter
  ? createConnection(ProposedFeatures.all, stdioReader(stdioWriter), stdioWriter)
  : createConnection(ProposedFeatures.all);
if (overStdio) {
  // what the library does for `--stdio` when it makes the streams itself: the end of the input ends
  // the server (0 after a shutdown request), and nothing printed reaches stdout, which is the protocol's
  const ended = () => process.exit(lifecycle === 'shut down' ? 0 : 1);
  process.stdin.on('end', ended);
  process.stdin.on('close', ended);
  console.log = console.info = console.debug = (...a: unknown[]) => connection.console.log(a.map(String).join(' '));
  console.warn = (...a: unknown[]) => connection.console.warn(a.map(String).join(' '));
  console.error = (...a: unknown[]) => connection.console.error(a.map(String).join(' '));
}
// A promise nobody awaited that failed (a client that refused a request, say) is logged, never
// allowed to end the server (Node's default for an unhandled rejection).
process.on('unhandledRejection', (e) => connection.console.error(`dab: unhandled: ${(e as Error)?.stack ?? e}`));
/**
 * The open documents. An incremental change is applied, then the document made again from its text:
 * vscode-languageserver-textdocument 1.0.12 keeps its line table wrong when an edit joins a lone
 * '\r' and a '\n' into one line end (found by an audit: every later position, and the board's
 * edits, were then off by a line, and an edit written from them corrupted the text).
 */
const documents = new TextDocuments<TextDocument>({
  // a text that is no string (found by an audit: a TypeError's stack in the log, and a dead document)
  // is read as empty, and said once
  create: (uri, languageId, version, text) => {
    if (typeof text !== 'string')
      connection.console.warn(`dab: ${String(uri)} was opened without a text: read as empty`);
    return TextDocument.create(uri, languageId, version, typeof text === 'string' ? text : '');
  },
  update: (doc, changes, version) =>
    TextDocument.create(
      doc.uri,
      doc.languageId,
      version,
      TextDocument.update(doc, wholeOrRange(changes), version).getText(),
    ),
});

/**
 * A change without a range object is the whole new text (LSP's full-text change), also when it
 * carries a rangeLength or a null range: the text library skips the first and throws on the
 * second (found by an audit: the server's copy then drifted from the client's for good). A change
 * without text (null, or text not a string) says nothing and is left out.
 */
function wholeOrRange(changes: TextDocumentContentChangeEvent[]): TextDocumentContentChangeEvent[] {
  const out: TextDocumentContentChangeEvent[] = [];
  for (const c of changes) {
    if (typeof c?.text !== 'string') continue;
    const range = (c as { range?: unknown }).range;
    out.push(range !== null && typeof range === 'object' ? c : { text: c.text });
  }
  return out;
}

let settings: DabSettings = defaultSettings;
let canPullConfiguration = false;
let canRefreshLenses = false;
let canRefreshHints = false;
let canReportProgress = false;
/**
 * How quick fixes go to the client: CodeAction literals, or (a client without literal support that
 * can apply edits) commands the server carries out, or not at all.
 */
let codeActionForm: CodeActionForm = 'literal';
/** The client shows hovers as plain text only (its hover.contentFormat has no Markdown). */
let plainHovers = false;
/** What the code lenses run: the client's board view when it has one, else the server's text view. */
let lensCommand = SHOW_POSITION_COMMAND;
/** The client runs dab's board (dab's VS Code client): it listens to dab/analysisChanged. */
let clientRunsBoard = false;
/** The document symbols' shape and kinds the client declared. */
let symbolSupport: SymbolSupport = { hierarchical: true };
/** Where the server is in its life (LSP: no request before initialize, none but exit after shutdown). */
let lifecycle: 'new' | 'running' | 'shut down' = 'new';

const DEBOUNCE_MS = 120;
const REFRESH_MS = 250;

const pendingPublish = new Map<string, NodeJS.Timeout>();
const dirty = new Set<string>();
let refreshTimer: NodeJS.Timeout | null = null;

const search = new SearchService(settings.search, {
  onResult: (_key, owners) => {
    for (const uri of owners) dirty.add(uri);
    scheduleRefresh();
  },
  onActivity: (a) => progress.update(a),
});
const store = new AnalysisStore(search, () => settings);
const progress = new SearchProgress(connection, () => canReportProgress && lifecycle === 'running');

function publish(uri: string): void {
  const doc = dabDocument(uri);
  if (!doc || lifecycle !== 'running') return;
  try {
    const report = store.get(doc);
    void connection.sendDiagnostics({ uri, version: doc.version, diagnostics: diagnostics(report) });
  } catch (e) {
    // Never leave the user without an answer: say that this text could not be analysed.
    connection.console.error(`dab: ${(e as Error).stack ?? e}`);
    void connection.sendDiagnostics({
      uri,
      version: doc.version,
      diagnostics: [
        {
          range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
          severity: DiagnosticSeverity.Error,
          source: 'dab',
          code: 'internal-error',
          message: internalErrorMessage((e as Error).message),
        },
      ],
    });
  }
}

function schedulePublish(uri: string): void {
  const t = pendingPublish.get(uri);
  if (t) clearTimeout(t);
  pendingPublish.set(
    uri,
    setTimeout(() => {
      pendingPublish.delete(uri);
      guarded(() => publish(uri));
    }, DEBOUNCE_MS),
  );
}

/** Re-analyse the documents whose search results changed (throttled per document), then tell the client. */
function scheduleRefresh(delayMs = REFRESH_MS): void {
  if (refreshTimer || lifecycle !== 'running') return;
  refreshTimer = setTimeout(() => {
    refreshTimer = null;
    // after shutdown the client hears nothing more (LSP: only exit follows)
    if (lifecycle !== 'running') return;
    guarded(() => {
      let refreshed = false;
      let wait = Infinity;
      for (const uri of [...dirty]) {
        const doc = documents.get(uri);
        if (!doc) {
          dirty.delete(uri);
          continue;
        }
        const delay = store.refreshDelay(uri, REFRESH_MS);
        if (delay > 0) {
          wait = Math.min(wait, delay);
          continue;
        }
        dirty.delete(uri);
        const report = store.refresh(doc, true);
        if (report) void connection.sendDiagnostics({ uri, version: doc.version, diagnostics: diagnostics(report) });
        // only a client with dab's board listens (others log an unknown notification, or refuse it)
        if (clientRunsBoard) void connection.sendNotification(AnalysisChangedNotification, { uri });
        refreshed = true;
      }
      if (refreshed) {
        if (canRefreshLenses) void connection.sendRequest(CodeLensRefreshRequest.type).catch(() => undefined);
        if (canRefreshHints) void connection.sendRequest(InlayHintRefreshRequest.type).catch(() => undefined);
      }
      if (dirty.size > 0) scheduleRefresh(Number.isFinite(wait) ? Math.max(wait, 10) : REFRESH_MS);
    });
  }, delayMs);
}

/** A feature that throws must not take the server down; it answers nothing and logs why. */
function guarded<T>(f: () => T, fallback?: T): T {
  try {
    return f();
  } catch (e) {
    connection.console.error(`dab: ${(e as Error).stack ?? e}`);
    return fallback as T;
  }
}

/** Requests are answered only between initialize and shutdown (the errors the LSP specification names). */
function checkLifecycle(): void {
  if (lifecycle === 'new') throw new ResponseError(ErrorCodes.ServerNotInitialized, SERVER_NOT_INITIALIZED);
  if (lifecycle === 'shut down') throw new ResponseError(ErrorCodes.InvalidRequest, SERVER_SHUT_DOWN);
}

/**
 * The open dab document a request names (null params, another language, a closed document:
 * undefined). A .dab file is analysed whatever language id a client gives it; a document of
 * another language (a .dbl record, Markdown) is not.
 */
function dabDocument(uri: unknown): TextDocument | undefined {
  const doc = typeof uri === 'string' ? documents.get(uri) : undefined;
  return doc && isDab(doc) ? doc : undefined;
}

function isDab(doc: TextDocument): boolean {
  return doc.languageId === 'dab' || /\.dab$/i.test(doc.uri);
}

/** A request's position inside the document (a line that exists, a character not negative), else undefined. */
/** Whether a client's value has a position's shape (whole numbers `line` and `character`). */
function positionShaped(pos: unknown): pos is { line: number; character: number } {
  const p = pos as { line?: unknown; character?: unknown } | null | undefined;
  return !!p && Number.isInteger(p.line) && Number.isInteger(p.character);
}

function validPosition(doc: TextDocument, pos: unknown): { line: number; character: number } | undefined {
  if (!positionShaped(pos)) return undefined;
  const { line, character } = pos;
  return line >= 0 && line < doc.lineCount && character >= 0 ? { line, character } : undefined;
}

/**
 * A request's range, or the whole document when it is not one (found by an audit: `range: null` in an
 * inlay hint request logged a TypeError; the hints of the whole text are what such a client can use).
 */
function rangeOrWhole(range: unknown): Range {
  const r = range as { start?: unknown; end?: unknown } | null | undefined;
  if (r && positionShaped(r.start) && positionShaped(r.end)) return r as Range;
  return {
    start: { line: 0, character: 0 },
    end: { line: Number.MAX_SAFE_INTEGER, character: Number.MAX_SAFE_INTEGER },
  };
}

function withReport<T>(uri: unknown, f: (report: ReturnType<AnalysisStore['get']>) => T, fallback: T): T {
  checkLifecycle();
  const doc = dabDocument(uri);
  if (!doc) return fallback;
  return guarded(() => f(store.get(doc)), fallback);
}

/** The line end a text uses: its first one ("\n" for a text of one line). */
function lineEnd(text: string): string {
  const m = /\r\n|\r|\n/.exec(text);
  return m ? m[0] : '\n';
}

/** The client has sent dab/cursor (or asked for the board view): from then on hovers do not move the cursor. */
let cursorNotified = false;

function hoverFor(params: unknown): Hover | null {
  const p = params as { textDocument?: { uri?: unknown }; position?: unknown } | null;
  checkLifecycle();
  const doc = dabDocument(p?.textDocument?.uri);
  const pos = doc && validPosition(doc, p?.position);
  if (!doc || !pos) return null;
  // a client that never says where its cursor is (not VS Code's): the position hovered is the one to solve first
  if (!cursorNotified) followCursor(doc.uri, pos);
  const h = withReport(doc.uri, (r) => hover(r, pos), null);
  if (!h || !plainHovers) return h;
  const md = h.contents as { value: string };
  return { ...h, contents: { kind: MarkupKind.PlainText, value: plainFromMarkdown(md.value) } };
}

/** The settings a client gave in `initializationOptions` (other editors; VS Code's client too). */
let initSettings: unknown;

async function pullSettings(): Promise<void> {
  if (!canPullConfiguration || lifecycle !== 'running') return;
  try {
    const raw = await connection.workspace.getConfiguration({ section: 'dab' });
    // a client with no `dab` section answers null: the settings given at initialize stand
    if ((raw === null || raw === undefined) && initSettings !== undefined) return;
    applySettings(raw);
  } catch {
    /* keep the current settings */
  }
}

/** (Re)open the proof store when its setting changed; problems with it are told to the user. */
let storeSetting = '';
let proofs: ProofCache | undefined;
function applyStoreSetting(): void {
  const path = resolveStorePath(settings.store.path);
  const id = `${path}|${settings.store.maxSizeMb}`;
  if (id === storeSetting) return;
  storeSetting = id;
  const warn = (w: string) => {
    connection.console.warn(`dab: ${w}`);
    // a notification (window/showMessage), not a request a client may not answer
    void connection.sendNotification(ShowMessageNotification.type, { type: MessageType.Warning, message: `dab: ${w}` });
  };
  proofs?.close();
  proofs = openProofCache(path, { maxBytes: settings.store.maxSizeMb * 1024 * 1024, onWarning: warn });
  search.useProofStore(proofs);
}

function applySettings(raw: unknown): void {
  if (lifecycle !== 'running') return;
  // over the initialization options: a client's `settings` and its `initializationOptions` combine
  // (found by an audit: a Neovim user's settings table dropped the init_options' store and hints)
  settings = readSettings(raw, initSettings !== undefined ? readSettings(initSettings) : defaultSettings);
  // the search's limits first: the store's failed attempts are read against them
  search.configure(settings.search);
  applyStoreSetting();
  for (const doc of documents.all()) {
    store.refresh(doc);
    publish(doc.uri);
  }
  if (canRefreshLenses) void connection.sendRequest(CodeLensRefreshRequest.type).catch(() => undefined);
  if (canRefreshHints) void connection.sendRequest(InlayHintRefreshRequest.type).catch(() => undefined);
}

connection.onInitialize((params: InitializeParams): InitializeResult => {
  if (lifecycle !== 'new') throw new ResponseError(ErrorCodes.InvalidRequest, SERVER_ALREADY_INITIALIZED);
  lifecycle = 'running';
  const caps = params?.capabilities ?? {};
  const formats = caps.textDocument?.hover?.contentFormat;
  // the client's order is its preference (LSP): Markdown unless plain text comes first or alone
  plainHovers = Array.isArray(formats) && formats.length > 0 && formats[0] !== MarkupKind.Markdown;
  canPullConfiguration = !!caps.workspace?.configuration;
  const symbols = caps.textDocument?.documentSymbol;
  const kinds = symbols?.symbolKind?.valueSet;
  symbolSupport = {
    hierarchical: symbols?.hierarchicalDocumentSymbolSupport === true,
    ...(Array.isArray(kinds) ? { kinds } : {}),
  };
  canRefreshLenses = !!caps.workspace?.codeLens?.refreshSupport;
  canRefreshHints = !!caps.workspace?.inlayHint?.refreshSupport;
  canReportProgress = !!caps.window?.workDoneProgress;
  codeActionForm = caps.textDocument?.codeAction?.codeActionLiteralSupport
    ? 'literal'
    : caps.workspace?.applyEdit
      ? 'command'
      : 'none';
  const init = params?.initializationOptions as DabInitializationOptions | undefined;
  if (init?.settings) {
    initSettings = init.settings;
    settings = readSettings(init.settings);
    search.configure(settings.search);
  }
  clientRunsBoard = Array.isArray(init?.clientCommands) && init.clientCommands.includes(SHOW_BOARD_COMMAND);
  lensCommand = clientRunsBoard ? SHOW_BOARD_COMMAND : SHOW_POSITION_COMMAND;
  return {
    capabilities: {
      textDocumentSync: TextDocumentSyncKind.Incremental,
      hoverProvider: true,
      codeLensProvider: { resolveProvider: false },
      inlayHintProvider: true,
      documentSymbolProvider: true,
      foldingRangeProvider: true,
      // a client that can take the quick fix neither as a literal nor as a command is offered none
      ...(codeActionForm === 'none' ? {} : { codeActionProvider: { codeActionKinds: ['quickfix'] } }),
      ...commandsProvided(),
    },
    serverInfo: { name: 'dab-language-server', version },
  };
});

connection.onInitialized(() => {
  applyStoreSetting();
  void pullSettings();
});
connection.onDidChangeConfiguration((change) => {
  const s = (change.settings as { dab?: unknown } | undefined)?.dab;
  if (s !== undefined) applySettings(s);
  else void pullSettings();
});

// debounced like an edit: a document closed again at once (a client opening many) is never analysed
documents.onDidOpen((e) => schedulePublish(e.document.uri));
documents.onDidChangeContent((e) => schedulePublish(e.document.uri));
documents.onDidClose((e) => {
  store.close(e.document.uri);
  void connection.sendDiagnostics({ uri: e.document.uri, diagnostics: [] });
});

// params are read defensively: a client may send null or a malformed object. The requests are
// registered by their types, not by onHover & co., whose wrappers read params.workDoneToken first
// and answer `params: null` with an internal error before the handler runs.
connection.onRequest(HoverRequest.type, (p) => hoverFor(p));
connection.onRequest(CodeLensRequest.type, (p) =>
  withReport(p?.textDocument?.uri, (r) => codeLenses(r, p.textDocument.uri, lensCommand), []),
);
connection.onRequest(ExecuteCommandRequest.type, (p) => {
  checkLifecycle();
  if (p?.command === INSERT_BETTER_LINE_COMMAND && codeActionForm === 'command') return insertBetterLine(p.arguments);
  if (p?.command !== SHOW_POSITION_COMMAND) return null;
  const [uri, position] = Array.isArray(p.arguments) ? p.arguments : [];
  const doc = dabDocument(uri);
  const pos = doc && validPosition(doc, position);
  const text = doc && pos ? withReport(doc.uri, (r) => showPosition(r, pos), null) : null;
  // the user ran a command: something is always said (found by an audit with Neovim: stale lenses said nothing)
  void connection.sendNotification(ShowMessageNotification.type, {
    type: text ? MessageType.Info : MessageType.Warning,
    message: text ?? SHOW_POSITION_NOTHING,
  });
  return text;
});
connection.onRequest(InlayHintRequest.type, (p) =>
  withReport(p?.textDocument?.uri, (r) => inlayHints(r, rangeOrWhole(p?.range), settings), []),
);
connection.onRequest(DocumentSymbolRequest.type, (p) =>
  withReport(p?.textDocument?.uri, (r) => symbolsForClient(documentSymbols(r), p.textDocument.uri, symbolSupport), []),
);
connection.onRequest(FoldingRangeRequest.type, (p) => withReport(p?.textDocument?.uri, (r) => foldingRanges(r), []));
connection.onRequest(CodeActionRequest.type, (p) =>
  withReport(
    p?.textDocument?.uri,
    (r) =>
      codeActionsForClient(
        codeActions(r, p, (s) => search.peek(s)),
        codeActionForm,
        INSERT_BETTER_LINE_COMMAND,
      ),
    [],
  ),
);

/**
 * The commands the server runs: the text view of the lenses unless dab's VS Code client runs its
 * own board (announcing it would clash with the client's), the quick fix for a client that takes
 * code actions as commands.
 */
function commandsProvided(): { executeCommandProvider?: { commands: string[] } } {
  const commands = [
    ...(clientRunsBoard ? [] : [SHOW_POSITION_COMMAND]),
    ...(codeActionForm === 'command' ? [INSERT_BETTER_LINE_COMMAND] : []),
  ];
  return commands.length ? { executeCommandProvider: { commands } } : {};
}

/**
 * The quick fix as a command: worked out again at the place it was offered for (the document may
 * have changed since; then there is nothing to write, or the fix of the text as it is now), never an
 * edit taken from the client's arguments.
 */
function insertBetterLine(args: unknown[] | undefined): null {
  const [uri, position] = Array.isArray(args) ? args : [];
  const doc = dabDocument(uri);
  const pos = doc && validPosition(doc, position);
  if (!doc || !pos) return null;
  const params = { textDocument: { uri: doc.uri }, range: { start: pos, end: pos }, context: { diagnostics: [] } };
  const [fix] = withReport(doc.uri, (r) => codeActions(r, params, (s) => search.peek(s)), []);
  if (fix?.edit) void connection.workspace.applyEdit({ label: fix.title, edit: fix.edit }).catch(() => undefined);
  return null;
}
connection.onRequest(BoardViewRequest, (p) => {
  checkLifecycle();
  if (!p) return null;
  // a position that is not one (null, off the text): no view, and no error logged (found by an audit)
  const doc = dabDocument(p.uri);
  const position = doc && validPosition(doc, p.position);
  if (!position) return null;
  cursorNotified = true;
  followCursor(p.uri, position, p.ply);
  return withReport(p.uri, (r) => boardView(r, { ...p, position }, (s) => search.peek(s)), null);
});

connection.onRequest(PlayLineRequest, (p) => {
  checkLifecycle();
  if (!p) return { error: PLAY_DOCUMENT_NOT_OPEN };
  const doc = dabDocument(p.uri);
  if (doc && p.version !== undefined && doc.version !== p.version) return { error: PLAY_DOCUMENT_CHANGED };
  const position = doc && validPosition(doc, p.position);
  if (doc && !position) return { error: PLAY_NEEDS_BOARD_ENTRY };
  const lineText = (line: number) =>
    doc ? doc.getText({ start: { line, character: 0 }, end: { line: line + 1, character: 0 } }) : '';
  const played = withReport(p.uri, (r) => playLine(r, p, (s) => search.peek(s), lineText), {
    error: PLAY_DOCUMENT_NOT_OPEN,
  });
  // a new line is written with the document's own line end (found by an audit: LF in a CRLF file)
  const eol = doc ? lineEnd(doc.getText()) : '\n';
  if (played.edit && eol !== '\n') played.edit = { ...played.edit, newText: played.edit.newText.replace(/\n/g, eol) };
  return played;
});
connection.onRequest(ImportDblRequest, (p) => {
  checkLifecycle();
  return importDbl(p);
});
// The position under the cursor is solved first (the board view follows the cursor too).
connection.onNotification(CursorNotification, (p) => {
  cursorNotified = true;
  followCursor(p?.uri, p?.position);
});

function followCursor(uri: unknown, pos: { line: number; character: number } | undefined, ply?: number): void {
  const doc = dabDocument(uri);
  if (!doc || !pos || !Number.isInteger(pos.line) || !Number.isInteger(pos.character)) return;
  guarded(() => {
    const state = store.stateAt(doc, pos.line, pos.character, Number.isInteger(ply) ? ply : undefined);
    search.setCursor(doc.uri, state?.key());
  });
}

connection.onShutdown(() => {
  checkLifecycle();
  lifecycle = 'shut down';
  if (refreshTimer) clearTimeout(refreshTimer);
  refreshTimer = null;
  for (const t of pendingPublish.values()) clearTimeout(t);
  pendingPublish.clear();
  progress.update(null);
  search.dispose();
  proofs?.close();
});
// exit code 0 only after a shutdown this server accepted (the library counts a refused one too)
connection.onExit(() => process.exit(lifecycle === 'shut down' ? 0 : 1));
// requests for methods the server has not: MethodNotFound, but InvalidRequest after shutdown
connection.onRequest((method) => {
  checkLifecycle();
  throw new ResponseError(ErrorCodes.MethodNotFound, `${UNHANDLED_METHOD}: ${method}`);
});

documents.listen(connection);
connection.listen();
