/**
 * The drawing's element tree: what the board and graph drawings build, with no DOM and no Node.
 * Two back ends turn it into pixels: `webview/dom.ts` (createElementNS + textContent, in the
 * webview) and `toSvgString` below (escaped SVG text, for the Markdown preview and `dab render`).
 * Text from a file only ever lands in `text` or in an attribute value, and both back ends treat
 * it as text: the DOM one never parses it, the string one escapes it.
 */

export const SVG_NS = 'http://www.w3.org/2000/svg';

/** What a user can do with an element; the DOM back end wires it to click and Enter/Space. */
export type DrawAction = { kind: 'ply'; ply: number } | { kind: 'play'; line: string };

export interface SvgNode {
  tag: string;
  attrs: Record<string, string | number>;
  /** Text content (mutually exclusive with children in practice). */
  text?: string;
  children: SvgNode[];
  action?: DrawAction;
}

/**
 * Characters XML 1.0 does not allow (C0 controls but tab, newline and return; U+FFFE, U+FFFF; lone
 * surrogates): a file's text may hold them, and one in an SVG makes the whole picture unreadable.
 */
const NOT_XML =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Text as drawn: what XML cannot hold becomes U+FFFD (both back ends draw the same tree). */
export function xmlText(s: string): string {
  return s.replace(NOT_XML, '\uFFFD');
}

export function el(
  tag: string,
  attrs: Record<string, string | number | undefined> = {},
  textOrChildren?: string | SvgNode[],
): SvgNode {
  const a: Record<string, string | number> = {};
  for (const k of Object.keys(attrs)) {
    const v = attrs[k];
    if (v !== undefined) a[k] = typeof v === 'string' ? xmlText(v) : v;
  }
  if (typeof textOrChildren === 'string') return { tag, attrs: a, text: xmlText(textOrChildren), children: [] };
  return { tag, attrs: a, children: textOrChildren ?? [] };
}

/** Every node of the tree, depth first (tests and back ends). */
export function* walk(n: SvgNode): Generator<SvgNode> {
  yield n;
  for (const c of n.children) yield* walk(c);
}

const TAG = /^[a-zA-Z][a-zA-Z0-9-]*$/;
const ATTR = /^[a-zA-Z_:][a-zA-Z0-9_.:-]*$/;

export function escapeXml(s: string): string {
  return xmlText(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/**
 * Standalone SVG text. Names of tags and attributes come from the drawing code, never from a file,
 * but are still checked; values and text are escaped. Interactive bits (tabindex, actions) are
 * dropped: a static picture has nothing to focus.
 */
export function toSvgString(n: SvgNode, root = true): string {
  if (!TAG.test(n.tag)) throw new Error(`bad SVG tag ${JSON.stringify(n.tag)}`);
  const attrs: string[] = [];
  if (root && n.tag === 'svg' && n.attrs.xmlns === undefined) attrs.push(`xmlns="${SVG_NS}"`);
  for (const [k, v] of Object.entries(n.attrs)) {
    if (!ATTR.test(k)) throw new Error(`bad SVG attribute ${JSON.stringify(k)}`);
    if (k === 'tabindex' || (k === 'role' && v === 'button')) continue;
    attrs.push(`${k}="${escapeXml(String(v))}"`);
  }
  const open = `<${n.tag}${attrs.length ? ' ' + attrs.join(' ') : ''}`;
  const inner = (n.text !== undefined ? escapeXml(n.text) : '') + n.children.map((c) => toSvgString(c, false)).join('');
  return inner ? `${open}>${inner}</${n.tag}>` : `${open}/>`;
}
