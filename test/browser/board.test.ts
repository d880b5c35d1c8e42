// Draws known BoardViews with the drawing module (render/, through its DOM back end webview/dom.ts)
// in Debian's Chromium (playwright-core), and runs the real webview page (client/src/webviewHtml.ts
// + dist/webview/board.js, built by esbuild.mjs) under its strict CSP with a stand-in for the VS
// Code webview API.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import type { BoardView } from '../../shared/protocol';
import { boardHtml } from '../../client/src/webviewHtml';

const CHROMIUM = process.env.DAB_CHROMIUM ?? '/usr/bin/chromium';
const root = join(import.meta.dirname, '..', '..');
const media = join(root, 'media');
const webviewJs = join(root, 'dist', 'webview', 'board.js');

/** The DOM back end of the drawing as one browser script exposing `window.DabBoard` (tests only). */
let drawingScript: string | undefined;
async function drawingBundle(): Promise<string> {
  if (drawingScript === undefined) {
    const esbuild = await import('esbuild');
    const out = await esbuild.build({
      // The DOM back end plus the string back end, to compare the two on one element tree.
      stdin: {
        contents: [
          "export * from './webview/dom';",
          "export { toSvgString } from './render/tree';",
          "export { boardTree } from './render/board';",
          "export { pictureSvg } from './render/picture';",
        ].join('\n'),
        resolveDir: root,
        loader: 'ts',
      },
      bundle: true,
      format: 'iife',
      globalName: 'DabBoard',
      platform: 'browser',
      target: 'es2022',
      write: false,
    });
    drawingScript = out.outputFiles[0].text;
  }
  return drawingScript;
}
const skip = process.env.DAB_SKIP_BROWSER === '1';
if (skip)
  console.log('# test/browser: SKIPPED because DAB_SKIP_BROWSER=1 — the board drawing was NOT tested in a browser');

let browser: Browser | undefined;
let scratch = '';

