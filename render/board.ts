/**
 * The board drawing: a BoardView (the protocol's plain data) as an SVG element tree. Pure — no DOM,
 * no Node — so the webview, the Markdown preview and `dab render` draw the very same picture.
 *
 * Layers, bottom to top: coordinates, Nimstring regions, completed boxes (owner's colour and
 * initial), chains and loops outlined with their length, drawn lines (last move marked), undrawn
 * lines (heat map when solved; focusable and playable when interactive), best moves dashed, dots.
 */
import type { BoardView, BoardViewLine, DotXY } from '../shared/protocol';
import { columnName, dotName as engineDotName, rowName } from '../server/src/engine/board/geometry';
import { initialOf } from '../server/src/engine/notation/names';
import { MAX_SIDE } from '../server/src/engine/limits';
import {
  LINES_TO_PLAY,
  NO_COMPONENTS_LEFT,
  NO_ENTRY_UNDER_CURSOR,
  bestLineTitle,
  boxTitle,
  captionScore,
  captionTitle,
  componentTitle,
  drawnLineTitle,
  moreComponents,
  moverLine as moverWords,
  regionTitle,
  scoreLine as scoreWords,
  variationLineTitle,
  viewSummary,
  isolateText,
  withoutBidiControls,
} from '../server/src/engine/phrasebook/board';
import { el, type SvgNode } from './tree';
import { heatClass, heatLegend } from './heat';

const CELL = 44;
const DOT_R = 3.5;
/** Half the width of the band around an undrawn line that answers the mouse. */
const HIT = 7;
const PAD_LEFT = 26;
const PAD_TOP = 14;
const PAD_RIGHT = 14;
const PAD_BOTTOM = 26;
const CAPTION_LINE = 18;
const CAPTION_FONT = 13;

export interface BoardDrawOptions {
  /** Title, score, mover and value under the board (default true; the panel shows them above instead). */
  caption?: boolean;
  /** Undrawn lines are focusable buttons that play the line (the webview). */
  interactive?: boolean;
  /** Show the first n moves of the principal variation as numbered lines (0 = none). */
  pvStep?: number;
}

export const dotName = (p: DotXY): string => engineDotName({ x: p[0], y: p[1] });

const str = (s: unknown): string => (typeof s === 'string' ? s : s === undefined || s === null ? '' : String(s));

const rawName = (view: BoardView, who: 0 | 1): string => str(Array.isArray(view.players) ? view.players[who] : '');
const titleOf = (view: BoardView): string => isolateText(str(view.entryTitle));

/** A player's name as shown in a sentence (right-to-left text isolated, see isolateText). */
export function playerName(view: BoardView, who: 0 | 1): string {
  return isolateText(rawName(view, who));
}

/** The letter drawn in a box: the owner's initial, upper-cased (the engine's initial of a name). */
function boxInitial(name: string): string {
  return initialOf(withoutBidiControls(name)).toUpperCase() || '?';
}

const mover = (view: BoardView): 0 | 1 => (view.toMove === 1 ? 1 : 0);

/** One line summing up the view, for screen readers. */
export function describeView(view: BoardView | null | undefined): string {
  if (!view) return NO_ENTRY_UNDER_CURSOR;
  return viewSummary({
    kind: str(view.entryKind) || 'entry',
    title: titleOf(view),
    width: view.width,
    height: view.height,
    ply: view.ply,
    plyCount: view.plyCount,
    players: players(view),
    score: scoreOf(view),
    mover: playerName(view, mover(view)),
    valueText: view.valueText ? str(view.valueText) : '',
  });
}

const players = (view: BoardView): [string, string] => [playerName(view, 0), playerName(view, 1)];
const scoreOf = (view: BoardView): [number, number] =>
  Array.isArray(view.score) ? [view.score[0], view.score[1]] : [0, 0];

/** "Alice 1 – 1 Bob" */
export function scoreLine(view: BoardView): string {
  return scoreWords(players(view), scoreOf(view));
}

