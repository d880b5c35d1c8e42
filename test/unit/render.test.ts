// One drawing code for three places: the string back end (Markdown preview, `dab render`) tested
// here; the DOM back end in test/browser. File text must stay text in both.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pictureOf, pictureView } from '../../server/src/boardPicture';
import { el, toSvgString } from '../../render/tree';
import { extendMarkdownIt, type MarkdownItLike } from '../../client/src/markdownPreview';
import { renderDabBlock, renderer } from '../../server/src/markdownBlocks';

const ROOT = join(import.meta.dirname, '..', '..');
const GAME = ['game "small"', '  size 2x2', '  players "Alice" "Bob"', '  moves a1-b1 b1-c1 a3-b3 b3-c3', ''].join(
  '\n',
);

const count = (s: string, re: RegExp) => (s.match(re) ?? []).length;

test('render: a game as one SVG — dots, drawn lines, caption with the value in words, legend, graph', () => {
  const r = pictureOf(GAME, { budgetMs: 5000 });
  assert.ok('svg' in r, JSON.stringify(r));
  const svg = r.svg;
  assert.match(svg, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" class="dab-picture"/);
  assert.equal(count(svg, /class="dot"/g), 9, 'nine dots on a 2x2 board');
  assert.equal(count(svg, /class="line drawn( last)?"/g), 4);
  assert.equal(count(svg, /class="move heat-\d"/g), 8, 'the 8 undrawn lines, coloured (solved)');
  assert.match(svg, /class="caption-value"[^>]*>[^<]*wins/);
  assert.match(svg, /class="heat-legend"/);
  assert.equal(count(svg, /class="point[^"]*"/g), 5, 'graph: the start and four moves');
  assert.doesNotMatch(svg, /tabindex|role="button"/, 'a static picture has nothing to focus');
  const v = pictureView(GAME, { budgetMs: 5000, ply: 2 });
  assert.ok('view' in v && v.view.ply === 2 && v.view.drawn.length === 2);
});

test('render: hostile text from the file stays text in the SVG', () => {
  const evil =
    'game "<script>alert(1)</script>&amp;"\n  size 1x1\n  players "<img src=x onerror=alert(2)>" "B"\n  moves a1-b1\n';
  const r = pictureOf(evil, { budgetMs: 1000 });
  assert.ok('svg' in r);
  assert.doesNotMatch(r.svg, /<script|<img/);
  assert.match(r.svg, /&lt;script&gt;alert\(1\)&lt;\/script&gt;&amp;amp;/);
  assert.throws(() => toSvgString(el('a b')), /bad SVG tag/);
  assert.throws(() => toSvgString(el('g', { 'on click': 'x' })), /bad SVG attribute/);
});

test('render: a position not proven within the budget is drawn as unknown, never guessed', () => {
  const big = 'position "open 5x5"\n  size 5x5\n  lines a1-b1\n';
  const r = pictureView(big, { budgetMs: 50 });
  assert.ok('view' in r);
  assert.equal(r.view.value, null);
  assert.equal(r.view.solved, false);
  assert.ok(
    r.view.moves!.every((m) => m.loss === null),
    'no loss is claimed',
  );
  const svg = pictureOf(big, { budgetMs: 50 });
  assert.ok('svg' in svg && !/class="move heat-\d"/.test(svg.svg), 'no heat map without a proof');
});

test('render: bad requests get clear messages', () => {
  assert.match((pictureOf(GAME, { budgetMs: 10, entry: 3 }) as { error: string }).error, /no entry 3.*1 entry/);
  assert.match((pictureOf(GAME, { budgetMs: 10, ply: 9 }) as { error: string }).error, /no ply 9.*0 to 4/);
  assert.match((pictureOf('# nothing\n', { budgetMs: 10 }) as { error: string }).error, /no entry/);
});

test('markdown: ```dab blocks become pictures, other fences are left alone, errors say why', () => {
  const md: MarkdownItLike = { renderer: { rules: { fence: (t, i) => `<pre>${t[i].content}</pre>` } } };
  extendMarkdownIt(md, () => renderer);
  const fence = md.renderer.rules.fence!;
  const html = fence([{ info: 'dab ply=2', content: GAME }], 0, {}, {}, {});
  assert.match(html, /^<div class="dab-block"><svg xmlns/);
  assert.equal(count(html, /class="line drawn( last)?"/g), 2, 'ply=2 from the fence');
  assert.equal(fence([{ info: 'js', content: 'x' }], 0, {}, {}, {}), '<pre>x</pre>');
  const bad = renderDabBlock('', 'game "<b>"\n  size 99x99\n');
  assert.match(bad, /dab-error/);
  assert.doesNotMatch(bad, /<b>/);
});

test('cli: dab render writes the SVG file; bad usage and bad entries fail with a message', () => {
  const dist = join(ROOT, 'dist', 'cli.js');
  assert.ok(existsSync(dist), 'dist/cli.js is built');
  const dir = mkdtempSync(join(tmpdir(), 'dab-render-'));
  try {
    const file = join(dir, 'g.dab');
    writeFileSync(file, GAME);
    const out = join(dir, 'g.svg');
    const bin = join(ROOT, 'bin', 'dab.js');
    const ok = spawnSync(process.execPath, [bin, 'render', file, '--ply', '3', '-o', out], { encoding: 'utf8' });
    assert.equal(ok.status, 0, ok.stderr);
    const svg = readFileSync(out, 'utf8');
    assert.equal(count(svg, /class="line drawn( last)?"/g), 3);
    assert.match(svg, /fill="#ffffff"/, 'standalone files have a background');
    const missing = spawnSync(process.execPath, [bin, 'render', file, '--entry', '2'], { encoding: 'utf8' });
    assert.equal(missing.status, 1);
    assert.match(missing.stderr, /no entry 2/);
    const usage = spawnSync(process.execPath, [bin, 'render'], { encoding: 'utf8' });
    assert.equal(usage.status, 2);
    assert.match(usage.stderr, /no file given/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