before(async () => {
  if (skip) return;
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium not found at ${CHROMIUM}: install it (apt-get update && apt-get install -y chromium), or set DAB_SKIP_BROWSER=1 to skip the browser tests`,
    );
  }
  const { chromium } = await import('playwright-core');
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--allow-file-access-from-files',
    ],
  });
  scratch = mkdtempSync(join(tmpdir(), 'dab-browser-'));
});
after(async () => {
  await browser?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

/**
 * tsx compiles this file with esbuild's keepNames, so functions handed to page.evaluate may call
 * a `__name` helper that the page lacks: give every page a no-op one.
 */
const NAME_SHIM = 'window.__name = (f) => f;';
async function newPage(): Promise<Page> {
  const page = await browser!.newPage();
  await page.addInitScript({ content: NAME_SHIM });
  return page;
}

/** A page with only the drawing module loaded; alerts/dialogs are recorded. */
async function drawingPage(): Promise<{ page: Page; dialogs: string[]; errors: string[] }> {
  const page = await newPage();
  const dialogs: string[] = [];
  const errors: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.setContent('<!DOCTYPE html><html><body><div id="out"></div></body></html>');
  await page.evaluate(NAME_SHIM);
  await page.addScriptTag({ content: await drawingBundle() });
  return { page, dialogs, errors };
}

const L = (from: [number, number], to: [number, number]) => {
  const n = (p: [number, number]) => String.fromCharCode(97 + p[0]) + (p[1] + 1);
  return { from, to, name: `${n(from)}-${n(to)}` };
};

/** 3x3 board mid-game: boxes a1 (A) and b1 (B) done, c3 done by a `lines` setup (owner unknown). */
function midGame(): BoardView {
  const drawn = [
    L([0, 0], [1, 0]),
    L([1, 0], [2, 0]),
    L([0, 1], [1, 1]),
    L([1, 1], [2, 1]),
    L([0, 0], [0, 1]),
    L([1, 0], [1, 1]),
    L([2, 0], [2, 1]),
    L([2, 2], [3, 2]),
    L([2, 3], [3, 3]),
    L([2, 2], [2, 3]),
    L([3, 2], [3, 3]),
  ];
  return {
    entryTitle: 'Mid game',
    entryKind: 'game',
    entryLine: 3,
    width: 3,
    height: 3,
    players: ['Alice', 'Bob'],
    drawn,
    lastMove: L([1, 1], [2, 1]),
    boxes: [
      { at: [0, 0], owner: 0 },
      { at: [1, 0], owner: 1 },
      { at: [2, 2], owner: null },
    ],
    components: [
      {
        kind: 'chain',
        size: 3,
        boxes: [
          [0, 1],
          [0, 2],
          [1, 2],
        ],
      },
      {
        kind: 'loop',
        size: 4,
        boxes: [
          [1, 1],
          [2, 1],
          [2, 0],
          [1, 0],
        ],
      },
    ],
    best: [L([2, 0], [3, 0]), L([3, 0], [3, 1])],
    score: [1, 1],
    toMove: 1,
    valueText: 'Bob to move wins the rest by 2 (final 5-4)',
    value: 2,
    ply: 11,
    plyCount: 14,
    moveRanges: [],
    graph: [
      { ply: 0, valueForFirst: 1, mistake: false },
      { ply: 1, valueForFirst: 1, mistake: false },
      { ply: 2, valueForFirst: -1, mistake: true },
      { ply: 3, valueForFirst: null, mistake: false },
      { ply: 4, valueForFirst: -1, mistake: false },
    ],
  };
}

test(
  'browser: a mid-game board has its dots, lines, last move, boxes, owners, components and dashed best moves',
  { skip: skip ? 'DAB_SKIP_BROWSER=1' : false },
  async () => {
    const { page, errors } = await drawingPage();
    const r = await page.evaluate((view) => {
      const svg = (window as any).DabBoard.renderBoard(view, document) as SVGSVGElement;
      document.getElementById('out')!.appendChild(svg);
      const q = (s: string) => Array.from(svg.querySelectorAll(s));
      const bottomLine = q('.line.drawn').find((l) => l.getAttribute('data-line') === 'a1-b1')!;
      const leftLine = q('.line.drawn').find((l) => l.getAttribute('data-line') === 'a1-a2')!;
      const dotYs = q('.dot').map((d) => Number(d.getAttribute('cy')));
      return {
        tag: svg.tagName,
        ns: svg.namespaceURI,
        dots: q('.dot').length,
        drawn: q('.line.drawn').length,
        last: q('.line.drawn.last').map((l) => l.getAttribute('data-line')),
        boxes: q('.box').map((b) => [
          b.getAttribute('data-box'),
          b.getAttribute('data-owner'),
          b.querySelector('.initial')?.textContent ?? null,
        ]),
        best: q('.best-move').map((l) => [l.getAttribute('data-line'), l.getAttribute('stroke-dasharray')]),
        bestDash: q('.best-move').map((l) => getComputedStyle(l).strokeDasharray),
        chains: q('.component.chain').map((c) => [
          c.getAttribute('data-size'),
          c.querySelector('.component-label')?.textContent,
        ]),
        loops: q('.component.loop').map((c) => [
          c.getAttribute('data-size'),
          c.querySelector('.component-label')?.textContent,
        ]),
        outlineSegments: (q('.component.loop .component-outline')[0]?.getAttribute('d') ?? '').split('M').length - 1,
        bottom: [bottomLine.getAttribute('y1'), bottomLine.getAttribute('y2'), Math.max(...dotYs)],
        leftX: [leftLine.getAttribute('x1'), leftLine.getAttribute('x2')],
        caption: q('.caption text').map((t) => t.textContent),
        label: svg.getAttribute('aria-label'),
        bbox: (() => {
          const b = svg.getBBox();
          return [b.width > 100, b.height > 100];
        })(),
        coords: q('.coord')
          .map((t) => t.textContent)
          .join(''),
      };
    }, midGame());
    assert.equal(r.tag.toLowerCase(), 'svg');
    assert.equal(r.ns, 'http://www.w3.org/2000/svg');
    assert.equal(r.dots, 16, '4x4 dots on a 3x3 board');
    assert.equal(r.drawn, 11);
    assert.deepEqual(r.last, ['b2-c2']);
    assert.deepEqual(r.boxes, [
      ['a1', '0', 'A'],
      ['b1', '1', 'B'],
      ['c3', 'unknown', null],
    ]);
    assert.deepEqual(
      r.best.map((b) => b[0]),
      ['c1-d1', 'd1-d2'],
    );
    for (const b of r.best) assert.ok(b[1] && /\d/.test(b[1]), 'best moves are dashed');
    for (const d of r.bestDash) assert.notEqual(d, 'none');
    assert.deepEqual(r.chains, [['3', '3']]);
    assert.deepEqual(r.loops, [['4', '4l']]);
    assert.equal(r.outlineSegments, 8, 'a 2x2 loop has an outline of 8 unit edges');
    assert.equal(r.bottom[0], r.bottom[1]);
    assert.equal(Number(r.bottom[0]), r.bottom[2], 'row 1 is at the bottom');
    assert.equal(r.leftX[0], r.leftX[1], 'a1-a2 is vertical');
    assert.deepEqual(r.bbox, [true, true]);
    assert.equal(r.coords, 'abcd1234');
    assert.ok(r.caption.includes('Bob to move wins the rest by 2 (final 5-4)'));
    assert.ok(
      r.caption.some((c) => c?.includes('Alice 1 – 1 Bob') && c.includes('Bob to move') && c.includes('move 11/14')),
      JSON.stringify(r.caption),
    );
    assert.match(r.label!, /Bob to move/);
    assert.deepEqual(errors, []);
    await page.close();
  },
);

test(
  'browser: file text is shown as text and never runs (title, players, value text)',
  { skip: skip ? 'DAB_SKIP_BROWSER=1' : false },
  async () => {
    const { page, dialogs, errors } = await drawingPage();
    const evil = '<img src=x onerror=alert(1)>';
    const view: BoardView = {
      ...midGame(),
      entryTitle: evil,
      players: ['<script>alert(2)</script>', '"><svg onload=alert(3)>'],
      valueText: '<img src=y onerror=alert(4)> wins',
    };
    view.drawn[0] = { ...view.drawn[0], name: '<img src=z onerror=alert(5)>' };
    const r = await page.evaluate((v) => {
      const scriptsBefore = document.querySelectorAll('script').length;
      const svg = (window as any).DabBoard.renderBoard(v, document) as SVGSVGElement;
      document.getElementById('out')!.appendChild(svg);
      return {
        imgs: document.querySelectorAll('img').length,
        scripts:
          document.querySelectorAll('script').length -
          scriptsBefore +
          svg.querySelectorAll('svg, foreignObject').length,
        text: svg.textContent ?? '',
        initials: Array.from(svg.querySelectorAll('.initial')).map((t) => t.textContent),
      };
    }, view);
    await page.waitForTimeout(300);
    assert.equal(r.imgs, 0, 'no img element was created');
    assert.equal(r.scripts, 0, 'no script element was created');
    assert.ok(r.text.includes(evil), 'the title shows literally');
    assert.ok(r.text.includes('<img src=y onerror=alert(4)> wins'));
    assert.deepEqual(r.initials, ['<', '"']);
    assert.deepEqual(dialogs, [], 'no alert ran');
    assert.deepEqual(errors, []);
    await page.close();
  },
);

test(
  'browser: an abstract endgame draws each chain and loop with its length',
  { skip: skip ? 'DAB_SKIP_BROWSER=1' : false },
  async () => {
    const { page } = await drawingPage();
    const view: BoardView = {
      entryTitle: 'Allcock, example 1.2',
      entryKind: 'endgame',
      entryLine: 0,
      width: 0,
      height: 0,
      players: ['A', 'B'],
      drawn: [],
      boxes: [],
      components: [
        { kind: 'chain', size: 3, boxes: [] },
        { kind: 'chain', size: 3, boxes: [] },
        { kind: 'loop', size: 4, boxes: [] },
        { kind: 'loop', size: 8, boxes: [] },
      ],
      best: [],
      score: [0, 0],
      toMove: 0,
      valueText: 'the controller wins by 1',
      value: -1,
      ply: 0,
      plyCount: 0,
      moveRanges: [],
      graph: [],
    };
    const r = await page.evaluate((v) => {
      const svg = (window as any).DabBoard.renderBoard(v, document) as SVGSVGElement;
      document.body.appendChild(svg);
      return {
        comps: Array.from(svg.querySelectorAll('.component')).map((c) => [
          c.getAttribute('data-kind'),
          c.querySelector('.component-label')?.textContent,
          c.querySelectorAll('.component-box').length,
        ]),
        dots: svg.querySelectorAll('.dot').length,
        text: svg.textContent,
      };
    }, view);
    assert.deepEqual(r.comps, [
      ['chain', '3', 3],
      ['chain', '3', 3],
      ['loop', '4l', 4],
      ['loop', '8l', 8],
    ]);
    assert.equal(r.dots, 0);
    assert.match(r.text!, /the controller wins by 1/);
    await page.close();
  },
);

test(
  'browser: the value graph marks mistakes and unknown values, and a click selects the ply',
  { skip: skip ? 'DAB_SKIP_BROWSER=1' : false },
  async () => {
    const { page } = await drawingPage();
    const view = { ...midGame(), ply: 2 };
    await page.evaluate((v) => {
      (window as any).picked = [];
      const svg = (window as any).DabBoard.renderGraph(v, document, (p: number) => (window as any).picked.push(p));
      document.body.appendChild(svg);
    }, view);
    const r = await page.evaluate(() => ({
      points: document.querySelectorAll('.dab-graph .point').length,
      mistakes: Array.from(document.querySelectorAll('.dab-graph .point.mistake')).map((p) =>
        p.getAttribute('data-ply'),
      ),
      unknown: Array.from(document.querySelectorAll('.dab-graph .point.unknown')).map((p) =>
        p.getAttribute('data-ply'),
      ),
      current: Array.from(document.querySelectorAll('.dab-graph .point.current')).map((p) =>
        p.getAttribute('data-ply'),
      ),
      labels: Array.from(document.querySelectorAll('.dab-graph .point')).map((p) => p.getAttribute('aria-label')),
      pathMoves: (document.querySelector('.dab-graph .value-line')?.getAttribute('d') ?? '').split('M').length - 1,
    }));
    assert.equal(r.points, 5);
    assert.deepEqual(r.mistakes, ['2']);
    assert.deepEqual(r.unknown, ['3']);
    assert.deepEqual(r.current, ['2']);
    assert.equal(r.pathMoves, 2, 'the line breaks at the unknown value');
    assert.equal(r.labels[2], 'after move 2: Alice -1, mistake');
    await page.click('.dab-graph .point[data-ply="4"]', { force: true });
    await page.focus('.dab-graph .point.mistake');
    await page.keyboard.press('Enter');
    assert.deepEqual(await page.evaluate(() => (window as any).picked), [4, 2]);
    await page.close();
  },
);

/**
 * The real webview page (same HTML as the extension, strict CSP) with a stand-in webview API;
 * `saved` is what its getState returns at first (the state of an earlier page of the same panel).
 */
async function webviewPage(
  saved?: unknown,
): Promise<{ page: Page; dialogs: string[]; errors: string[]; csp: string[] }> {
  const u = (f: string) => pathToFileURL(join(media, f)).toString();
  const html = boardHtml({
    cspSource: 'file:',
    nonce: 'testnonce123',
    css: u('board.css'),
    boardJs: pathToFileURL(webviewJs).toString(),
  });
  const file = join(scratch, `board-${Math.random().toString(36).slice(2)}.html`);
  writeFileSync(file, html);
  const page = await newPage();
  const dialogs: string[] = [];
  const errors: string[] = [];
  const csp: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) csp.push(m.text());
  });
  await page.addInitScript((s) => {
    const w = window as any;
    w.__posted = [];
    w.__state = s;
    w.acquireVsCodeApi = () => ({
      postMessage: (m: unknown) => w.__posted.push(m),
      getState: () => w.__state,
      setState: (s: unknown) => {
        w.__state = s;
      },
    });
  }, saved);
  await page.goto(pathToFileURL(file).toString());
  await page.waitForFunction(() => (window as any).__posted.some((m: any) => m.type === 'ready'));
  return { page, dialogs, errors, csp };
}

test(
  'browser: the webview page draws a posted view, steps with buttons and arrow keys, exports SVG, keeps state',
  { skip: skip ? 'DAB_SKIP_BROWSER=1' : false },
  async () => {
    const { page, dialogs, errors, csp } = await webviewPage();
    const view = {
      ...midGame(),
      entryTitle: '<img src=x onerror=alert(1)>',
      lastMoveComment: '<img src=q onerror=alert(6)> a *quiet* move',
    };
    await page.evaluate(
      (v) =>
        window.postMessage({ type: 'view', view: v, uri: 'file:///x.dab', position: { line: 5, character: 2 } }, '*'),
      view,
    );
    await page.waitForSelector('#board svg .dot');
    const shown = await page.evaluate(() => ({
      title: document.getElementById('title')!.textContent,
      score: document.getElementById('score')!.textContent,
      mover: document.getElementById('mover')!.textContent,
      value: document.getElementById('value')!.textContent,
      comment: document.getElementById('comment')!.textContent,
      commentShown: getComputedStyle(document.getElementById('comment')!).display !== 'none',
      ply: document.getElementById('ply')!.textContent,
      navHidden: (document.getElementById('nav') as HTMLElement).hidden,
      graphPoints: document.querySelectorAll('#graph .point').length,
      imgs: document.querySelectorAll('img').length,
      state: (window as any).__state,
      dotFill: getComputedStyle(document.querySelector('#board .dot')!).fill,
      captions: document.querySelectorAll('#board .caption text').length,
    }));
    assert.equal(shown.title, '<img src=x onerror=alert(1)>');
    assert.equal(shown.score, 'Alice 1 – 1 Bob');
    assert.equal(shown.mover, 'Bob to move');
    assert.equal(shown.value, 'Bob to move wins the rest by 2 (final 5-4)');
    assert.equal(shown.ply, 'move 11 of 14');
    assert.equal(shown.comment, '<img src=q onerror=alert(6)> a *quiet* move', 'the comment shows as text');
    assert.equal(shown.commentShown, true);
    assert.equal(shown.navHidden, false);
    assert.equal(shown.graphPoints, 5);
    assert.equal(shown.imgs, 0);
    assert.equal(shown.captions, 0, 'the panel shows the facts above the board, not in a caption');
    assert.equal(shown.state.uri, 'file:///x.dab');
    assert.deepEqual(shown.state.position, { line: 5, character: 2 });
    assert.equal(shown.state.ply, 11);
    assert.ok(shown.dotFill && shown.dotFill !== 'none', 'the stylesheet loaded under the CSP');

    await page.click('#next');
    await page.click('#first');
    await page.focus('#board');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('End');
    await page.click('#graph .point[data-ply="2"]', { force: true });
    const posted = await page.evaluate(() =>
      (window as any).__posted.filter((m: any) => m.type === 'gotoPly').map((m: any) => m.ply),
    );
    assert.deepEqual(posted, [12, 0, 10, 14, 2]);

    await page.evaluate(() => window.postMessage({ type: 'exportSvg' }, '*'));
    await page.waitForFunction(() => (window as any).__posted.some((m: any) => m.type === 'svg'));
    const svg: string = await page.evaluate(() => (window as any).__posted.find((m: any) => m.type === 'svg').svg);
    assert.match(svg, /^<svg[^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    assert.ok(svg.includes('&lt;img src=x onerror=alert(1)&gt;'), 'the title is escaped in the exported SVG');
    assert.ok(!svg.includes('<img'), 'no raw img in the export');
    assert.ok(!/class=/.test(svg), 'the export carries colours, not classes');
    assert.ok(/stroke-dasharray="[^"n]*\d/.test(svg), 'dashed best moves survive the export');

    // a move without a comment hides the box
    await page.evaluate(
      (v) =>
        window.postMessage({ type: 'view', view: v, uri: 'file:///x.dab', position: { line: 5, character: 8 } }, '*'),
      { ...view, lastMoveComment: undefined, ply: 12 },
    );
    await page.waitForFunction(() => (document.getElementById('comment') as HTMLElement).hidden);
    assert.equal(await page.evaluate(() => getComputedStyle(document.getElementById('comment')!).display), 'none');

    await page.evaluate(() => window.postMessage({ type: 'empty', message: 'Place the cursor in an entry' }, '*'));
    await page.waitForFunction(() => document.body.classList.contains('is-empty'));
    assert.equal(await page.textContent('#empty'), 'Place the cursor in an entry');
    assert.equal(await page.locator('#board svg').count(), 0);

    assert.deepEqual(dialogs, []);
    assert.deepEqual(errors, []);
    assert.deepEqual(csp, [], 'nothing was blocked by the CSP');
    await page.close();
  },
);

test(
  'browser: a reloaded webview redraws from its saved state before the extension answers',
  { skip: skip ? 'DAB_SKIP_BROWSER=1' : false },
  async () => {
    const u = (f: string) => pathToFileURL(join(media, f)).toString();
    const html = boardHtml({
      cspSource: 'file:',
      nonce: 'n0nce',
      css: u('board.css'),
      boardJs: pathToFileURL(webviewJs).toString(),
    });
    const file = join(scratch, 'reload.html');
    writeFileSync(file, html);
    const page = await newPage();
    await page.addInitScript(
      (saved) => {
        (window as any).acquireVsCodeApi = () => ({
          postMessage: () => undefined,
          getState: () => saved,
          setState: () => undefined,
        });
      },
      { uri: 'file:///x.dab', position: { line: 1, character: 0 }, ply: 11, view: midGame() },
    );
    await page.goto(pathToFileURL(file).toString());
    await page.waitForSelector('#board svg');
    assert.equal(await page.locator('#board .line.drawn').count(), 11);
    assert.equal(await page.textContent('#title'), 'Mid game');
    await page.close();
  },
);

test(
  'browser: an inline script is refused by the webview CSP',
  { skip: skip ? 'DAB_SKIP_BROWSER=1' : false },
  async () => {
    const u = (f: string) => pathToFileURL(join(media, f)).toString();
    const html = boardHtml({
      cspSource: 'file:',
      nonce: 'abc',
      css: u('board.css'),
      boardJs: pathToFileURL(webviewJs).toString(),
    }).replace(
      '</body>',
      '<script>window.__inline = 1</script><script nonce="wrong" src="data:text/javascript,window.__data=1"></script></body>',
    );
    const file = join(scratch, 'csp.html');
    writeFileSync(file, html);
    const page = await newPage();
    await page.addInitScript(() => {
      (window as any).acquireVsCodeApi = () => ({
        postMessage: () => undefined,
        getState: () => undefined,
        setState: () => undefined,
      });
    });
    await page.goto(pathToFileURL(file).toString());
    await page.waitForSelector('#empty:not(:empty)');
    assert.deepEqual(await page.evaluate(() => [(window as any).__inline, (window as any).__data]), [
      undefined,
      undefined,
    ]);
    await page.close();
  },
);

test(
  'browser: the value graph draws proven bounds as a band and exact values as points, never unknowns on the zero line',
  { skip: skip ? 'DAB_SKIP_BROWSER=1' : false },
  async () => {
    const { page } = await drawingPage();
    const view: BoardView = {
      ...midGame(),
      ply: 0,
      graph: [
        { ply: 0, valueForFirst: null, lowerForFirst: -3, upperForFirst: 5, mistake: false },
        { ply: 1, valueForFirst: null, lowerForFirst: 1, upperForFirst: 5, mistake: false },
        { ply: 2, valueForFirst: 3, lowerForFirst: 3, upperForFirst: 3, mistake: false },
        { ply: 3, valueForFirst: null, lowerForFirst: null, upperForFirst: null, mistake: false },
        { ply: 4, valueForFirst: 1, lowerForFirst: 1, upperForFirst: 1, mistake: true },
      ],
    };
    const r = await page.evaluate((v) => {
      const svg = (window as any).DabBoard.renderGraph(v, document) as SVGSVGElement;
      document.body.appendChild(svg);
      const zeroY = Number(svg.querySelector('.axis.zero')!.getAttribute('y1'));
      const pointAt = (ply: number) => svg.querySelector(`.point[data-ply="${ply}"]`)!;
      const span = (e: Element) => {
        const b = (e as SVGGraphicsElement).getBBox();
        return [b.y, b.y + b.height];
      };
      return {
        zeroY,
        bands: svg.querySelectorAll('.bounds-band').length,
        bandBox: span(svg.querySelector('.bounds-band')!),
        circles: Array.from(svg.querySelectorAll('circle.point')).map((c) => c.getAttribute('data-ply')),
        bar1: span(pointAt(1)),
        label0: pointAt(0).getAttribute('aria-label'),
        label3: pointAt(3).getAttribute('aria-label'),
      };
    }, view);
    assert.equal(r.bands, 1, 'one band over plies 0-2 (ply 3 proves nothing, ply 4 is exact)');
    assert.deepEqual(r.circles, ['2', '4'], 'points only where the value is exact');
    assert.ok(
      r.bar1[1] < r.zeroY,
      `the ply-1 bar (Alice +1..+5) lies wholly above the zero line: ${r.bar1} vs ${r.zeroY}`,
    );
    assert.ok(r.bandBox[0] < r.zeroY && r.bandBox[1] > r.zeroY, 'the band over -3..+5 crosses zero');
    assert.equal(r.label0, 'start: value unknown, Alice between −3 and +5');
    assert.equal(r.label3, 'after move 3: value unknown');
    await page.close();
  },
);

/** midGame() with every undrawn line, its loss and words, solved, and a best line. */
function playable(): BoardView {
  const v = midGame();
  const drawn = new Set(v.drawn.map((l) => l.name));
  const all: ReturnType<typeof L>[] = [];
  for (let y = 0; y <= 3; y++) for (let x = 0; x < 3; x++) all.push(L([x, y], [x + 1, y]));
  for (let y = 0; y < 3; y++) for (let x = 0; x <= 3; x++) all.push(L([x, y], [x, y + 1]));
  const undrawn = all.filter((l) => !drawn.has(l.name));
  const losses = [0, 2, 4, 6, 8, 10, 14, 0, 2, 4, 6, 12, 0]; // counted net: always even
  return {
    ...v,
    solved: true,
    moves: undrawn.map((line, i) => {
      const loss = losses[i % losses.length];
      return {
        line,
        loss,
        text: `${line.name}: ${loss === 0 ? 'a best move' : `throws away ${loss} box${loss === 1 ? '' : 'es'}`} — Bob wins the rest by 2`,
      };
    }),
    pv: [L([2, 0], [3, 0]), L([3, 0], [3, 1])],
  };
}

test(
  'browser: every undrawn line is a focusable button named by its line; click and Enter play it; hover says what it means; heat colours match the losses',
  { skip: skip ? 'DAB_SKIP_BROWSER=1' : false },
  async () => {
    const { page, errors, csp } = await webviewPage();
    const view = playable();
    await page.evaluate(
      (v) =>
        window.postMessage({ type: 'view', view: v, uri: 'file:///x.dab', position: { line: 3, character: 9 } }, '*'),
      view,
    );
    await page.waitForSelector('#board svg .move', { state: 'attached' });
    const lines = await page.evaluate(() =>
      Array.from(document.querySelectorAll('#board .move')).map((m) => ({
        name: m.getAttribute('data-line'),
        label: m.getAttribute('aria-label'),
        role: m.getAttribute('role'),
        tabindex: m.getAttribute('tabindex'),
        heat: m.getAttribute('class'),
        stroke: getComputedStyle(m.querySelector('.move-line')!).stroke,
        dash: getComputedStyle(m.querySelector('.move-line')!).strokeDasharray,
      })),
    );
    assert.equal(lines.length, view.moves!.length, 'every undrawn line is drawn');
    const bands = [
      [0, 0, 'heat-0', 'rgb(13, 148, 136)'],
      [1, 2, 'heat-2', 'rgb(202, 138, 4)'],
      [3, 4, 'heat-4', 'rgb(234, 88, 12)'],
      [5, 8, 'heat-6', 'rgb(220, 38, 38)'],
      [9, 99, 'heat-10', 'rgb(192, 38, 211)'],
    ] as const;
    const dashes = new Set<string>();
    for (const l of lines) {
      assert.equal(l.role, 'button');
      assert.equal(l.tabindex, '0');
      assert.ok(l.label!.includes(l.name!), `aria-label "${l.label}" names ${l.name}`);
      // The loss the hover reports, read back from the words, decides the colour.
      const m = /throws away (\d+) box/.exec(l.label!);
      const loss = m ? Number(m[1]) : /a best move/.test(l.label!) ? 0 : NaN;
      const band = bands.find(([lo, hi]) => loss >= lo && loss <= hi)!;
      assert.ok(band, `${l.label}: a band`);
      assert.ok(l.heat!.split(' ').includes(band[2]), `${l.name}: ${l.heat} for a loss of ${loss}`);
      assert.equal(l.stroke, band[3], `${l.name}: colour of ${band[2]}`);
      dashes.add(`${band[2]}:${l.dash}`);
    }
    assert.equal(new Set([...dashes].map((d) => d.split(':')[1])).size, 5, 'five bands, five dash patterns');
    assert.equal(await page.locator('#legend .legend-item').count(), 5, 'a legend with the five bands');
    assert.equal(await page.locator('#legend').isVisible(), true);

    // Hover shows the words; click and Enter post the line to play.
    const target = lines[3];
    await page.hover(`#board .move[data-line="${target.name}"]`, { force: true });
    await page.waitForFunction((t) => document.getElementById('line-info')!.textContent === t, target.label);
    await page.click(`#board .move[data-line="${target.name}"]`, { force: true });
    await page.focus(`#board .move[data-line="${lines[5].name}"]`);
    await page.keyboard.press('Enter');
    assert.equal(await page.textContent('#line-info'), lines[5].label, 'focus shows the words too');
    await page.click('#playout');
    const posted = await page.evaluate(() =>
      (window as any).__posted.filter((m: any) => m.type === 'play' || m.type === 'playOut'),
    );
    assert.deepEqual(posted, [
      { type: 'playOut', on: false },
      { type: 'play', line: target.name },
      { type: 'play', line: lines[5].name },
      { type: 'playOut', on: true },
    ]);

    // The best line: shown, and stepped through on the board (no heat colours meanwhile).
    assert.deepEqual(await page.locator('#pv li').allTextContents(), ['c1-d1', 'd1-d2']);
    await page.click('#pv-next');
    assert.deepEqual(
      await page.locator('#board .pv-move').evaluateAll((e) => e.map((x) => x.getAttribute('data-line'))),
      ['c1-d1'],
    );
    await page.click('#pv-next');
    assert.equal(await page.locator('#board .pv-move').count(), 2);
    assert.equal(await page.locator('#pv li.current').textContent(), 'd1-d2');
    assert.equal(await page.locator('#board .move.heat-none').count(), lines.length, 'stale colours are hidden');
    await page.click('#pv-prev');
    await page.click('#pv-prev');
    assert.equal(await page.locator('#board .pv-move').count(), 0);
    assert.deepEqual(errors, []);
    assert.deepEqual(csp, []);
    await page.close();
  },
);