export function moverLine(view: BoardView): string {
  return moverWords(playerName(view, mover(view)));
}

function captionLines(view: BoardView): [string, string][] {
  const out: [string, string][] = [];
  const title = titleOf(view);
  const kind = str(view.entryKind) || 'entry';
  out.push(['caption-title', captionTitle(kind, title)]);
  out.push([
    'caption-score',
    captionScore(players(view), scoreOf(view), playerName(view, mover(view)), view.ply, view.plyCount),
  ]);
  if (view.valueText) out.push(['caption-value', str(view.valueText)]);
  return out;
}

const isXY = (v: unknown): v is DotXY =>
  Array.isArray(v) && v.length === 2 && Number.isFinite(v[0]) && Number.isFinite(v[1]);
const isLine = (l: unknown): l is BoardViewLine =>
  !!l && typeof l === 'object' && isXY((l as BoardViewLine).from) && isXY((l as BoardViewLine).to);

/** The board and (unless caption: false) its caption, as one <svg>. */
export function boardTree(view: BoardView, options: BoardDrawOptions = {}): SvgNode {
  const withCaption = options.caption !== false;
  // the notation's bounds (a view from elsewhere, e.g. a tampered webview state, could say 1e9)
  const W = Math.min(MAX_SIDE, Math.max(0, Math.floor(Number(view.width) || 0)));
  const H = Math.min(MAX_SIDE, Math.max(0, Math.floor(Number(view.height) || 0)));
  const onBoard = W > 0 && H > 0;
  const components = Array.isArray(view.components) ? view.components : [];
  const abstract =
    !onBoard || (components.length > 0 && components.every((c) => !Array.isArray(c.boxes) || c.boxes.length === 0));

  const summary = describeView(view);
  const svg = el('svg', { class: 'dab-board', role: 'img', 'aria-label': summary }, [el('title', {}, summary)]);
  let boardW: number;
  let boardH: number;
  if (abstract) {
    const drawn = drawAbstract(components);
    svg.children.push(drawn.g);
    boardW = drawn.width;
    boardH = drawn.height;
  } else {
    svg.children.push(drawGrid(view, W, H, options));
    boardW = PAD_LEFT + W * CELL + PAD_RIGHT;
    boardH = PAD_TOP + H * CELL + PAD_BOTTOM;
  }

  const cap = el('g', { class: 'caption' });
  let y = boardH + 4;
  let textW = 0;
  for (const [cls, text] of withCaption ? captionLines(view) : []) {
    y += CAPTION_LINE;
    cap.children.push(el('text', { class: cls, x: 8, y, 'font-size': CAPTION_FONT }, text));
    textW = Math.max(textW, 16 + text.length * CAPTION_FONT * 0.56);
  }
  svg.children.push(cap);
  const width = Math.ceil(Math.max(boardW, 260, Math.min(textW, 900)));
  const height = withCaption ? y + 8 : boardH;
  Object.assign(svg.attrs, { viewBox: `0 0 ${width} ${height}`, width, height });
  return svg;
}

/** Pixel position of dot (x, y) (y counted from the bottom). */
function px(H: number, p: DotXY): DotXY {
  return [PAD_LEFT + p[0] * CELL, PAD_TOP + (H - p[1]) * CELL];
}

const sameLine = (a: BoardViewLine, b: BoardViewLine) =>
  (a.from[0] === b.from[0] && a.from[1] === b.from[1] && a.to[0] === b.to[0] && a.to[1] === b.to[1]) ||
  (a.from[0] === b.to[0] && a.from[1] === b.to[1] && a.to[0] === b.from[0] && a.to[1] === b.from[1]);

