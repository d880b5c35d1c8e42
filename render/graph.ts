/**
 * The value graph over a record, as an SVG element tree (pure; see tree.ts for the back ends).
 * It draws only what is proven: exact values as points joined by a line, proven bounds as a band
 * (the value lies somewhere inside), and nothing where nothing is known — an unknown position is
 * never drawn on the zero line, which would read as "even". Every ply has one selectable marker
 * (a point, or a bar over its band) that steps the board there.
 */
import type { BoardView } from '../shared/protocol';
import { el, type SvgNode } from './tree';
import { playerName } from './board';
import { GRAPH_NO_MOVES, graphLabel, graphPointLabel } from '../server/src/engine/phrasebook/board';

const Wd = 320;
const Ht = 110;
const L = 30;
const R = 8;
const T = 10;
const B = 18;

type GraphPoint = BoardView['graph'][number];

const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** Proven bounds of a point for the first player; an exact value is its own bounds. */
export function boundsOf(p: GraphPoint): [number, number] | null {
  if (finite(p.valueForFirst)) return [p.valueForFirst, p.valueForFirst];
  if (finite(p.lowerForFirst) && finite(p.upperForFirst)) return [p.lowerForFirst, p.upperForFirst];
  return null;
}

/** "after move 2: Alice -1, mistake"; "after move 5: value unknown, Alice between −3 and +1". */
export function pointLabel(view: BoardView, p: GraphPoint): string {
  const known = finite(p.valueForFirst) ? p.valueForFirst : null;
  return graphPointLabel(playerName(view, 0), p.ply, known, known === null ? boundsOf(p) : null, !!p.mistake);
}

export function graphTree(view: BoardView, options: { interactive?: boolean } = {}): SvgNode {
  const pts = (Array.isArray(view.graph) ? view.graph : []).filter((p) => p && finite(p.ply));
  const svg = el('svg', {
    class: 'dab-graph',
    viewBox: `0 0 ${Wd} ${Ht}`,
    width: Wd,
    height: Ht,
    role: 'group',
    'aria-label': graphLabel(playerName(view, 0)),
  });
  const add = (n: SvgNode) => svg.children.push(n);
  if (!pts.length) {
    add(el('text', { class: 'empty', x: L, y: Ht / 2 }, GRAPH_NO_MOVES));
    return svg;
  }
  const maxPly = Math.max(1, ...pts.map((p) => p.ply));
  const maxAbs = Math.max(1, ...pts.flatMap((p) => (boundsOf(p) ?? [0, 0]).map(Math.abs)));
  const gx = (ply: number) => L + (ply / maxPly) * (Wd - L - R);
  const gy = (v: number) => T + ((maxAbs - v) / (2 * maxAbs)) * (Ht - T - B);
  const f = (n: number) => n.toFixed(1);

  add(el('line', { class: 'axis zero', x1: L, y1: gy(0), x2: Wd - R, y2: gy(0), stroke: '#888', 'stroke-width': 1 }));
  const axisLabel = (y: number, text: string) =>
    add(el('text', { class: 'axis-label', x: L - 4, y: gy(y) + 4, 'text-anchor': 'end', 'font-size': 10 }, text));
  axisLabel(maxAbs, `+${maxAbs}`);
  axisLabel(0, '0');
  axisLabel(-maxAbs, `−${maxAbs}`);

  const ply = Number(view.ply) || 0;
  add(
    el('line', {
      class: 'current-ply',
      x1: gx(ply),
      y1: T,
      x2: gx(ply),
      y2: Ht - B,
      stroke: '#888',
      'stroke-dasharray': '2 2',
    }),
  );

  // The band: one closed shape per run of consecutive plies with proven bounds (exact values are
  // bounds of width zero, so the band narrows to the line where the value is known).
  let run: { ply: number; lo: number; hi: number }[] = [];
  const flush = () => {
    if (run.some((r) => r.hi > r.lo)) {
      const top = run.map((r, i) => `${i ? 'L' : 'M'}${f(gx(r.ply))} ${f(gy(r.hi))}`).join('');
      const bottom = run
        .slice()
        .reverse()
        .map((r) => `L${f(gx(r.ply))} ${f(gy(r.lo))}`)
        .join('');
      add(
        el('path', {
          class: 'bounds-band',
          d: `${top}${bottom}Z`,
          fill: '#3b82f6',
          'fill-opacity': 0.18,
          stroke: '#3b82f6',
          'stroke-opacity': 0.4,
          'stroke-width': 0.75,
        }),
      );
    }
    run = [];
  };
  for (const p of pts) {
    const b = boundsOf(p);
    if (b) run.push({ ply: p.ply, lo: b[0], hi: b[1] });
    else flush();
  }
  flush();

  // The value line joins consecutive exact values only.
  let d = '';
  let pen = false;
  for (const p of pts) {
    if (!finite(p.valueForFirst)) {
      pen = false;
      continue;
    }
    d += `${pen ? 'L' : 'M'}${f(gx(p.ply))} ${f(gy(p.valueForFirst))}`;
    pen = true;
  }
  if (d) add(el('path', { class: 'value-line', d, fill: 'none', stroke: '#3b82f6', 'stroke-width': 2 }));

  for (const p of pts) {
    const known = finite(p.valueForFirst);
    const cls = ['point', p.mistake ? 'mistake' : '', known ? '' : 'unknown', p.ply === ply ? 'current' : '']
      .filter(Boolean)
      .join(' ');
    const label = pointLabel(view, p);
    const common = {
      class: cls,
      'data-ply': p.ply,
      role: options.interactive ? 'button' : undefined,
      tabindex: options.interactive && (p.mistake || p.ply === ply) ? 0 : undefined,
      'aria-label': label,
    };
    let marker: SvgNode;
    if (known) {
      marker = el('circle', {
        ...common,
        cx: gx(p.ply),
        cy: gy(p.valueForFirst as number),
        r: p.mistake ? 5 : p.ply === ply ? 4.5 : 3,
        fill: p.mistake ? '#e11d48' : '#3b82f6',
      });
    } else {
      // Unknown: a thin bar over the proven band (the whole height when nothing is proven).
      const proven = boundsOf(p);
      const b = proven ?? [-maxAbs, maxAbs];
      marker = el('rect', {
        ...common,
        x: gx(p.ply) - 2,
        y: gy(b[1]) - 2,
        width: 4,
        height: gy(b[0]) - gy(b[1]) + 4,
        rx: 2,
        fill: p.mistake ? '#e11d48' : '#999',
        // Nothing proven: a faint full-height bar (selectable, but no claim about the value).
        'fill-opacity': proven ? 0.55 : 0.15,
      });
    }
    marker.children.push(el('title', {}, label));
    if (options.interactive) marker.action = { kind: 'ply', ply: p.ply };
    add(marker);
  }
  add(el('text', { class: 'axis-label', x: L, y: Ht - 4, 'font-size': 10 }, '0'));
  add(el('text', { class: 'axis-label', x: Wd - R, y: Ht - 4, 'text-anchor': 'end', 'font-size': 10 }, String(maxPly)));
  return svg;
}
