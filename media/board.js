// @ts-check
/**
 * The dab board webview. It only draws what the extension sends (a BoardView, see
 * server/src/protocol.ts) with media/boardView.js, and reports the user's navigation back:
 *   extension -> webview: { type: 'view', view, uri, position } | { type: 'empty', message } | { type: 'exportSvg' }
 *   webview -> extension: { type: 'ready' } | { type: 'gotoPly', ply } | { type: 'svg', svg, title }
 * State (uri, position, ply, view) is kept with setState so a reload or restart redraws at once.
 */
(function () {
  'use strict';
  // @ts-ignore acquireVsCodeApi is provided by the webview host
  const vscode = acquireVsCodeApi();
  // @ts-ignore set by boardView.js
  const D = window.DabBoard;
  /** @type {{ uri?: string, position?: {line:number, character:number}, ply?: number, view?: any, message?: string }} */
  let state = vscode.getState() || {};

  const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
  const titleEl = $('title');
  const kindEl = $('kind');
  const scoreEl = $('score');
  const moverEl = $('mover');
  const valueEl = $('value');
  const boardEl = $('board');
  const graphEl = $('graph');
  const graphBox = $('graph-box');
  const navEl = $('nav');
  const plyEl = $('ply');
  const statusEl = $('status');
  const emptyEl = $('empty');
  const buttons = {
    first: /** @type {HTMLButtonElement} */ ($('first')),
    prev: /** @type {HTMLButtonElement} */ ($('prev')),
    next: /** @type {HTMLButtonElement} */ ($('next')),
    last: /** @type {HTMLButtonElement} */ ($('last')),
  };

  function clear(node) {
    while (node.firstChild) node.removeChild(node.firstChild);
  }

  function playerName(view, who) {
    const p = Array.isArray(view.players) ? view.players[who] : '';
    return typeof p === 'string' && p ? p : who === 0 ? 'A' : 'B';
  }

  function render() {
    const view = state.view;
    if (!view) {
      document.body.classList.add('is-empty');
      emptyEl.textContent = state.message || 'Place the cursor in a game, position or endgame of a .dab file.';
      clear(boardEl);
      clear(graphEl);
      statusEl.textContent = emptyEl.textContent;
      return;
    }
    document.body.classList.remove('is-empty');
    emptyEl.textContent = '';
    titleEl.textContent = view.entryTitle || '(untitled)';
    kindEl.textContent = String(view.entryKind || '');
    const score = Array.isArray(view.score) ? view.score : [0, 0];
    scoreEl.textContent = `${playerName(view, 0)} ${score[0]} – ${score[1]} ${playerName(view, 1)}`;
    moverEl.textContent = `${playerName(view, view.toMove === 1 ? 1 : 0)} to move`;
    valueEl.textContent = view.valueText || (view.value === null ? 'value unknown' : '');
    clear(boardEl);
    // The facts are above the board in the panel; the exported SVG carries them in a caption.
    boardEl.appendChild(D.renderBoard(view, document, { caption: false }));
    clear(graphEl);
    const hasRecord = Number(view.plyCount) > 0;
    graphBox.hidden = !hasRecord || !Array.isArray(view.graph) || view.graph.length === 0;
    if (!graphBox.hidden) graphEl.appendChild(D.renderGraph(view, document, goto));
    navEl.hidden = !hasRecord;
    plyEl.textContent = hasRecord ? `move ${view.ply} of ${view.plyCount}` : '';
    buttons.first.disabled = buttons.prev.disabled = !hasRecord || view.ply <= 0;
    buttons.next.disabled = buttons.last.disabled = !hasRecord || view.ply >= view.plyCount;
    statusEl.textContent = D.describeView(view);
  }

  /** @param {number} ply */
  function goto(ply) {
    const view = state.view;
    if (!view || !(Number(view.plyCount) > 0)) return;
    const target = Math.max(0, Math.min(Number(view.plyCount), Math.floor(ply)));
    if (target === view.ply) return;
    vscode.postMessage({ type: 'gotoPly', ply: target });
  }
  function step(which) {
    const view = state.view;
    if (!view) return;
    const p = Number(view.ply) || 0;
    const n = Number(view.plyCount) || 0;
    goto(which === 'first' ? 0 : which === 'prev' ? p - 1 : which === 'next' ? p + 1 : n);
  }
  for (const k of /** @type {(keyof typeof buttons)[]} */ (['first', 'prev', 'next', 'last'])) {
    buttons[k].addEventListener('click', () => step(k));
  }
  document.addEventListener('keydown', (ev) => {
    if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
    const map = {
      ArrowLeft: 'prev',
      ArrowRight: 'next',
      Home: 'first',
      End: 'last',
      ArrowUp: 'prev',
      ArrowDown: 'next',
    };
    const which = map[ev.key];
    if (!which) return;
    ev.preventDefault();
    step(which);
  });

  /** A standalone copy of the board SVG with the theme's colours written into it. */
  function exportSvg() {
    if (!state.view) return null;
    // Draw a copy with its caption off-screen so the theme's CSS applies, then inline the colours.
    const scratch = document.createElement('div');
    scratch.id = 'export-scratch';
    scratch.setAttribute('aria-hidden', 'true');
    document.body.appendChild(scratch);
    const svg = D.renderBoard(state.view, document);
    scratch.appendChild(svg);
    try {
      return inlineStyles(svg);
    } finally {
      scratch.remove();
    }
  }

  /** @param {SVGSVGElement} svg */
  function inlineStyles(svg) {
    const copy = /** @type {SVGSVGElement} */ (svg.cloneNode(true));
    const src = svg.querySelectorAll('*');
    const dst = copy.querySelectorAll('*');
    const props = [
      'fill',
      'fill-opacity',
      'stroke',
      'stroke-width',
      'stroke-opacity',
      'stroke-dasharray',
      'font-family',
      'font-size',
      'font-weight',
    ];
    for (let i = 0; i < src.length; i++) {
      const cs = getComputedStyle(src[i]);
      for (const p of props) {
        const v = cs.getPropertyValue(p);
        if ((v && v !== 'none') || p === 'fill' || p === 'stroke') dst[i].setAttribute(p, v || 'none');
      }
      dst[i].removeAttribute('class');
      dst[i].removeAttribute('tabindex');
    }
    const bg = getComputedStyle(document.body).backgroundColor;
    const rect = document.createElementNS(D.SVG_NS, 'rect');
    rect.setAttribute('width', '100%');
    rect.setAttribute('height', '100%');
    rect.setAttribute('fill', bg || '#ffffff');
    copy.insertBefore(rect, copy.firstChild ? copy.firstChild.nextSibling : null);
    copy.removeAttribute('class');
    copy.setAttribute('xmlns', D.SVG_NS);
    return new XMLSerializer().serializeToString(copy);
  }

  window.addEventListener('message', (event) => {
    const m = event.data;
    if (!m || typeof m !== 'object') return;
    if (m.type === 'view') {
      state = {
        uri: m.uri,
        position: m.position,
        ply: m.view ? m.view.ply : undefined,
        view: m.view || undefined,
        message: m.message,
      };
      vscode.setState(state);
      render();
    } else if (m.type === 'empty') {
      state = { uri: m.uri, position: m.position, message: typeof m.message === 'string' ? m.message : undefined };
      vscode.setState(state);
      render();
    } else if (m.type === 'exportSvg') {
      vscode.postMessage({ type: 'svg', svg: exportSvg(), title: state.view ? state.view.entryTitle : '' });
    }
  });

  render();
  vscode.postMessage({ type: 'ready' });
})();
