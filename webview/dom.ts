/**
 * The DOM back end of the drawing (render/tree.ts): createElementNS, setAttribute and textContent
 * only — no markup is ever parsed, so text from a file shows as text and never runs.
 * Elements with an action become clickable and answer Enter/Space.
 */
import type { BoardView } from '../shared/protocol';
import { boardTree, type BoardDrawOptions } from '../render/board';
import { graphTree } from '../render/graph';
import { SVG_NS, type DrawAction, type SvgNode } from '../render/tree';

export type ActionHandler = (action: DrawAction) => void;

export function toDom(n: SvgNode, doc: Document, onAction?: ActionHandler): SVGElement {
  const e = doc.createElementNS(SVG_NS, n.tag);
  for (const [k, v] of Object.entries(n.attrs)) e.setAttribute(k, String(v));
  if (n.text !== undefined) e.textContent = n.text;
  for (const c of n.children) e.appendChild(toDom(c, doc, onAction));
  const action = n.action;
  if (action && onAction) {
    e.addEventListener('click', () => onAction(action));
    e.addEventListener('keydown', (ev) => {
      const k = (ev as KeyboardEvent).key;
      if (k === 'Enter' || k === ' ') {
        ev.preventDefault();
        ev.stopPropagation();
        onAction(action);
      }
    });
  }
  return e;
}

/** The board as an <svg> element; with onAction, undrawn lines are buttons that play them. */
export function renderBoard(
  view: BoardView,
  doc: Document,
  options: BoardDrawOptions = {},
  onAction?: ActionHandler,
): SVGSVGElement {
  return toDom(boardTree(view, { ...options, interactive: !!onAction }), doc, onAction) as SVGSVGElement;
}

/** The value graph; onSelect(ply) on a click or Enter/Space on a point. */
export function renderGraph(view: BoardView, doc: Document, onSelect?: (ply: number) => void): SVGSVGElement {
  const onAction = onSelect ? (a: DrawAction) => a.kind === 'ply' && onSelect(a.ply) : undefined;
  return toDom(graphTree(view, { interactive: true }), doc, onAction) as SVGSVGElement;
}