// Found by an audit in a real VS Code: after a tab switch the page was rebuilt with the box
// unticked while the extension still had the engine answer every click.
test(
  'browser: "Play it out" stays ticked when the page is rebuilt, and every load tells the extension what the box shows',
  { skip: skip ? 'DAB_SKIP_BROWSER=1' : false },
  async () => {
    const postView = (page: Page) =>
      page.evaluate(
        (v) =>
          window.postMessage({ type: 'view', view: v, uri: 'file:///x.dab', position: { line: 3, character: 9 } }, '*'),
        playable(),
      );
    const loadMessages = (page: Page) =>
      page.evaluate(() => (window as any).__posted.filter((m: any) => m.type === 'playOut' || m.type === 'ready'));

    const first = await webviewPage();
    assert.deepEqual(await loadMessages(first.page), [{ type: 'playOut', on: false }, { type: 'ready' }]);
    await postView(first.page);
    await first.page.waitForSelector('#board svg .move', { state: 'attached' });
    await first.page.click('#playout');
    // A view that comes later (the cursor moved, a proof landed) keeps the box in the saved state.
    await postView(first.page);
    await first.page.waitForFunction(
      () => (window as any).__posted.filter((m: any) => m.type === 'playOut').length === 2,
    );
    const saved = await first.page.evaluate(() => (window as any).__state);
    assert.equal(saved.playOut, true);
    await first.page.close();

    // The tab shown again: a new page with the saved state, ticked, says so before 'ready'.
    const again = await webviewPage(saved);
    assert.equal(await again.page.isChecked('#playout'), true, 'the box shows the mode the extension acts on');
    assert.deepEqual(await loadMessages(again.page), [{ type: 'playOut', on: true }, { type: 'ready' }]);
    await again.page.click('#playout');
    assert.equal(await again.page.evaluate(() => (window as any).__state.playOut), false);
    assert.deepEqual(again.errors, []);
    await again.page.close();
  },
);

