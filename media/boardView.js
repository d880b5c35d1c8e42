// @ts-check
/**
 * Pure drawing code for the dab board view. It turns a BoardView (server/src/protocol.ts) into SVG
 * built with DOM APIs only (createElementNS, setAttribute, textContent): no text from a file ever
 * goes through innerHTML, so titles and names show as text and never run.
 *
 * Runs in the VS Code webview (media/board.js), in any browser page, and under Node with a DOM.
 * Exposed as `globalThis.DabBoard` and, where `module` exists, as CommonJS exports.
 *
 *   renderBoard(view, document, { caption })   -> SVGSVGElement  (board, and a caption unless caption: false)
 *   renderGraph(view, document, onSelect?)     -> SVGSVGElement  (value graph over the record)
 *   describeView(view)                         -> string         (one-line summary for aria)
 *   colName(x), dotName([x, y])                -> string         ("a", "a1")
 */
(function (root) {
  'use strict';
  const SVG_NS = 'http://www.w3.org/2000/svg';
  const CELL = 44;
  const DOT_R = 3.5;
  const PAD_LEFT = 26;
  const PAD_TOP = 14;
  const PAD_RIGHT = 14;
  const PAD_BOTTOM = 26;
  const CAPTION_LINE = 18;

  /** @param {number} x */
  function colName(x) {
    let s = '';
    let n = x;
    do {
      s = String.fromCharCode(97 + (n % 26)) + s;
      n = Math.floor(n / 26) - 1;
    } while (n >= 0);
    return s;
  }
  /** @param {[number, number]} p */
  function dotName(p) {
    return colName(p[0]) + String(p[1] + 1);
  }

  /**
   * @param {Document} doc
   * @param {string} tag
   * @param {Record<string, string | number>} [attrs]
   * @param {string} [text]
   */
  function el(doc, tag, attrs, text) {
    const e = doc.createElementNS(SVG_NS, tag);
    if (attrs) for (const k of Object.keys(attrs)) e.setAttribute(k, String(attrs[k]));
    if (text !== undefined) e.textContent = text;
    return e;
  }

  /** @param {unknown} s */
  function str(s) {
    return typeof s === 'string' ? s : s === undefined || s === null ? '' : String(s);
  }

  /** @param {any} view @param {0|1} who */
  function playerName(view, who) {
    const p = Array.isArray(view.players) ? str(view.players[who]) : '';
    return p || (who === 0 ? 'A' : 'B');
  }

  /** The initial drawn in a box: the first character (a whole code point) of the owner's name. */
  function initialOf(name) {
    const first = Array.from(name.trim())[0];
    return first ? first.toUpperCase() : '?';
  }

  /** @param {any} view */
  function describeView(view) {
    if (!view) return 'No entry under the cursor.';
    const parts = [];
    const title = str(view.entryTitle);
    parts.push(`${str(view.entryKind) || 'entry'}${title ? ' "' + title + '"' : ''}`);
    if (view.width > 0 && view.height > 0) parts.push(`${view.width}x${view.height} board`);
    if (view.plyCount > 0) parts.push(`move ${view.ply} of ${view.plyCount}`);
    const score = Array.isArray(view.score) ? view.score : [0, 0];
    parts.push(`score ${playerName(view, 0)} ${score[0]}, ${playerName(view, 1)} ${score[1]}`);
    parts.push(`${playerName(view, view.toMove === 1 ? 1 : 0)} to move`);
    if (view.valueText) parts.push(str(view.valueText));
    return parts.join('; ');
  }

  /**
   * Draws the board of a BoardView: dots, drawn lines (last move marked), completed boxes in the
   * owner's colour with the owner's initial, chains and loops outlined with their length, every
   * optimal move as a dashed line, and a caption with score, who is to move and the value in words.
   * @param {any} view a BoardView
   * @param {Document} doc
   * @param {{ caption?: boolean }} [options] caption (default true): title, score, mover and value under the board
   * @returns {SVGSVGElement}
   */
  function renderBoard(view, doc, options) {
    const withCaption = !options || options.caption !== false;
    const W = Math.max(0, Math.floor(Number(view.width) || 0));
    const H = Math.max(0, Math.floor(Number(view.height) || 0));
    const onBoard = W > 0 && H > 0;
    const components = Array.isArray(view.components) ? view.components : [];
    const abstract =
      !onBoard || (components.length > 0 && components.every((c) => !Array.isArray(c.boxes) || c.boxes.length === 0));

    const svg = /** @type {SVGSVGElement} */ (
      /** @type {unknown} */ (el(doc, 'svg', { class: 'dab-board', role: 'img' }))
    );
    svg.setAttribute('xmlns', SVG_NS);
    const title = el(doc, 'title', {}, describeView(view));
    svg.appendChild(title);
    svg.setAttribute('aria-label', describeView(view));

    let boardW;
    let boardH;
    if (abstract) {
      const drawn = drawAbstract(view, doc, components);
      svg.appendChild(drawn.g);
      boardW = drawn.width;
      boardH = drawn.height;
    } else {
      const g = drawGrid(view, doc, W, H, components);
      svg.appendChild(g);
      boardW = PAD_LEFT + W * CELL + PAD_RIGHT;
      boardH = PAD_TOP + H * CELL + PAD_BOTTOM;
    }

    // Caption: title, score, who is to move, value in words.
    const cap = el(doc, 'g', { class: 'caption' });
    const lines = withCaption ? captionLines(view) : [];
    let y = boardH + 4;
    for (const [cls, text] of lines) {
      y += CAPTION_LINE;
      cap.appendChild(el(doc, 'text', { class: cls, x: 8, y }, text));
    }
    svg.appendChild(cap);
    const width = Math.max(boardW, 260);
    const height = withCaption ? y + 8 : boardH;
    svg.setAttribute('viewBox', `0 0 ${width} ${height}`);
    svg.setAttribute('width', String(width));
    svg.setAttribute('height', String(height));
    return svg;
  }

  /** @param {any} view @returns {[string, string][]} */
  function captionLines(view) {
    const out = /** @type {[string, string][]} */ ([]);
    const title = str(view.entryTitle);
    const kind = str(view.entryKind) || 'entry';
    out.push(['caption-title', title ? `${kind} “${title}”` : kind]);
    const score = Array.isArray(view.score) ? view.score : [0, 0];
    const mover = playerName(view, view.toMove === 1 ? 1 : 0);
    let line = `${playerName(view, 0)} ${score[0]} – ${score[1]} ${playerName(view, 1)} · ${mover} to move`;
    if (view.plyCount > 0) line += ` · move ${view.ply}/${view.plyCount}`;
    out.push(['caption-score', line]);
    if (view.valueText) out.push(['caption-value', str(view.valueText)]);
    return out;
  }

  /** Pixel position of dot (x, y) (y counted from the bottom). */
  function px(H, p) {
    return [PAD_LEFT + p[0] * CELL, PAD_TOP + (H - p[1]) * CELL];
  }

  /** @param {any} v */
  function isXY(v) {
    return Array.isArray(v) && v.length === 2 && Number.isFinite(v[0]) && Number.isFinite(v[1]);
  }

  function drawGrid(view, doc, W, H, components) {
    const g = el(doc, 'g', { class: 'grid' });

    // Coordinates.
    const coords = el(doc, 'g', { class: 'coords', 'aria-hidden': 'true' });
    for (let x = 0; x <= W; x++) {
      const [cx] = px(H, [x, 0]);
      coords.appendChild(
        el(doc, 'text', { class: 'coord', x: cx, y: PAD_TOP + H * CELL + 19, 'text-anchor': 'middle' }, colName(x)),
      );
    }
    for (let y = 0; y <= H; y++) {
      const [, cy] = px(H, [0, y]);
      coords.appendChild(
        el(doc, 'text', { class: 'coord', x: PAD_LEFT - 12, y: cy + 4, 'text-anchor': 'middle' }, String(y + 1)),
      );
    }
    g.appendChild(coords);

    // Nimstring regions (under everything).
    if (Array.isArray(view.regions) && view.regions.length) {
      const rg = el(doc, 'g', { class: 'regions' });
      view.regions.forEach((r, i) => {
        const label = r.nimber === 'loony' ? 'loony' : `nimber ${r.nimber}`;
        const rgroup = el(doc, 'g', { class: `region region-${i % 6}`, 'data-nimber': str(r.nimber) });
        rgroup.appendChild(el(doc, 'title', {}, label));
        for (const b of Array.isArray(r.boxes) ? r.boxes : []) {
          if (!isXY(b)) continue;
          const [x0, y0] = px(H, [b[0], b[1] + 1]);
          rgroup.appendChild(
            el(doc, 'rect', {
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
        rg.appendChild(rgroup);
      });
      g.appendChild(rg);
    }

    // Completed boxes.
    const bg = el(doc, 'g', { class: 'boxes' });
    for (const b of Array.isArray(view.boxes) ? view.boxes : []) {
      if (!b || !isXY(b.at)) continue;
      const owner = b.owner === 0 || b.owner === 1 ? b.owner : null;
      const cls = owner === null ? 'box owner-unknown' : `box owner-${owner}`;
      const [x0, y0] = px(H, [b.at[0], b.at[1] + 1]);
      const box = el(doc, 'g', {
        class: cls,
        'data-owner': owner === null ? 'unknown' : String(owner),
        'data-box': dotName(b.at),
      });
      const fill = owner === 0 ? '#3b82f6' : owner === 1 ? '#ef4444' : '#888888';
      box.appendChild(
        el(doc, 'rect', {
          class: 'box-fill',
          x: x0 + 2,
          y: y0 + 2,
          width: CELL - 4,
          height: CELL - 4,
          fill,
          'fill-opacity': 0.35,
        }),
      );
      const who = owner === null ? 'unknown owner' : playerName(view, owner);
      box.appendChild(el(doc, 'title', {}, `box ${dotName(b.at)}: ${who}`));
      if (owner !== null) {
        box.appendChild(
          el(
            doc,
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
            initialOf(playerName(view, owner)),
          ),
        );
      }
      bg.appendChild(box);
    }
    g.appendChild(bg);

    // Chains and loops.
    const cg = el(doc, 'g', { class: 'components' });
    for (const c of components) {
      const boxes = (Array.isArray(c.boxes) ? c.boxes : []).filter(isXY);
      if (!boxes.length) continue;
      const kind = c.kind === 'loop' ? 'loop' : 'chain';
      const size = Number(c.size) || boxes.length;
      const comp = el(doc, 'g', { class: `component ${kind}`, 'data-kind': kind, 'data-size': size });
      comp.appendChild(el(doc, 'title', {}, `${kind} of ${size} box${size === 1 ? '' : 'es'}`));
      comp.appendChild(
        el(doc, 'path', {
          class: 'component-outline',
          d: outlinePath(H, boxes),
          fill: 'none',
          stroke: kind === 'loop' ? '#a855f7' : '#ca8a04',
          'stroke-width': 3,
          'stroke-opacity': 0.7,
          'stroke-linejoin': 'round',
        }),
      );
      const mid = boxes[Math.floor((boxes.length - 1) / 2)];
      const [lx, ly] = px(H, [mid[0] + 0.5, mid[1] + 0.5]);
      comp.appendChild(
        el(
          doc,
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
      );
      cg.appendChild(comp);
    }
    g.appendChild(cg);

    // Drawn lines.
    const lg = el(doc, 'g', { class: 'lines' });
    const last = view.lastMove && isXY(view.lastMove.from) && isXY(view.lastMove.to) ? view.lastMove : null;
    const sameLine = (a, b) =>
      (a.from[0] === b.from[0] && a.from[1] === b.from[1] && a.to[0] === b.to[0] && a.to[1] === b.to[1]) ||
      (a.from[0] === b.to[0] && a.from[1] === b.to[1] && a.to[0] === b.from[0] && a.to[1] === b.from[1]);
    for (const l of Array.isArray(view.drawn) ? view.drawn : []) {
      if (!l || !isXY(l.from) || !isXY(l.to)) continue;
      const isLast = last !== null && sameLine(l, last);
      const [x1, y1] = px(H, l.from);
      const [x2, y2] = px(H, l.to);
      const line = el(doc, 'line', {
        class: isLast ? 'line drawn last' : 'line drawn',
        x1,
        y1,
        x2,
        y2,
        stroke: isLast ? '#f97316' : '#555',
        'stroke-width': isLast ? 5 : 3.5,
        'stroke-linecap': 'round',
        'data-line': str(l.name),
      });
      line.appendChild(el(doc, 'title', {}, isLast ? `${str(l.name)} (last move)` : str(l.name)));
      lg.appendChild(line);
    }
    g.appendChild(lg);

    // Optimal moves, dashed.
    const best = Array.isArray(view.best) ? view.best.filter((l) => l && isXY(l.from) && isXY(l.to)) : [];
    const og = el(doc, 'g', { class: 'best' });
    for (const l of best) {
      const [x1, y1] = px(H, l.from);
      const [x2, y2] = px(H, l.to);
      const line = el(doc, 'line', {
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
      });
      line.appendChild(el(doc, 'title', {}, `best: ${str(l.name)}`));
      og.appendChild(line);
    }
    g.appendChild(og);

    // Dots last, on top.
    const dg = el(doc, 'g', { class: 'dots' });
    for (let y = 0; y <= H; y++) {
      for (let x = 0; x <= W; x++) {
        const [cx, cy] = px(H, [x, y]);
        dg.appendChild(el(doc, 'circle', { class: 'dot', cx, cy, r: DOT_R, fill: '#333' }));
      }
    }
    g.appendChild(dg);
    return g;
  }

  /** The boundary of a set of boxes as one SVG path (edges with no neighbour in the set). */
  function outlinePath(H, boxes) {
    const key = (x, y) => `${x},${y}`;
    const set = new Set(boxes.map((b) => key(b[0], b[1])));
    const segs = [];
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

  /** An abstract endgame with no board: each chain as a row of boxes, each loop as a ring. */
  function drawAbstract(view, doc, components) {
    const g = el(doc, 'g', { class: 'abstract' });
    const S = 22;
    let y = PAD_TOP;
    let maxW = 0;
    components.forEach((c) => {
      const kind = c.kind === 'loop' ? 'loop' : 'chain';
      const size = Math.max(1, Math.min(400, Math.floor(Number(c.size) || 1)));
      const comp = el(doc, 'g', { class: `component ${kind}`, 'data-kind': kind, 'data-size': size });
      comp.appendChild(el(doc, 'title', {}, `${kind} of ${size} box${size === 1 ? '' : 'es'}`));
      const label = kind === 'loop' ? `${size}l` : String(size);
      comp.appendChild(el(doc, 'text', { class: 'component-label', x: 8, y: y + S / 2 + 5, 'font-size': 13 }, label));
      const x0 = 44;
      if (kind === 'chain') {
        for (let i = 0; i < size; i++) {
          comp.appendChild(
            el(doc, 'rect', {
              class: 'component-box',
              x: x0 + i * S,
              y,
              width: S,
              height: S,
              fill: 'none',
              stroke: '#f59e0b',
              'stroke-width': 2,
            }),
          );
        }
        maxW = Math.max(maxW, x0 + size * S + PAD_RIGHT);
        y += S + 10;
      } else {
        const top = Math.ceil(size / 2);
        const bottom = size - top;
        for (let i = 0; i < top; i++)
          comp.appendChild(
            el(doc, 'rect', {
              class: 'component-box',
              x: x0 + i * S,
              y,
              width: S,
              height: S,
              fill: 'none',
              stroke: '#a855f7',
              'stroke-width': 2,
            }),
          );
        for (let i = 0; i < bottom; i++)
          comp.appendChild(
            el(doc, 'rect', {
              class: 'component-box',
              x: x0 + i * S,
              y: y + S,
              width: S,
              height: S,
              fill: 'none',
              stroke: '#a855f7',
              'stroke-width': 2,
            }),
          );
        comp.appendChild(
          el(doc, 'rect', {
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
        maxW = Math.max(maxW, x0 + top * S + PAD_RIGHT);
        y += 2 * S + 14;
      }
      g.appendChild(comp);
    });
    if (!components.length) {
      g.appendChild(el(doc, 'text', { class: 'empty', x: 8, y: y + 14 }, 'no components left'));
      y += 22;
    }
    return { g, width: maxW, height: y };
  }

  /**
   * The value graph over a record: the value for the first player after each ply, gaps where it
   * is unknown, mistakes marked; the current ply highlighted. Points call onSelect(ply) on click
   * or Enter/Space.
   * @param {any} view
   * @param {Document} doc
   * @param {(ply: number) => void} [onSelect]
   * @returns {SVGSVGElement}
   */
  function renderGraph(view, doc, onSelect) {
    const pts = (Array.isArray(view.graph) ? view.graph : []).filter((p) => p && Number.isFinite(p.ply));
    const Wd = 320;
    const Ht = 110;
    const L = 30;
    const R = 8;
    const T = 10;
    const B = 18;
    const svg = /** @type {SVGSVGElement} */ (
      /** @type {unknown} */ (
        el(doc, 'svg', { class: 'dab-graph', viewBox: `0 0 ${Wd} ${Ht}`, width: Wd, height: Ht, role: 'group' })
      )
    );
    svg.setAttribute('aria-label', `Value for ${playerName(view, 0)} after each move`);
    if (!pts.length) {
      svg.appendChild(el(doc, 'text', { class: 'empty', x: L, y: Ht / 2 }, 'no moves'));
      return svg;
    }
    const maxPly = Math.max(1, ...pts.map((p) => p.ply));
    const maxAbs = Math.max(
      1,
      ...pts.map((p) =>
        p.valueForFirst === null || !Number.isFinite(p.valueForFirst) ? 0 : Math.abs(p.valueForFirst),
      ),
    );
    const gx = (ply) => L + (ply / maxPly) * (Wd - L - R);
    const gy = (v) => T + ((maxAbs - v) / (2 * maxAbs)) * (Ht - T - B);
    svg.appendChild(
      el(doc, 'line', {
        class: 'axis zero',
        x1: L,
        y1: gy(0),
        x2: Wd - R,
        y2: gy(0),
        stroke: '#888',
        'stroke-width': 1,
      }),
    );
    svg.appendChild(
      el(
        doc,
        'text',
        { class: 'axis-label', x: L - 4, y: gy(maxAbs) + 4, 'text-anchor': 'end', 'font-size': 10 },
        `+${maxAbs}`,
      ),
    );
    svg.appendChild(
      el(doc, 'text', { class: 'axis-label', x: L - 4, y: gy(0) + 4, 'text-anchor': 'end', 'font-size': 10 }, '0'),
    );
    svg.appendChild(
      el(
        doc,
        'text',
        { class: 'axis-label', x: L - 4, y: gy(-maxAbs) + 4, 'text-anchor': 'end', 'font-size': 10 },
        `−${maxAbs}`,
      ),
    );
    const ply = Number(view.ply) || 0;
    svg.appendChild(
      el(doc, 'line', {
        class: 'current-ply',
        x1: gx(ply),
        y1: T,
        x2: gx(ply),
        y2: Ht - B,
        stroke: '#888',
        'stroke-dasharray': '2 2',
      }),
    );
    // Polyline segments over known values.
    let d = '';
    let pen = false;
    for (const p of pts) {
      if (p.valueForFirst === null || !Number.isFinite(p.valueForFirst)) {
        pen = false;
        continue;
      }
      d += `${pen ? 'L' : 'M'}${gx(p.ply).toFixed(1)} ${gy(p.valueForFirst).toFixed(1)}`;
      pen = true;
    }
    if (d)
      svg.appendChild(el(doc, 'path', { class: 'value-line', d, fill: 'none', stroke: '#3b82f6', 'stroke-width': 2 }));
    const first = playerName(view, 0);
    for (const p of pts) {
      const known = p.valueForFirst !== null && Number.isFinite(p.valueForFirst);
      const v = known ? p.valueForFirst : 0;
      const cls = ['point', p.mistake ? 'mistake' : '', known ? '' : 'unknown', p.ply === ply ? 'current' : '']
        .filter(Boolean)
        .join(' ');
      const words = known ? (v === 0 ? 'even' : v > 0 ? `${first} +${v}` : `${first} ${v}`) : 'value unknown';
      const label = `${p.ply === 0 ? 'start' : 'after move ' + p.ply}: ${words}${p.mistake ? ', mistake' : ''}`;
      const c = el(doc, 'circle', {
        class: cls,
        cx: gx(p.ply),
        cy: gy(v),
        r: p.mistake ? 5 : p.ply === ply ? 4.5 : 3,
        fill: p.mistake ? '#e11d48' : known ? '#3b82f6' : '#999',
        'data-ply': p.ply,
        role: 'button',
        'aria-label': label,
      });
      if (p.mistake || p.ply === ply) c.setAttribute('tabindex', '0');
      c.appendChild(el(doc, 'title', {}, label));
      if (onSelect) {
        c.addEventListener('click', () => onSelect(p.ply));
        c.addEventListener('keydown', (ev) => {
          const k = /** @type {KeyboardEvent} */ (ev).key;
          if (k === 'Enter' || k === ' ') {
            ev.preventDefault();
            ev.stopPropagation();
            onSelect(p.ply);
          }
        });
      }
      svg.appendChild(c);
    }
    svg.appendChild(el(doc, 'text', { class: 'axis-label', x: L, y: Ht - 4, 'font-size': 10 }, '0'));
    svg.appendChild(
      el(
        doc,
        'text',
        { class: 'axis-label', x: Wd - R, y: Ht - 4, 'text-anchor': 'end', 'font-size': 10 },
        String(maxPly),
      ),
    );
    return svg;
  }

  const api = { renderBoard, renderGraph, describeView, colName, dotName, SVG_NS };
  root.DabBoard = api;
  if (typeof module === 'object' && module && module.exports) module.exports = api;
})(typeof globalThis !== 'undefined' ? globalThis : this);
