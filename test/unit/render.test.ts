// One drawing code for three places: the string back end (Markdown preview, `dab render`) tested
// here; the DOM back end in test/browser. File text must stay text in both.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { plausibleRecord } from '../support/boards';
import { lcg } from '../support/random';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pictureOf, pictureView } from '../../server/src/boardPicture';
import { el, toSvgString } from '../../render/tree';
import { extendMarkdownIt, type MarkdownItLike } from '../../client/src/markdownPreview';
import { CLI_MAX_POSITIONS } from '../../server/src/engine/limits';
import { renderDabBlock, renderer } from '../../server/src/markdownBlocks';
import { MARKDOWN_DOCUMENT_BUDGET_MS, MARKDOWN_RENDER_GAP_MS } from '../../server/src/engine/limits';

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

test('render: long names and titles are cut in the picture (they are repeated in every box and graph point)', () => {
  const long = (c: string) => c.repeat(100_000);
  const game = (a: string, b: string, title: string) =>
    [
      `game "${title}"`,
      '  size 3x3',
      `  players "${a}" "${b}"`,
      '  moves a1-b1 b1-c1 c1-d1 a4-b4 b4-c4 c4-d4 a1-a2',
      '',
    ].join('\n');
  const short = pictureOf(game('Alice', 'Bob', 't'), { budgetMs: 2000 });
  const huge = pictureOf(game(long('<'), long('&'), long('x')), { budgetMs: 2000 });
  assert.ok('svg' in short && 'svg' in huge, JSON.stringify(huge).slice(0, 200));
  // the text of each name appears at most once beyond the bounded copies (the value line)
  assert.ok(huge.svg.length < short.svg.length + 3 * 500_000 + 50 * 80 * 5, `${huge.svg.length} characters`);
  assert.match(huge.svg, /(&lt;){79}…/, 'a cut name ends with an ellipsis');
  // an invisible bidi override is no box initial
  const rtl = pictureOf(game('\u202EAlice', 'Bob', 't'), { budgetMs: 2000 });
  assert.ok('svg' in rtl);
  assert.doesNotMatch(rtl.svg, />\u202E</, 'no box shows an invisible initial');
});