// Found by an audit in a real VS Code: an 80-character name with no space made the panel 833 px wide in a 626 px view.
test(
  'browser: an 80-character title and names without spaces wrap inside the panel',
  { skip: skip ? 'DAB_SKIP_BROWSER=1' : false },
  async () => {
    const { page, errors } = await webviewPage();
    await page.setViewportSize({ width: 626, height: 900 });
    const long = (c: string) => c.repeat(80);
    const view = { ...playable(), entryTitle: long('T'), players: [long('A'), long('B')] as [string, string] };
    await page.evaluate(
      (v) =>
        window.postMessage({ type: 'view', view: v, uri: 'file:///x.dab', position: { line: 3, character: 9 } }, '*'),
      view,
    );
    await page.waitForSelector('#board svg .move', { state: 'attached' });
    const r = await page.evaluate(() => {
      const d = document.documentElement;
      // SVG content is clipped to its <svg>: the page's boxes and the <svg>s themselves count.
      const wide = Array.from(document.querySelectorAll('main *'))
        .filter((e) => !e.parentElement?.closest('svg'))
        .filter((e) => e.getBoundingClientRect().right > d.clientWidth + 0.5)
        .map((e) => e.id || e.tagName);
      return {
        scroll: d.scrollWidth,
        client: d.clientWidth,
        wide,
        title: document.getElementById('title')!.textContent,
      };
    });
    assert.equal(r.title, long('T'));
    assert.ok(r.scroll <= r.client, `the page is ${r.scroll} px wide in a ${r.client} px view: ${r.wide.join(', ')}`);
    assert.deepEqual(r.wide, [], 'nothing runs off the right edge');
    assert.deepEqual(errors, []);
    await page.close();
  },
);

