/**
 * "Export Board as SVG": the board with its caption, drawn off-screen so the theme's CSS applies,
 * then copied with the computed colours written into it (no classes, no CSS needed to view it).
 */
import type { BoardView } from '../shared/protocol';
import { SVG_NS } from '../render/tree';
import { renderBoard } from './dom';

const PROPS = [
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

export function exportableSvg(view: BoardView): string {
  const scratch = document.createElement('div');
  scratch.id = 'export-scratch';
  scratch.setAttribute('aria-hidden', 'true');
  document.body.appendChild(scratch);
  const svg = renderBoard(view, document);
  scratch.appendChild(svg);
  try {
    return inlineStyles(svg);
  } finally {
    scratch.remove();
  }
}

function inlineStyles(svg: SVGSVGElement): string {
  const copy = svg.cloneNode(true) as SVGSVGElement;
  const src = svg.querySelectorAll('*');
  const dst = copy.querySelectorAll('*');
  for (let i = 0; i < src.length; i++) {
    const cs = getComputedStyle(src[i]);
    for (const p of PROPS) {
      const v = cs.getPropertyValue(p);
      if ((v && v !== 'none') || p === 'fill' || p === 'stroke') dst[i].setAttribute(p, v || 'none');
    }
    dst[i].removeAttribute('class');
    dst[i].removeAttribute('tabindex');
    if (dst[i].getAttribute('role') === 'button') dst[i].removeAttribute('role');
  }
  const rect = document.createElementNS(SVG_NS, 'rect');
  rect.setAttribute('width', '100%');
  rect.setAttribute('height', '100%');
  rect.setAttribute('fill', getComputedStyle(document.body).backgroundColor || '#ffffff');
  copy.insertBefore(rect, copy.firstChild ? copy.firstChild.nextSibling : null);
  copy.removeAttribute('class');
  copy.setAttribute('xmlns', SVG_NS);
  return new XMLSerializer().serializeToString(copy);
}
