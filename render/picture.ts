/**
 * The whole picture of a view as one SVG: the board with its caption (title, score, who is to move,
 * the value in words) and, for a game record, the value graph under it. This is what the Markdown
 * preview shows for a ```dab block and what `dab render` writes; the webview composes the same
 * parts itself (board and graph with its own controls around them).
 */
import type { BoardView } from '../shared/protocol';
import { boardTree } from './board';
import { legendTree } from './heat';
import { graphTree } from './graph';
import { el, toSvgString, type SvgNode } from './tree';

const GAP = 10;

export interface PictureOptions {
  /** An opaque background (standalone files for web pages); none in the Markdown preview, which themes it. */
  background?: string;
}

export function pictureTree(view: BoardView, options: PictureOptions = {}): SvgNode {
  const board = boardTree(view, { caption: true });
  const parts: SvgNode[] = [board];
  const bw = Number(board.attrs.width);
  let height = Number(board.attrs.height);
  let width = bw;
  if (view.solved && Array.isArray(view.moves) && view.moves.length > 0) {
    const legend = legendTree(Math.max(bw, 300));
    legend.attrs.transform = `translate(0 ${height})`;
    height += Number(legend.attrs['data-height']);
    delete legend.attrs['data-height'];
    parts.push(legend);
  }
  if (view.plyCount > 0 && Array.isArray(view.graph) && view.graph.length > 0) {
    const graph = graphTree(view);
    graph.attrs.x = 8;
    graph.attrs.y = height + GAP;
    height += GAP + Number(graph.attrs.height);
    width = Math.max(width, 8 + Number(graph.attrs.width));
    parts.push(graph);
  }
  const label = String(board.attrs['aria-label'] ?? '');
  const svg = el('svg', {
    class: 'dab-picture',
    role: 'img',
    'aria-label': label,
    'font-family': 'sans-serif',
    viewBox: `0 0 ${width} ${height}`,
    width,
    height,
  });
  if (options.background) svg.children.push(el('rect', { width: '100%', height: '100%', fill: options.background }));
  // Nested drawings keep their own titles; the outer one is labelled for screen readers.
  for (const p of parts) {
    delete p.attrs.role;
    svg.children.push(p);
  }
  return svg;
}

export function pictureSvg(view: BoardView, options: PictureOptions = {}): string {
  return toSvgString(pictureTree(view, options));
}