test(
  'browser: hostile line names and words stay text on the playable board',
  { skip: skip ? 'DAB_SKIP_BROWSER=1' : false },
  async () => {
    const { page, dialogs, errors } = await webviewPage();
    const view = playable();
    view.moves![0] = { ...view.moves![0], line: { ...view.moves![0].line, name: '<img src=x onerror=alert(1)>' } };
    view.moves![1] = { ...view.moves![1], text: '"><svg onload=alert(2)>' };
    view.pv = [{ ...view.pv![0], name: '<script>alert(3)</script>' }];
    await page.evaluate(
      (v) =>
        window.postMessage({ type: 'view', view: v, uri: 'file:///x.dab', position: { line: 0, character: 0 } }, '*'),
      view,
    );
    await page.waitForSelector('#board svg .move', { state: 'attached' });
    await page.click('#pv-next');
    await page.waitForTimeout(200);
    const r = await page.evaluate(() => ({
      imgs: document.querySelectorAll('img').length,
      svgs: document.querySelectorAll('#board svg svg, #board foreignObject').length,
      scripts: document.querySelectorAll('script:not([nonce])').length,
      label: document.querySelectorAll('#board .move')[1].getAttribute('aria-label'),
      pv: document.querySelector('#pv li')!.textContent,
    }));
    assert.deepEqual([r.imgs, r.svgs, r.scripts], [0, 0, 0]);
    assert.equal(r.label, '"><svg onload=alert(2)>');
    assert.equal(r.pv, '<script>alert(3)</script>');
    assert.deepEqual(dialogs, []);
    assert.deepEqual(errors, []);
    await page.close();
  },
);

