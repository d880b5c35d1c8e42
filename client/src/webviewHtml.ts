/**
 * The board webview's HTML skeleton (no vscode import, so tests can load the very same page in a
 * browser). It holds no text from any document: the webview script (webview/main.ts, bundled to
 * dist/webview/board.js) fills it with DOM APIs.
 */
export interface BoardHtmlParts {
  /** webview.cspSource (where local resources may come from). */
  cspSource: string;
  nonce: string;
  /** URLs of media/board.css and dist/webview/board.js as the webview sees them. */
  css: string;
  boardJs: string;
}

export function boardContentSecurityPolicy(cspSource: string, nonce: string): string {
  return `default-src 'none'; img-src ${cspSource}; style-src ${cspSource}; script-src 'nonce-${nonce}';`;
}

const attr = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function boardHtml(p: BoardHtmlParts): string {
  const nonce = attr(p.nonce);
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${attr(boardContentSecurityPolicy(p.cspSource, p.nonce))}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${attr(p.css)}">
<title>dab board</title>
</head>
<body>
<main aria-label="Dots-and-Boxes board">
  <header><h1 id="title"></h1><span class="kind" id="kind"></span></header>
  <div class="facts"><span id="score"></span><span id="mover"></span><span class="value" id="value"></span></div>
  <blockquote id="comment" dir="auto" aria-label="Comment on the last move" hidden></blockquote>
  <p id="empty"></p>
  <nav id="nav" aria-label="Step through the record" hidden>
    <button id="first" type="button" aria-label="First position (Home)" title="First (Home)">|◀</button>
    <button id="prev" type="button" aria-label="Previous move (Left arrow)" title="Previous (←)">◀</button>
    <button id="next" type="button" aria-label="Next move (Right arrow)" title="Next (→)">▶</button>
    <button id="last" type="button" aria-label="Last position (End)" title="Last (End)">▶|</button>
    <span id="ply" aria-live="polite"></span>
  </nav>
  <div id="board" tabindex="0" aria-label="Board (arrow keys step through the record; Tab to a line and Enter plays it)"></div>
  <p id="line-info" aria-live="polite"></p>
  <div id="legend" aria-label="Heat map: boxes each line throws away" hidden></div>
  <section id="pv-box" aria-label="Best line for both sides" hidden>
    <span class="pv-title">Best line (as far as proven):</span>
    <button id="pv-prev" type="button" aria-label="Best line: one move back" title="Back">◀</button>
    <button id="pv-next" type="button" aria-label="Best line: one move on" title="On">▶</button>
    <ol id="pv"></ol>
  </section>
  <label id="playout-box"><input type="checkbox" id="playout"> Play it out: the engine answers each line you play</label>
  <section id="graph-box" aria-label="Value graph" hidden>
    <div id="graph"></div>
  </section>
  <div id="status" class="visually-hidden" role="status" aria-live="polite"></div>
</main>
<script nonce="${nonce}" src="${attr(p.boardJs)}"></script>
</body>
</html>`;
}

export function makeNonce(): string {
  const chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  const bytes = new Uint8Array(32);
  globalThis.crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => chars[b % chars.length]).join('');
}
