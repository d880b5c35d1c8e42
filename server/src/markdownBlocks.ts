/**
 * ```dab blocks of a Markdown document as HTML: the picture of the block's entry (board, value in
 * words, legend, and the value graph for a game), drawn by the shared drawing code. Bundled on its
 * own (dist/markdown.js) and loaded by the extension's markdown-it plugin (client/src/markdownPreview.ts)
 * only when a preview shows a ```dab block.
 *
 * markdown-it renders synchronously inside VS Code's extension host, so each block gets a small
 * total search budget; what is not proven within it is drawn as unknown. Results are cached by
 * block text, so typing elsewhere in the document does not search again. The fence may name the
 * entry and the ply: ```dab entry=2 ply=14
 */
import type { MarkdownBlockRenderer } from '../../shared/protocol';
import { pictureView } from './boardPicture';
import { pictureSvg } from '../../render/picture';
import { MARKDOWN_BLOCK_BUDGET_MS, MARKDOWN_BLOCK_CACHE_ENTRIES } from './engine/limits';

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
    const r = pictureView(content, {
      entry: attrs.get('entry'),
      ply: attrs.get('ply'),
      budgetMs: MARKDOWN_BLOCK_BUDGET_MS,
    });
    html =
      'error' in r
        ? `<div class="dab-block dab-error"><p>dab: ${escapeHtml(r.error)}</p><pre><code>${escapeHtml(content)}</code></pre></div>\n`
        : `<div class="dab-block">${pictureSvg(r.view)}</div>\n`;
  } catch (e) {
    html = `<div class="dab-block dab-error"><p>dab could not draw this block: ${escapeHtml(e instanceof Error ? e.message : String(e))}</p></div>\n`;
  }
  cache.set(key, html);
  if (cache.size > MARKDOWN_BLOCK_CACHE_ENTRIES) cache.delete(cache.keys().next().value!);
  return html;
}

export const renderer: MarkdownBlockRenderer = { renderDabBlock };