function drawGrid(view: BoardView, W: number, H: number, options: BoardDrawOptions): SvgNode {
  const g = el('g', { class: 'grid' });
  const add = (n: SvgNode) => g.children.push(n);

  const coords = el('g', { class: 'coords', 'aria-hidden': 'true' });
  for (let x = 0; x <= W; x++) {
    const [cx] = px(H, [x, 0]);
    coords.children.push(
      el('text', { class: 'coord', x: cx, y: PAD_TOP + H * CELL + 19, 'text-anchor': 'middle' }, columnName(x)),
    );
  }
  for (let y = 0; y <= H; y++) {
    const [, cy] = px(H, [0, y]);
    coords.children.push(
      el('text', { class: 'coord', x: PAD_LEFT - 12, y: cy + 4, 'text-anchor': 'middle' }, rowName(y)),
    );
  }
  add(coords);

  if (Array.isArray(view.regions) && view.regions.length) {
    const rg = el('g', { class: 'regions' });
    view.regions.forEach((r, i) => {
      const label = regionTitle(r.nimber);
      const group = el('g', { class: `region region-${i % 6}`, 'data-nimber': str(r.nimber) }, [
        el('title', {}, label),
      ]);
      for (const b of Array.isArray(r.boxes) ? r.boxes : []) {
        if (!isXY(b)) continue;
        const [x0, y0] = px(H, [b[0], b[1] + 1]);
        group.children.push(
          el('rect', {
            class: 'region-box',
            x: x0,
            y: y0,
            width: CELL,
            height: CELL,
            fill: '#888',
            'fill-opacity': 0.12,
          }),
        );
      }
      rg.children.push(group);
    });
    add(rg);
  }

  const bg = el('g', { class: 'boxes' });
  for (const b of Array.isArray(view.boxes) ? view.boxes : []) {
    if (!b || !isXY(b.at)) continue;
    const owner = b.owner === 0 || b.owner === 1 ? b.owner : null;
    const [x0, y0] = px(H, [b.at[0], b.at[1] + 1]);
    const box = el('g', {
      class: owner === null ? 'box owner-unknown' : `box owner-${owner}`,
      'data-owner': owner === null ? 'unknown' : String(owner),
      'data-box': dotName(b.at),
    });
    box.children.push(
      el('rect', {
        class: 'box-fill',
        x: x0 + 2,
        y: y0 + 2,
        width: CELL - 4,
        height: CELL - 4,
        fill: owner === 0 ? '#3b82f6' : owner === 1 ? '#ef4444' : '#888888',
        'fill-opacity': 0.35,
      }),
    );
    box.children.push(el('title', {}, boxTitle(dotName(b.at), owner === null ? null : playerName(view, owner))));
    if (owner !== null) {
      box.children.push(
        el(
          'text',
          {
            class: 'initial',
            x: x0 + CELL / 2,
            y: y0 + CELL / 2 + 6,
            'text-anchor': 'middle',
            'font-size': 17,
            'font-weight': 'bold',
            fill: '#222',
          },
          boxInitial(rawName(view, owner)),
        ),
      );
    }
    bg.children.push(box);
  }
  add(bg);

  const cg = el('g', { class: 'components' });
  for (const c of Array.isArray(view.components) ? view.components : []) {
    const boxes = (Array.isArray(c.boxes) ? c.boxes : []).filter(isXY);
    if (!boxes.length) continue;
    const kind = c.kind === 'loop' ? 'loop' : 'chain';
    const size = Number(c.size) || boxes.length;
    const mid = boxes[Math.floor((boxes.length - 1) / 2)];
    const [lx, ly] = px(H, [mid[0] + 0.5, mid[1] + 0.5]);
    cg.children.push(
      el('g', { class: `component ${kind}`, 'data-kind': kind, 'data-size': size }, [
        el('title', {}, componentTitle(kind, size)),
        el('path', {
          class: 'component-outline',
          d: outlinePath(H, boxes),
          fill: 'none',
          stroke: kind === 'loop' ? '#a855f7' : '#ca8a04',
          'stroke-width': 3,
          'stroke-opacity': 0.7,
          'stroke-linejoin': 'round',
        }),
        el(
          'text',
          {
            class: 'component-label',
            x: lx,
            y: ly + 5,
            'text-anchor': 'middle',
            'font-size': 13,
            fill: kind === 'loop' ? '#a855f7' : '#b45309',
          },
          kind === 'loop' ? `${size}l` : String(size),
        ),
      ]),
    );
  }
  add(cg);

  const lg = el('g', { class: 'lines' });
  const last = isLine(view.lastMove) ? view.lastMove : null;
  for (const l of Array.isArray(view.drawn) ? view.drawn : []) {
    if (!isLine(l)) continue;
    const isLast = last !== null && sameLine(l, last);
    const [x1, y1] = px(H, l.from);
    const [x2, y2] = px(H, l.to);
    lg.children.push(
      el(
        'line',
        {
          class: isLast ? 'line drawn last' : 'line drawn',
          x1,
          y1,
          x2,
          y2,
          stroke: isLast ? '#f97316' : '#555',
          'stroke-width': isLast ? 5 : 3.5,
          'stroke-linecap': 'round',
          'data-line': str(l.name),
        },
        [el('title', {}, drawnLineTitle(str(l.name), isLast))],
      ),
    );
  }
  add(lg);

  const pvStep = Math.max(0, Math.min(Array.isArray(view.pv) ? view.pv.length : 0, Math.floor(options.pvStep ?? 0)));
  const undrawn = drawUndrawn(view, H, options, pvStep > 0);
  if (undrawn) add(undrawn);
  if (pvStep > 0) add(drawPv(view, H, pvStep));

  const og = el('g', { class: 'best' });
  for (const l of Array.isArray(view.best) ? view.best.filter(isLine) : []) {
    const [x1, y1] = px(H, l.from);
    const [x2, y2] = px(H, l.to);
    og.children.push(
      el(
        'line',
        {
          class: 'line best-move',
          x1,
          y1,
          x2,
          y2,
          stroke: '#16a34a',
          'stroke-width': 3,
          'stroke-dasharray': '5 4',
          'stroke-linecap': 'butt',
          'data-line': str(l.name),
          'pointer-events': 'none',
        },
        [el('title', {}, bestLineTitle(str(l.name)))],
      ),
    );
  }
  add(og);

  const dg = el('g', { class: 'dots', 'pointer-events': 'none' });
  for (let y = 0; y <= H; y++) {
    for (let x = 0; x <= W; x++) {
      const [cx, cy] = px(H, [x, y]);
      dg.children.push(el('circle', { class: 'dot', cx, cy, r: DOT_R, fill: '#333' }));
    }
  }
  add(dg);
  return g;
}

