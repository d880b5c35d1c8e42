/**
 * A minimal real LSP client for protocol tests: spawns `node dist/server.js --stdio` (the same
 * server the extension and other editors start) and talks JSON-RPC over its stdio streams.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  createMessageConnection,
  StreamMessageReader,
  StreamMessageWriter,
  type MessageConnection,
} from 'vscode-jsonrpc/node';

export interface PublishedDiagnostics {
  uri: string;
  version?: number;
  diagnostics: any[];
}

export class LspTestClient {
  readonly process: ChildProcess;
  readonly connection: MessageConnection;
  readonly diagnostics = new Map<string, PublishedDiagnostics>();
  /** Every publication, in the order they came. */
  readonly published: PublishedDiagnostics[] = [];
  private waiters: {
    uri: string;
    pred: (d: PublishedDiagnostics) => boolean;
    resolve: (d: PublishedDiagnostics) => void;
  }[] = [];
  stderr = '';
  /** Messages the server showed (window/showMessage). */
  readonly shownMessages: { type: number; message: string }[] = [];
  /** Messages the server logged as errors (window/logMessage of type Error). */
  readonly errorLogs: string[] = [];

  /** `serverPath`: another build of the server (the bench runs the baseline's beside this one); `env`: the server's environment. */
  /** `settings`: the client's `dab` section (null: it has none, as a client configured otherwise answers). */
  constructor(
    settings: Record<string, unknown> | null = {},
    serverPath = resolve('dist/server.js'),
    env: NodeJS.ProcessEnv = process.env,
  ) {
    this.process = spawn(process.execPath, [serverPath, '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'], env });
    this.process.stderr!.on('data', (d) => {
      this.stderr += String(d);
    });
    this.connection = createMessageConnection(
      new StreamMessageReader(this.process.stdout!),
      new StreamMessageWriter(this.process.stdin!),
    );
    this.connection.onNotification('textDocument/publishDiagnostics', (p: PublishedDiagnostics) => {
      this.diagnostics.set(p.uri, p);
      this.published.push(p);
      this.waiters = this.waiters.filter((w) => {
        if (w.uri === p.uri && w.pred(p)) {
          w.resolve(p);
          return false;
        }
        return true;
      });
    });
    this.connection.onRequest('workspace/configuration', (params: { items: { section?: string }[] }) =>
      params.items.map((i) => (i.section === 'dab' || i.section === undefined ? settings : null)),
    );
    this.connection.onRequest('workspace/codeLens/refresh', () => null);
    this.connection.onRequest('workspace/inlayHint/refresh', () => null);
    this.connection.onRequest('window/workDoneProgress/create', () => null);
    this.connection.onNotification('window/showMessage', (p: { type: number; message: string }) => {
      this.shownMessages.push(p);
    });
    this.connection.onNotification('window/logMessage', (p: { type: number; message: string }) => {
      if (p.type === 1) this.errorLogs.push(p.message);
    });
    this.connection.onNotification(() => undefined);
    this.connection.listen();
  }

  /** `bare`: a minimal client (no configuration, no refresh, no progress), like older editors. */
  async initialize(bare = false, initializationOptions?: unknown): Promise<any> {
    const result = await this.connection.sendRequest('initialize', {
      processId: process.pid,
      rootUri: null,
      ...(initializationOptions !== undefined ? { initializationOptions } : {}),
      capabilities: bare
        ? {}
        : {
            workspace: {
              configuration: true,
              applyEdit: true,
              codeLens: { refreshSupport: true },
              inlayHint: { refreshSupport: true },
            },
            textDocument: {
              codeAction: { codeActionLiteralSupport: { codeActionKind: { valueSet: ['quickfix'] } } },
              hover: { contentFormat: ['markdown', 'plaintext'] },
              publishDiagnostics: { relatedInformation: true },
              documentSymbol: { hierarchicalDocumentSymbolSupport: true },
            },
            window: { workDoneProgress: true },
          },
    });
    await this.connection.sendNotification('initialized', {});
    return result;
  }

  /** Initialize with exactly these client capabilities (a client other than VS Code's). */
  async initializeWith(capabilities: unknown): Promise<any> {
    const result = await this.connection.sendRequest('initialize', {
      processId: process.pid,
      rootUri: null,
      capabilities,
    });
    await this.connection.sendNotification('initialized', {});
    return result;
  }

  /** Sends exit: the server's exit code. */
  exit(): Promise<number | null> {
    const exited = new Promise<number | null>((res) => this.process.on('exit', (code) => res(code)));
    void this.connection.sendNotification('exit');
    return exited;
  }

  /** Ends the server at once (after a test that ended it itself, or failed). */
  kill(): void {
    this.process.kill('SIGKILL');
    this.connection.dispose();
  }

  open(name: string, text: string, version = 1): string {
    const uri = pathToFileURL(resolve('/tmp/dab-protocol', name)).href;
    void this.connection.sendNotification('textDocument/didOpen', {
      textDocument: { uri, languageId: 'dab', version, text },
    });
    return uri;
  }

  change(uri: string, text: string, version: number): void {
    void this.connection.sendNotification('textDocument/didChange', {
      textDocument: { uri, version },
      contentChanges: [{ text }],
    });
  }

  close(uri: string): void {
    void this.connection.sendNotification('textDocument/didClose', { textDocument: { uri } });
  }

  /** Resolves with the next diagnostics for `uri` that satisfy `pred` (or the current ones if they already do). */
  waitForDiagnostics(
    uri: string,
    pred: (d: PublishedDiagnostics) => boolean = () => true,
    timeoutMs = 15000,
  ): Promise<PublishedDiagnostics> {
    const now = this.diagnostics.get(uri);
    if (now && pred(now)) return Promise.resolve(now);
    return new Promise((res, rej) => {
      const t = setTimeout(
        () => rej(new Error(`no diagnostics for ${uri} within ${timeoutMs} ms; stderr: ${this.stderr}`)),
        timeoutMs,
      );
      this.waiters.push({
        uri,
        pred,
        resolve: (d) => {
          clearTimeout(t);
          res(d);
        },
      });
    });
  }

  request<T = any>(method: string, params: unknown): Promise<T> {
    return this.connection.sendRequest(method, params) as Promise<T>;
  }

  async shutdown(): Promise<void> {
    try {
      await Promise.race([this.connection.sendRequest('shutdown'), new Promise((r) => setTimeout(r, 2000))]);
      void this.connection.sendNotification('exit');
    } catch {
      /* already gone */
    }
    setTimeout(() => this.process.kill('SIGKILL'), 1000).unref();
    this.connection.dispose();
  }
}
