/**
 * ```dab blocks of a Markdown document as HTML: the picture of the block's entry (board, value in
 * words, legend, and the value graph for a game), drawn by the shared drawing code. Bundled on its
 * own (dist/markdown.js) and loaded by the extension's markdown-it plugin (client/src/markdownPreview.ts)
 * only when a preview shows a ```dab block.
 *
 * markdown-it renders synchronously inside VS Code's extension host, so each block gets a small
 * total search budget, and the blocks of one render share a budget for the document; what is not
 * proven within them is drawn as unknown. Results are cached by block text, so typing elsewhere in
 * the document does not search again. The fence may name the entry and the ply: ```dab entry=2 ply=14
 */
import type { MarkdownBlockRenderer } from '../../shared/protocol';
import { pictureView } from './boardPicture';
import { pictureSvg } from '../../render/picture';
import { escapeXml } from '../../render/tree';
import {
  EDITOR_MAX_POSITIONS,
  MARKDOWN_BLOCK_BUDGET_MS,
  MARKDOWN_BLOCK_CACHE_ENTRIES,
  MARKDOWN_DOCUMENT_BUDGET_MS,
  MARKDOWN_RENDER_GAP_MS,
} from './engine/limits';
import { NOTE_PREVIEW_BLOCK_TIME_SPENT, NOTE_PREVIEW_TIME_SPENT } from './engine/phrasebook/values';
import { badFenceOption, repeatedFenceOption } from './engine/phrasebook/board';
import { blockNotDrawn, thrownWords } from './engine/phrasebook/editor';

const cache = new Map<string, string>();
/** The render under way: the time its blocks have searched, and when its last block was done. */
const render = { spentMs: 0, lastEnd: 0 };

/** The HTML of one ```dab block (an SVG picture, or the error and the block's text). */
export function renderDabBlock(info: string, content: string): string {
  const key = `${info}\n${content}`;
  const hit = cache.get(key);
  if (hit !== undefined) {
    // the least recently drawn go first: a document's blocks stay while it is being edited
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const start = Date.now();
  if (start - render.lastEnd > MARKDOWN_RENDER_GAP_MS) render.spentMs = 0;
  const budgetMs = Math.max(0, Math.min(MARKDOWN_BLOCK_BUDGET_MS, MARKDOWN_DOCUMENT_BUDGET_MS - render.spentMs));
  let html: string;
  try {
    const fence = fenceOptions(info);
    const r =
      'error' in fence
        ? fence
        : pictureView(content, {
            entry: fence.entry,
            ply: fence.ply,
            budgetMs,
            maxWork: EDITOR_MAX_POSITIONS,
            // which budget ran out: the document's (drawn again, below) or the block's own (kept)
            timeSpentNote:
              budgetMs < MARKDOWN_BLOCK_BUDGET_MS ? NOTE_PREVIEW_TIME_SPENT : NOTE_PREVIEW_BLOCK_TIME_SPENT,
          });
    html =
      'error' in r
        ? `<div class="dab-block dab-error"><p>dab: ${escapeXml(r.error)}</p><pre><code>${escapeXml(content)}</code></pre></div>\n`
        : `<div class="dab-block">${pictureSvg(r.view)}</div>\n`;
  } catch (e) {
    html = `<div class="dab-block dab-error"><p>${blockNotDrawn(escapeXml(thrownWords(e)))}</p></div>\n`;
  }
  render.lastEnd = Date.now();
  render.spentMs += render.lastEnd - start;
  // a block the document's budget cut short is drawn again next time, with the time then left
  if (budgetMs < MARKDOWN_BLOCK_BUDGET_MS) return html;
  cache.set(key, html);
  if (cache.size > MARKDOWN_BLOCK_CACHE_ENTRIES) cache.delete(cache.keys().next().value!);
  return html;
}

/**
 * The fence's options after `dab`: words `entry=N` (from 1) and `ply=K` (from 0), plain decimals,
 * each at most once. Anything else is an error shown with the block, never a silently other picture.
 */
export function fenceOptions(info: string): { entry?: number; ply?: number } | { error: string } {
  const out: { entry?: number; ply?: number } = {};
  for (const word of info.trim().split(/\s+/).filter(Boolean)) {
    const m = /^(entry|ply)=(\d{1,9})$/.exec(word);
    const name = m?.[1] as 'entry' | 'ply' | undefined;
    if (!m || !name || (name === 'entry' && Number(m[2]) < 1)) return { error: badFenceOption(word) };
    if (out[name] !== undefined) return { error: repeatedFenceOption(name, `${name}=${out[name]}`, word) };
    out[name] = Number(m[2]);
  }
  return out;
}

export const renderer: MarkdownBlockRenderer = { renderDabBlock };