/**
 * The lines still to play. Each carries its name and, when the server sent it, what playing it
 * means ("c1-c2 throws away 4 boxes"). Solved positions colour them by boxes lost (heat map, with a
 * dash pattern per band for readers who cannot tell the colours apart). Interactive boards make
 * each one a focusable button.
 */
function drawUndrawn(view: BoardView, H: number, options: BoardDrawOptions, stale: boolean): SvgNode | undefined {
  const moves = Array.isArray(view.moves) ? view.moves.filter((m) => m && isLine(m.line)) : [];
  if (!moves.length) return undefined;
  const ug = el('g', { class: 'undrawn', role: options.interactive ? 'group' : undefined });
  if (options.interactive) ug.attrs['aria-label'] = LINES_TO_PLAY;
  for (const m of moves) {
    const [x1, y1] = px(H, m.line.from);
    const [x2, y2] = px(H, m.line.to);
    const name = str(m.line.name);
    // While the best line is stepped through, the losses belong to another position: no colours.
    const coloured = view.solved && !stale;
    const heat = coloured ? heatClass(m.loss) : 'heat-none';
    const label = str(m.text) || name;
    const node = el(
      'g',
      {
        class: `move ${heat}`,
        'data-line': name,
        'data-loss': m.loss === null || m.loss === undefined ? 'unknown' : String(m.loss),
        role: options.interactive ? 'button' : undefined,
        tabindex: options.interactive ? 0 : undefined,
        'aria-label': label,
      },
      [
        el('title', {}, label),
        // A transparent band around the line makes it easy to hit (and gives it a box to point at).
        el('rect', {
          class: 'hit',
          x: Math.min(x1, x2) - HIT,
          y: Math.min(y1, y2) - HIT,
          width: Math.abs(x2 - x1) + 2 * HIT,
          height: Math.abs(y2 - y1) + 2 * HIT,
          fill: 'transparent',
        }),
        el('line', {
          class: 'move-line',
          x1,
          y1,
          x2,
          y2,
          'stroke-width': 3,
          'stroke-linecap': 'round',
          ...heatStyle(coloured ? m.loss : undefined),
        }),
      ],
    );
    if (options.interactive) node.action = { kind: 'play', line: name };
    ug.children.push(node);
  }
  return ug;
}

