/**
 * The dab board webview. It only draws what the extension sends (a BoardView) and reports what
 * the user did; both directions are typed in shared/protocol.ts (ToBoardWebview,
 * FromBoardWebview). State is kept with setState so a reload or restart redraws at once.
 * Bundled by esbuild.mjs for the browser (dist/webview/board.js), loaded under a nonce CSP.
 */
import type { BoardView, BoardWebviewState, FromBoardWebview, ToBoardWebview } from '../shared/protocol';
import { describeView, moverLine, scoreLine } from '../render/board';
import { heatLegend } from '../render/heat';
import { PLACE_CURSOR_FOR_BOARD, UNTITLED, VALUE_UNKNOWN, boardPly } from '../server/src/engine/phrasebook/editor';
import { exportableSvg } from './export';
import { renderBoard, renderGraph } from './dom';

interface VsCodeApi {
  postMessage(message: FromBoardWebview): void;
  getState(): BoardWebviewState | undefined;
  setState(state: BoardWebviewState): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();
let state: BoardWebviewState = vscode.getState() ?? {};

const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;
const titleEl = $('title');
const kindEl = $('kind');
const scoreEl = $('score');
const moverEl = $('mover');
const valueEl = $('value');
const commentEl = $('comment');
const boardEl = $('board');
const legendEl = $('legend');
const lineInfoEl = $('line-info');
const graphEl = $('graph');
const graphBox = $('graph-box');
const navEl = $('nav');
const plyEl = $('ply');
const statusEl = $('status');
const emptyEl = $('empty');
const pvBox = $('pv-box');
const pvList = $('pv');
const pvPrev = $<HTMLButtonElement>('pv-prev');
const pvNext = $<HTMLButtonElement>('pv-next');
const playOut = $<HTMLInputElement>('playout');
const playOutBox = $('playout-box');
/** How many moves of the best line are shown on the board (0 = the position itself). */
let pvStep = 0;
/** What the board on screen was drawn from (see render). */
let drawnBoardKey = '';
const buttons = {
  first: $<HTMLButtonElement>('first'),
  prev: $<HTMLButtonElement>('prev'),
  next: $<HTMLButtonElement>('next'),
  last: $<HTMLButtonElement>('last'),
};
type Step = keyof typeof buttons;

const post = (m: FromBoardWebview) => vscode.postMessage(m);

function clear(node: Element): void {
  while (node.firstChild) node.removeChild(node.firstChild);
}

function render(): void {
  const view = state.view;
  if (!view) {
    document.body.classList.add('is-empty');
    emptyEl.textContent = state.message || PLACE_CURSOR_FOR_BOARD;
    drawnBoardKey = '';
    clear(boardEl);
    clear(graphEl);
    clear(legendEl);
    clear(pvList);
    pvBox.hidden = true;
    playOutBox.hidden = true;
    lineInfoEl.textContent = '';
    commentEl.textContent = '';
    commentEl.hidden = true;
    statusEl.textContent = emptyEl.textContent;
    return;
  }
  document.body.classList.remove('is-empty');
  emptyEl.textContent = '';
  titleEl.textContent = view.entryTitle || UNTITLED;
  kindEl.textContent = String(view.entryKind || '');
  scoreEl.textContent = scoreLine(view);
  moverEl.textContent = moverLine(view);
  valueEl.textContent = view.valueText || (view.value === null ? VALUE_UNKNOWN : '');
  // the annotator's comment on the move that led here (text from the file: textContent only)
  commentEl.textContent = typeof view.lastMoveComment === 'string' ? view.lastMoveComment : '';
  commentEl.hidden = !commentEl.textContent;
  // Proofs land in the background and the view is sent again: redraw the board only when what it
  // shows changed (the graph changes more often), and keep the focused line focused.
  const boardKey = JSON.stringify({ ...view, graph: undefined, pvStep });
  if (boardKey !== drawnBoardKey) {
    drawnBoardKey = boardKey;
    const focused = (document.activeElement as Element | null)?.closest?.('.move')?.getAttribute('data-line');
    clear(boardEl);
    // The facts are above the board in the panel; the exported SVG carries them in a caption.
    const svg = renderBoard(view, document, { caption: false, pvStep }, (a) => {
      if (a.kind === 'play') post({ type: 'play', line: a.line });
    });
    boardEl.appendChild(svg);
    wireLineInfo(svg);
    if (focused) {
      const again = Array.from(svg.querySelectorAll('.move')).find((m) => m.getAttribute('data-line') === focused);
      (again as SVGElement | undefined)?.focus();
    }
    renderLegend(view);
    renderPv(view);
  }
  playOutBox.hidden = !(view.width > 0 && view.height > 0);
  clear(graphEl);
  const hasRecord = Number(view.plyCount) > 0;
  graphBox.hidden = !hasRecord || !Array.isArray(view.graph) || view.graph.length === 0;
  if (!graphBox.hidden) graphEl.appendChild(renderGraph(view, document, goto));
  navEl.hidden = !hasRecord;
  plyEl.textContent = hasRecord ? boardPly(view.ply, view.plyCount, view.variation?.replaces) : '';
  buttons.first.disabled = buttons.prev.disabled = !hasRecord || view.ply <= 0;
  buttons.next.disabled = buttons.last.disabled = !hasRecord || view.ply >= view.plyCount;
  statusEl.textContent = describeView(view);
}

/** Hovering or focusing an undrawn line shows what playing it means, in words, under the board. */
function wireLineInfo(svg: SVGSVGElement): void {
  lineInfoEl.textContent = '';
  const show = (ev: Event) => {
    const move = (ev.target as Element | null)?.closest?.('.move');
    if (move) lineInfoEl.textContent = move.getAttribute('aria-label') ?? '';
  };
  svg.addEventListener('mouseover', show);
  svg.addEventListener('focusin', show);
}

/** The heat map's legend: one sample line (colour and dash) and its words per band. */
function renderLegend(view: BoardView): void {
  clear(legendEl);
  legendEl.hidden = !view.solved || !Array.isArray(view.moves) || view.moves.length === 0;
  if (legendEl.hidden) return;
  const NS = 'http://www.w3.org/2000/svg';
  for (const band of heatLegend()) {
    const item = document.createElement('span');
    item.className = `legend-item ${band.className}`;
    const sample = document.createElementNS(NS, 'svg');
    sample.setAttribute('width', '28');
    sample.setAttribute('height', '10');
    sample.setAttribute('aria-hidden', 'true');
    const line = document.createElementNS(NS, 'line');
    for (const [k, v] of Object.entries({ x1: 2, y1: 5, x2: 26, y2: 5, 'stroke-width': 3, stroke: band.color })) {
      line.setAttribute(k, String(v));
    }
    line.setAttribute('class', 'move-line');
    if (band.dash !== 'none') line.setAttribute('stroke-dasharray', band.dash);
    sample.appendChild(line);
    item.appendChild(sample);
    item.appendChild(document.createTextNode(band.label));
    legendEl.appendChild(item);
  }
}

/** The principal variation as a numbered list; the moves shown on the board are marked. */
function renderPv(view: BoardView): void {
  clear(pvList);
  const pv = Array.isArray(view.pv) ? view.pv : [];
  pvBox.hidden = pv.length === 0;
  pvStep = Math.min(pvStep, pv.length);
  pv.forEach((l, i) => {
    const li = document.createElement('li');
    li.textContent = l.name;
    if (i < pvStep) li.className = i === pvStep - 1 ? 'shown current' : 'shown';
    pvList.appendChild(li);
  });
  pvPrev.disabled = pvStep <= 0;
  pvNext.disabled = pvStep >= pv.length;
}

function stepPv(delta: number): void {
  const n = state.view?.pv?.length ?? 0;
  pvStep = Math.max(0, Math.min(n, pvStep + delta));
  render();
}
pvPrev.addEventListener('click', () => stepPv(-1));
pvNext.addEventListener('click', () => stepPv(1));
// The page is rebuilt each time its tab is shown again (and on a reload) while the extension lives
// on: the box is kept in the saved state and every load posts what it shows (before 'ready'), so
// the extension acts on what the box shows, even if a saved state was lost.
playOut.checked = state.playOut === true;
playOut.addEventListener('change', () => {
  state = { ...state, playOut: playOut.checked };
  vscode.setState(state);
  post({ type: 'playOut', on: playOut.checked });
});

function goto(ply: number): void {
  const view = state.view;
  if (!view || !(Number(view.plyCount) > 0)) return;
  const target = Math.max(0, Math.min(Number(view.plyCount), Math.floor(ply)));
  if (target === view.ply) return;
  post({ type: 'gotoPly', ply: target });
}

function step(which: Step): void {
  const view = state.view;
  if (!view) return;
  const p = Number(view.ply) || 0;
  const n = Number(view.plyCount) || 0;
  goto(which === 'first' ? 0 : which === 'prev' ? p - 1 : which === 'next' ? p + 1 : n);
}

for (const k of Object.keys(buttons) as Step[]) buttons[k].addEventListener('click', () => step(k));

const KEYS: Record<string, Step> = {
  ArrowLeft: 'prev',
  ArrowRight: 'next',
  Home: 'first',
  End: 'last',
  ArrowUp: 'prev',
  ArrowDown: 'next',
};
document.addEventListener('keydown', (ev) => {
  if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
  const which = KEYS[ev.key];
  if (!which) return;
  ev.preventDefault();
  step(which);
});

window.addEventListener('message', (event: MessageEvent<ToBoardWebview>) => {
  const m = event.data;
  if (!m || typeof m !== 'object') return;
  if (m.type === 'view') {
    pvStep = 0;
    state = {
      uri: m.uri,
      position: m.position,
      ply: m.view ? m.view.ply : undefined,
      view: m.view || undefined,
      playOut: state.playOut,
    };
    vscode.setState(state);
    render();
  } else if (m.type === 'empty') {
    state = {
      uri: m.uri,
      position: m.position,
      message: typeof m.message === 'string' ? m.message : undefined,
      playOut: state.playOut,
    };
    vscode.setState(state);
    render();
  } else if (m.type === 'exportSvg') {
    post({ type: 'svg', svg: state.view ? exportableSvg(state.view) : null });
  }
});

render();
post({ type: 'playOut', on: playOut.checked });
post({ type: 'ready' });
