/**
 * ```dab blocks in VS Code's Markdown preview: a markdown-it plugin (package.json:
 * `markdown.markdownItPlugins`) that draws the block's entry — board, value in words, and the
 * value graph for a game — with the same drawing code as the board view and `dab render`.
 *
 * markdown-it renders synchronously in the extension host, so each block gets a small search
 * budget; what is not proven within it is drawn as unknown. Pictures are cached by block text, so
 * typing elsewhere in the document does not search again. The fence may name the entry and ply:
 * ```dab entry=2 ply=14
 */
import { pictureView } from '../../server/src/boardPicture';
import { pictureSvg } from '../../render/picture';

/** Search time for one block, in total (the preview waits for it). */
export const BLOCK_BUDGET_MS = 1500;
const MAX_CACHED = 64;

interface FenceToken {
  info: string;
  content: string;
}
type RenderRule = (tokens: FenceToken[], idx: number, options: unknown, env: unknown, self: unknown) => string;
/** The part of markdown-it this plugin uses. */
export interface MarkdownItLike {
  renderer: { rules: Record<string, RenderRule | undefined> };
}

const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const cache = new Map<string, string>();

/** The HTML of one ```dab block (an SVG picture, or the error and the block's text). */
export function renderDabBlock(info: string, content: string): string {
  const key = `${info}\n${content}`;
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  const attrs = new Map([...info.matchAll(/\b(entry|ply)\s*=\s*(\d+)/g)].map((m) => [m[1], Number(m[2])]));
  let html: string;
  try {
    const r = pictureView(content, { entry: attrs.get('entry'), ply: attrs.get('ply'), budgetMs: BLOCK_BUDGET_MS });
    html =
      'error' in r
        ? `<div class="dab-block dab-error"><p>dab: ${escapeHtml(r.error)}</p><pre><code>${escapeHtml(content)}</code></pre></div>\n`
        : `<div class="dab-block">${pictureSvg(r.view)}</div>\n`;
  } catch (e) {
    html = `<div class="dab-block dab-error"><p>dab could not draw this block: ${escapeHtml(e instanceof Error ? e.message : String(e))}</p></div>\n`;
  }
  cache.set(key, html);
  if (cache.size > MAX_CACHED) cache.delete(cache.keys().next().value!);
  return html;
}

export function extendMarkdownIt<T extends MarkdownItLike>(md: T): T {
  const fallback = md.renderer.rules.fence;
  md.renderer.rules.fence = (tokens, idx, options, env, self) => {
    const token = tokens[idx];
    const info = token.info.trim();
    if (/^dab(\s|$)/i.test(info)) return renderDabBlock(info.slice(3), token.content);
    return fallback
      ? fallback(tokens, idx, options, env, self)
      : `<pre><code>${escapeHtml(token.content)}</code></pre>\n`;
  };
  return md;
}