/** The first `step` moves of the principal variation, numbered, over the board. */
function drawPv(view: BoardView, H: number, step: number): SvgNode {
  const g = el('g', { class: 'pv', 'pointer-events': 'none' });
  (view.pv ?? []).slice(0, step).forEach((l, i) => {
    if (!isLine(l)) return;
    const [x1, y1] = px(H, l.from);
    const [x2, y2] = px(H, l.to);
    const current = i === step - 1;
    g.children.push(
      el('g', { class: current ? 'pv-move current' : 'pv-move', 'data-line': str(l.name) }, [
        el('title', {}, variationLineTitle(i, str(l.name))),
        el('line', {
          class: 'pv-line',
          x1,
          y1,
          x2,
          y2,
          stroke: '#7c3aed',
          'stroke-width': current ? 5 : 3.5,
          'stroke-linecap': 'round',
        }),
        el('circle', { class: 'pv-badge', cx: (x1 + x2) / 2, cy: (y1 + y2) / 2, r: 8, fill: '#7c3aed' }),
        el(
          'text',
          {
            class: 'pv-number',
            x: (x1 + x2) / 2,
            y: (y1 + y2) / 2 + 4,
            'text-anchor': 'middle',
            'font-size': 11,
            'font-weight': 'bold',
            fill: '#ffffff',
          },
          String(i + 1),
        ),
      ]),
    );
  });
  return g;
}

/** Presentation attributes of a heat band (the theme's CSS may override the colours). */
function heatStyle(loss: number | null | undefined): Record<string, string | number> {
  const band = heatLegend().find((b) => b.className === heatClass(loss));
  if (!band) return { stroke: '#9ca3af', 'stroke-opacity': 0.35, 'stroke-dasharray': '1 5' };
  return { stroke: band.color, 'stroke-dasharray': band.dash };
}

/** The boundary of a set of boxes as one SVG path (edges with no neighbour in the set). */
function outlinePath(H: number, boxes: DotXY[]): string {
  const key = (x: number, y: number) => `${x},${y}`;
  const set = new Set(boxes.map((b) => key(b[0], b[1])));
  const segs: [DotXY, DotXY][] = [];
  for (const [x, y] of boxes) {
    if (!set.has(key(x, y - 1)))
      segs.push([
        [x, y],
        [x + 1, y],
      ]);
    if (!set.has(key(x, y + 1)))
      segs.push([
        [x, y + 1],
        [x + 1, y + 1],
      ]);
    if (!set.has(key(x - 1, y)))
      segs.push([
        [x, y],
        [x, y + 1],
      ]);
    if (!set.has(key(x + 1, y)))
      segs.push([
        [x + 1, y],
        [x + 1, y + 1],
      ]);
  }
  return segs
    .map(([a, b]) => {
      const [x1, y1] = px(H, a);
      const [x2, y2] = px(H, b);
      return `M${x1} ${y1}L${x2} ${y2}`;
    })
    .join('');
}

