/**
 * Dabble/KSquares `.dbl` files in the editor: when one is opened, its problems are shown (with the
 * same positioned messages as `.dab`) and the user is offered to convert it; the command
 * `dab.convertDbl` opens the converted `.dab` entry in a new editor. The conversion itself is the
 * server's (`dab/importDbl`), so the client holds no notation code.
 */
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { ImportDblRequest, type ImportDblResult } from '../../shared/protocol';
import {
  CONVERT_ACTION,
  DBL_PROBLEMS_SOURCE,
  DBL_SERVER_NOT_RUNNING,
  OPEN_DBL_FIRST,
  dblNotConverted,
  offerDblConversion,
} from '../../server/src/engine/phrasebook/editor';

const SEVERITY: Record<ImportDblResult['problems'][number]['severity'], vscode.DiagnosticSeverity> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  information: vscode.DiagnosticSeverity.Information,
  hint: vscode.DiagnosticSeverity.Hint,
};

const isDbl = (d: vscode.TextDocument) => d.languageId === 'dbl' || d.uri.path.toLowerCase().endsWith('.dbl');

/**
 * Registers the command and the listeners; returns the function to call once the server runs, which
 * makes the offer for the .dbl files already open.
 */
export function registerDblImport(
  context: vscode.ExtensionContext,
  getClient: () => LanguageClient | undefined,
): () => void {
  const problems = vscode.languages.createDiagnosticCollection(DBL_PROBLEMS_SOURCE);
  const offered = new Set<string>();

  const convert = async (doc: vscode.TextDocument): Promise<ImportDblResult | undefined> => {
    const c = getClient();
    if (!c) {
      void vscode.window.showErrorMessage(DBL_SERVER_NOT_RUNNING);
      return undefined;
    }
    const title = doc.uri.path
      .split('/')
      .pop()!
      .replace(/\.dbl$/i, '');
    const r = await c.sendRequest(ImportDblRequest, { text: doc.getText(), title });
    problems.set(
      doc.uri,
      r.problems.map((p) => {
        const d = new vscode.Diagnostic(
          new vscode.Range(p.range.start.line, p.range.start.character, p.range.end.line, p.range.end.character),
          p.message,
          SEVERITY[p.severity],
        );
        d.code = p.code;
        d.source = 'dab';
        return d;
      }),
    );
    return r;
  };

  const openConverted = async (doc: vscode.TextDocument | undefined) => {
    if (!doc || !isDbl(doc)) {
      void vscode.window.showInformationMessage(OPEN_DBL_FIRST);
      return;
    }
    const r = await convert(doc);
    if (!r) return;
    if (r.text === undefined) {
      const n = r.problems.filter((p) => p.severity === 'error').length;
      void vscode.window.showErrorMessage(dblNotConverted(n));
      return;
    }
    const dab = await vscode.workspace.openTextDocument({ language: 'dab', content: r.text });
    await vscode.window.showTextDocument(dab, { preview: false });
  };

  const offer = async (doc: vscode.TextDocument) => {
    // Before the server runs, the offer waits for the call made when it is ready.
    if (!isDbl(doc) || offered.has(doc.uri.toString()) || !getClient()) return;
    offered.add(doc.uri.toString());
    const r = await convert(doc);
    if (!r) return;
    const choice = await vscode.window.showInformationMessage(offerDblConversion(r.kind), CONVERT_ACTION);
    if (choice === CONVERT_ACTION) await openConverted(doc);
  };

  context.subscriptions.push(
    problems,
    vscode.commands.registerCommand('dab.convertDbl', (uri?: unknown) => {
      const doc =
        uri instanceof vscode.Uri
          ? vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString())
          : vscode.window.activeTextEditor?.document;
      return openConverted(doc);
    }),
    vscode.workspace.onDidOpenTextDocument((d) => void offer(d)),
    vscode.workspace.onDidChangeTextDocument((e) => {
      if (isDbl(e.document) && getClient()) void convert(e.document);
    }),
    vscode.workspace.onDidCloseTextDocument((d) => {
      problems.delete(d.uri);
      offered.delete(d.uri.toString());
    }),
  );
  return () => {
    for (const d of vscode.workspace.textDocuments) void offer(d);
  };
}
