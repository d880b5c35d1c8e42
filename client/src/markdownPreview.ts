/**
 * ```dab blocks in VS Code's Markdown preview: the markdown-it plugin (package.json:
 * `markdown.markdownItPlugins`, returned from activate as `extendMarkdownIt`). The drawing is done by
 * the server's picture module (server/src/markdownBlocks.ts, bundled as dist/markdown.js), loaded
 * in-process the first time a ```dab block is rendered: markdown-it is synchronous, so the plugin
 * cannot ask the language server.
 */
import { createRequire } from 'node:module';
import type { MarkdownBlockRenderer } from '../../shared/protocol';
import { blockNotDrawn, thrownWords } from '../../server/src/engine/phrasebook/editor';

interface FenceToken {
  info: string;
  content: string;
}
type RenderRule = (tokens: FenceToken[], idx: number, options: unknown, env: unknown, self: unknown) => string;
/** The part of markdown-it this plugin uses. */
export interface MarkdownItLike {
  renderer: { rules: Record<string, RenderRule | undefined> };
}

/** Text in HTML (the picture module escapes its own; this is for what is drawn here when it fails). */
const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Loads dist/markdown.js of the extension once, when first needed. */
export function pictureModule(path: string): () => MarkdownBlockRenderer {
  let loaded: MarkdownBlockRenderer | undefined;
  return () => (loaded ??= (createRequire(path)(path) as { renderer: MarkdownBlockRenderer }).renderer);
}

export function extendMarkdownIt<T extends MarkdownItLike>(md: T, pictures: () => MarkdownBlockRenderer): T {
  const fallback = md.renderer.rules.fence;
  md.renderer.rules.fence = (tokens, idx, options, env, self) => {
    const token = tokens[idx];
    const info = token.info.trim();
    if (/^dab(\s|$)/i.test(info)) {
      try {
        return pictures().renderDabBlock(info.slice(3), token.content);
      } catch (e) {
        return `<div class="dab-block dab-error"><p>${blockNotDrawn(escapeHtml(thrownWords(e)))}</p></div>\n`;
      }
    }
    return fallback
      ? fallback(tokens, idx, options, env, self)
      : `<pre><code>${escapeHtml(token.content)}</code></pre>\n`;
  };
  return md;
}
