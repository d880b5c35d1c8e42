/**
 * The heat map of a solved position: every undrawn line coloured by the boxes it throws away.
 * Colour alone is not enough (colour-blind readers, high-contrast themes), so each band also has
 * its own dash pattern, and the legend and every line's label say the number in words.
 * The colours run from a calm teal (nothing lost) through yellow and orange to red and magenta:
 * rising warmth and falling lightness both mean "worse", readable on light and dark backgrounds.
 */
import { el, type SvgNode } from './tree';
import { HEAT_LEGEND_TITLE } from '../server/src/engine/phrasebook/board';

export interface HeatBand {
  className: string;
  /** Smallest loss in the band (inclusive) and largest (Infinity for the last band). */
  min: number;
  max: number;
  color: string;
  dash: string;
  label: string;
}

// Losses are counted net, as values are (a box that changes hands counts 2), so every loss is even:
// a band per box that changes hands up to two, then 3-4 boxes, then 5 or more.
const BANDS: HeatBand[] = [
  { className: 'heat-0', min: 0, max: 0, color: '#0d9488', dash: 'none', label: 'best (loses nothing)' },
  { className: 'heat-2', min: 1, max: 2, color: '#ca8a04', dash: '8 3', label: 'loses 2' },
  { className: 'heat-4', min: 3, max: 4, color: '#ea580c', dash: '4 3', label: 'loses 4' },
  { className: 'heat-6', min: 5, max: 8, color: '#dc2626', dash: '2 3', label: 'loses 6–8' },
  { className: 'heat-10', min: 9, max: Infinity, color: '#c026d3', dash: '1 2.5', label: 'loses 10 or more' },
];

export function heatLegend(): readonly HeatBand[] {
  return BANDS;
}

/** The legend as a drawing (static pictures; the webview lays out the same bands in HTML). */
export function legendTree(width: number): SvgNode {
  const g = el('g', { class: 'heat-legend', 'font-size': 11 });
  g.children.push(el('text', { class: 'legend-title', x: 8, y: 12 }, HEAT_LEGEND_TITLE));
  let x = 8;
  let y = 30;
  for (const b of BANDS) {
    const w = 40 + b.label.length * 6;
    if (x + w > width && x > 8) {
      x = 8;
      y += 18;
    }
    g.children.push(
      el('line', {
        class: `legend-sample ${b.className}`,
        x1: x,
        y1: y - 4,
        x2: x + 24,
        y2: y - 4,
        stroke: b.color,
        'stroke-width': 3,
        'stroke-dasharray': b.dash,
      }),
      el('text', { class: 'legend-label', x: x + 30, y }, b.label),
    );
    x += w;
  }
  g.attrs['data-height'] = y + 8;
  return g;
}

/** The band of a loss; 'heat-none' when the loss is not known. */
export function heatClass(loss: number | null | undefined): string {
  if (loss === null || loss === undefined || !Number.isFinite(loss) || loss < 0) return 'heat-none';
  return BANDS.find((b) => loss >= b.min && loss <= b.max)?.className ?? 'heat-none';
}