test('render: a ply the entry does not have is said before any search', () => {
  const record = ['game "five"', '  size 5x5', '  moves a1-b1 b1-c1 c1-d1 d1-e1', ''].join('\n');
  const t0 = performance.now();
  const r = pictureOf(record, { budgetMs: 60_000, ply: 999 });
  assert.match((r as { error: string }).error, /no ply 999.*0 to 4/);
  assert.ok(
    performance.now() - t0 < 10_000,
    `answered after ${Math.round(performance.now() - t0)} ms of a 60 s budget`,
  );
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
    // a number too large to keep exactly is refused as such, not printed as 1e+23
    const huge = spawnSync(process.execPath, [bin, 'render', file, '--ply', '99999999999999999999999'], {
      encoding: 'utf8',
    });
    assert.equal(huge.status, 2, huge.stderr);
    assert.match(huge.stderr, /--ply needs a number of moves/);
    assert.doesNotMatch(huge.stderr, /e\+/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// Found by an independent audit of the drawing code.
test('render: control characters and lone surrogates never make the SVG unreadable; right-to-left names are isolated', () => {
  const names = ['A\u0001\u0008\u000b\u000c\u001f', 'B\uFFFE\uFFFF\uD800x\uDC00'];
  const text = `game "t\u0002"\n  size 1x1\n  players "${names[0]}" "${names[1]}"\n  moves a1-b1\n`;
  const r = pictureOf(text, { budgetMs: 1000 });
  assert.ok('svg' in r);
  const notXml = new RegExp(
    // eslint-disable-next-line no-control-regex
    '[\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\uFFFE\\uFFFF]|[\\uD800-\\uDBFF](?![\\uDC00-\\uDFFF])|(?<![\\uD800-\\uDBFF])[\\uDC00-\\uDFFF]',
  );
  assert.doesNotMatch(r.svg, notXml);
  assert.match(r.svg, /A\uFFFD/, 'shown as U+FFFD');
  // U+202E in a name would reverse the score after it: the name is isolated and its overrides dropped
  const rtl = pictureOf('game\n  size 1x1\n  players "Eve\u202E" "Bob"\n  moves a1-b1\n', { budgetMs: 1000 });
  assert.ok('svg' in rtl);
  assert.doesNotMatch(rtl.svg, /\u202E/);
  assert.match(rtl.svg, /\u2068Eve\u2069 0 – 0 Bob/);
  // and in the sentences: the caption's value words, every line's words (found by an audit: the
  // predicted score after a U+202E name read reversed)
  const said = pictureOf('game\n  size 2x2\n  players "\u202EAl" "Bo"\n  moves a1-b1 b1-c1\n', { budgetMs: 2000 });
  assert.ok('svg' in said);
  assert.doesNotMatch(said.svg, /\u202E/);
  assert.match(said.svg, /— \u2068Al\u2069 wins the rest by 2\. Predicted final score 3-1, \u2068Al\u2069 wins 3-1/);
  assert.match(said.svg, /aria-label="a2-b2: a best move — \u2068Al\u2069 wins the rest by 2"/);
  const hebrew = pictureOf('game\n  size 1x1\n  players "אבי" "Bob"\n  moves a1-b1\n', { budgetMs: 1000 });
  assert.ok('svg' in hebrew && hebrew.svg.includes('\u2068אבי\u2069 0 – 0 Bob'));
  const plain = pictureOf(GAME, { budgetMs: 1000 });
  assert.ok(
    'svg' in plain && plain.svg.includes('Alice') && !plain.svg.includes('\u2068'),
    'plain names are unchanged',
  );
});

test('render: an abstract endgame shows every size as written, and a huge one draws a bounded picture', () => {
  const long = pictureOf('endgame\n  components 1000 + 3 + 6l^2\n', { budgetMs: 1000 });
  assert.ok('svg' in long);
  assert.match(long.svg, /data-size="1000"/);
  assert.match(long.svg, /<title>chain of 1000 boxes<\/title>/);
  assert.match(long.svg, /class="component-label"[^>]*>1000</);
  const huge = pictureOf('endgame\n  components 3^199000 + 4l^1000\n', { budgetMs: 1000 });
  assert.ok('svg' in huge);
  assert.ok(huge.svg.length < 200_000, `${huge.svg.length} characters`);
  assert.match(huge.svg, /… and 199,940 more components \(600,820 boxes\)/);
});

test('markdown: the blocks of one document share a search budget, and the later ones are drawn at the next render', () => {
  // found by an audit: 70 costly blocks held the preview (and VS Code's extension host) for over a minute
  const blocks = Array.from(
    { length: 8 },
    (_, i) => `position "costly ${i} ${Date.now()}"\n  size 5x5\n  lines a1-b1\n`,
  );
  const first = performance.now();
  const html = blocks.map((b) => renderDabBlock('', b));
  const ms = performance.now() - first;
  assert.ok(ms < MARKDOWN_DOCUMENT_BUDGET_MS + 3000, `one render took ${ms.toFixed(0)} ms`);
  const spent = html.filter((h) => h.includes("preview's search time for this document was spent")).length;
  assert.ok(spent >= 2, `${spent} of 8 blocks drawn after the document's time, and labelled so`);
  // the next render (after a pause) keeps the blocks drawn in full and draws more
  const wait = Date.now() + MARKDOWN_RENDER_GAP_MS + 100;
  while (Date.now() < wait) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
  const again = blocks.map((b) => renderDabBlock('', b));
  const spentAgain = again.filter((h) => h.includes("preview's search time for this document was spent")).length;
  assert.ok(spentAgain < spent, `fewer blocks left unsearched the second time (${spentAgain} < ${spent})`);
  // the first blocks had their whole 1.5 s (4 of them fit in the document's 6 s): kept, not searched again
  for (let i = 0; i < 3; i++) assert.equal(again[i], html[i], `block ${i + 1} is kept`);
  // a block whose own time ran out says so, not that the document's did (found by an audit): it
  // is kept, not drawn again
  for (let i = 0; i < 3; i++)
    assert.doesNotMatch(html[i], /this document was spent/, `block ${i + 1} had its whole own budget`);
  // a record alone, after a pause: its early positions get no time from the block's own budget
  const pause = Date.now() + MARKDOWN_RENDER_GAP_MS + 100;
  while (Date.now() < pause) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
  const record = plausibleRecord(5, 5, 20, lcg(Date.now() % 1000), `alone ${Date.now()}`);
  const alone = renderDabBlock('ply=0', record);
  assert.match(alone, /preview's search time for this block was spent/);
  assert.doesNotMatch(alone, /this document was spent/);
});

test('render: a ```dab fence with an option it does not know says so, and a huge block is bounded by work', () => {
  for (const info of [' ply=-1', ' ply=abc', ' entry=0', ' entry=1e3', ' ply=0x2', ' ply=1.5', ' entry=1ply=2'])
    assert.match(renderDabBlock(info, GAME), /dab-error[\s\S]*is not an option of a dab block/, info);
  // an option given twice is said to be so (it was "not an option")
  assert.match(
    renderDabBlock(' ply=1 ply=2', GAME),
    /dab-error[\s\S]*ply is given twice \(ply=1 ply=2\): give it once/,
  );
  assert.doesNotMatch(renderDabBlock(' entry=1 ply=2', GAME), /dab-error/);
  // an invisible control in an option is named: the option shown looks valid (found by an audit)
  assert.match(renderDabBlock(' \u202eply=1', GAME), /\(it holds the invisible U\+202E\) is not an option/);
  const games = Array.from(
    { length: 400 },
    (_, i) => `game "g${i}"\n  size 5x5\n  moves ${'a1-b1 b1-c1 c1-d1 d1-e1 e1-f1 '.repeat(6)}\n`,
  );
  const block = games.join('');
  assert.doesNotMatch(renderDabBlock(' entry=3', block), /dab-error/);
  assert.match(renderDabBlock(' entry=400', block), /entry 400 is not drawn here/);
  // more entries than the bound's positions: those past it are not even read, and are left out, not missing
  const small = 'game\n  size 1x1\n'.repeat(10_005);
  assert.match(renderDabBlock(' entry=10003', small), /entry 10003 is not drawn here/);
});

// Found by an audit: a block with no size said only "has nothing to draw" (its missing-size error is
// the model's, not the parser's), and a block whose one entry passed the work bound was told to give
// the entry a block of its own.
test('markdown: a block with nothing to draw says why; one entry over the bound is not sent to a block of its own', () => {
  const noSize = renderDabBlock('', 'position "p"\n  players "a" "b"\n');
  assert.match(noSize, /entry 1 has nothing to draw: line 1: .*size/);
  const alone = renderDabBlock('', `endgame "e"\n  components 3^9980\n`);
  assert.match(alone, /entry 1 is not drawn here: .*one per component\); draw it with dab render/);
  assert.doesNotMatch(alone, /a block of its own/);
  const games = Array.from(
    { length: 400 },
    (_, i) => `game "g${i}"\n  size 5x5\n  moves ${'a1-b1 b1-c1 c1-d1 d1-e1 e1-f1 '.repeat(6)}\n`,
  ).join('');
  assert.match(renderDabBlock(' entry=400', games), /give the entry a block of its own, or draw it with dab render/);
});

// Found by an audit: `dab render` read every entry of a file to draw one (490,000 entries: 15 s and
// 1.5 GB), past the bound dab analyze and dab check read to; an entry past it is refused as they leave it.
test("cli: dab render reads a file within dab analyze's bound; an entry past it is not drawn, with why", () => {
  const dir = mkdtempSync(join(tmpdir(), 'dab-render-bound-'));
  try {
    const file = join(dir, 'many.dab');
    writeFileSync(file, 'position\n  size 1x1\n'.repeat(CLI_MAX_POSITIONS + 10));
    const bin = join(ROOT, 'bin', 'dab.js');
    const run = (entry: number) =>
      spawnSync(process.execPath, [bin, 'render', '--no-store', file, '--entry', String(entry)], { encoding: 'utf8' });
    const first = run(2);
    assert.equal(first.status, 0, first.stderr);
    assert.match(first.stdout, /^<svg/);
    const past = run(CLI_MAX_POSITIONS + 5);
    assert.equal(past.status, 1);
    assert.match(past.stderr, /is not drawn: dab reads at most 250,000 positions .* per file; split the file/);
    assert.equal(past.stdout, '');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