test(
  'browser: the string back end (Markdown, dab render) and the DOM back end draw the same elements',
  { skip: skip ? 'DAB_SKIP_BROWSER=1' : false },
  async () => {
    const { page, errors } = await drawingPage();
    const view = { ...playable(), entryTitle: 'a < b & "c"' };
    const r = await page.evaluate((v) => {
      const D = (window as any).DabBoard;
      const shape = (e: Element): string[] => {
        const attrs = Array.from(e.attributes)
          .map((a) => `${a.name}=${a.value}`)
          .filter((a) => !/^(tabindex|role=button|xmlns)/.test(a))
          .sort()
          .join(' ');
        return [`${e.tagName.toLowerCase()} ${attrs} ${e.childElementCount ? '' : (e.textContent ?? '')}`].concat(
          ...Array.from(e.children).map(shape),
        );
      };
      const dom = D.renderBoard(v, document) as SVGSVGElement;
      const text = D.toSvgString(D.boardTree(v, {}));
      const parsed = new DOMParser().parseFromString(text, 'image/svg+xml').documentElement;
      const picture = new DOMParser().parseFromString(D.pictureSvg(v), 'image/svg+xml');
      return {
        dom: shape(dom),
        str: shape(parsed),
        parseError: picture.getElementsByTagName('parsererror').length,
        pictureDots: picture.querySelectorAll('.dot').length,
      };
    }, view);
    assert.ok(r.dom.length > 50);
    assert.deepEqual(r.str, r.dom, 'same elements, attributes and text');
    assert.equal(r.parseError, 0, 'the picture is well-formed XML');
    assert.equal(r.pictureDots, 16);
    assert.deepEqual(errors, []);
    await page.close();
  },
);