/** Boxes drawn of one chain or loop; a longer one is drawn this long, with '…' and its real size. */
const DRAWN_COMPONENT_BOXES = 40;
/** Chains and loops drawn; the rest are counted in one line (a 50-byte file can hold 200,000). */
const DRAWN_COMPONENTS = 60;

/** An abstract endgame with no board: each chain as a row of boxes, each loop as a ring. */
function drawAbstract(components: BoardView['components']): { g: SvgNode; width: number; height: number } {
  const g = el('g', { class: 'abstract' });
  const S = 22;
  const x0 = 44;
  let y = PAD_TOP;
  let maxW = 0;
  const square = (x: number, yy: number, color: string) =>
    el('rect', {
      class: 'component-box',
      x,
      y: yy,
      width: S,
      height: S,
      fill: 'none',
      stroke: color,
      'stroke-width': 2,
    });
  const sizeOf = (c: BoardView['components'][number]): number => {
    const n = Math.floor(Number(c.size));
    return Number.isFinite(n) && n >= 1 ? n : 1;
  };
  for (const c of components.slice(0, DRAWN_COMPONENTS)) {
    const kind = c.kind === 'loop' ? 'loop' : 'chain';
    const size = sizeOf(c);
    const drawn = Math.min(size, DRAWN_COMPONENT_BOXES);
    const comp = el('g', { class: `component ${kind}`, 'data-kind': kind, 'data-size': size }, [
      el('title', {}, componentTitle(kind, size)),
      el(
        'text',
        { class: 'component-label', x: 8, y: y + S / 2 + 5, 'font-size': 13 },
        kind === 'loop' ? `${size}l` : String(size),
      ),
    ]);
    if (drawn < size) {
      const across = kind === 'chain' ? drawn : Math.ceil(drawn / 2);
      comp.children.push(el('text', { class: 'component-more', x: x0 + across * S + 6, y: y + S / 2 + 5 }, '…'));
    }
    if (kind === 'chain') {
      for (let i = 0; i < drawn; i++) comp.children.push(square(x0 + i * S, y, '#f59e0b'));
      maxW = Math.max(maxW, x0 + drawn * S + (drawn < size ? 20 : 0) + PAD_RIGHT);
      y += S + 10;
    } else {
      const top = Math.ceil(drawn / 2);
      const bottom = drawn - top;
      for (let i = 0; i < top; i++) comp.children.push(square(x0 + i * S, y, '#a855f7'));
      for (let i = 0; i < bottom; i++) comp.children.push(square(x0 + i * S, y + S, '#a855f7'));
      comp.children.push(
        el('rect', {
          class: 'component-outline',
          x: x0 - 3,
          y: y - 3,
          width: top * S + 6,
          height: 2 * S + 6,
          rx: 8,
          fill: 'none',
          stroke: '#a855f7',
          'stroke-width': 2,
          'stroke-opacity': 0.7,
        }),
      );
      maxW = Math.max(maxW, x0 + top * S + (drawn < size ? 20 : 0) + PAD_RIGHT);
      y += 2 * S + 14;
    }
    g.children.push(comp);
  }
  if (components.length > DRAWN_COMPONENTS) {
    const rest = components.slice(DRAWN_COMPONENTS);
    const text = moreComponents(
      rest.length,
      rest.reduce((t, c) => t + sizeOf(c), 0),
    );
    g.children.push(el('text', { class: 'components-more', x: 8, y: y + 14 }, text));
    maxW = Math.max(maxW, 8 + text.length * 7 + PAD_RIGHT);
    y += 22;
  }
  if (!components.length) {
    g.children.push(el('text', { class: 'empty', x: 8, y: y + 14 }, NO_COMPONENTS_LEFT));
    y += 22;
  }
  return { g, width: maxW, height: y };
}
