import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { lcg } from '../support/random';
import { analyzeText } from '../../server/src/engine/analysis/analyzeDocument';
import { createSearchCache } from '../../server/src/cli/search';
import { toJson } from '../../server/src/cli/json';
import { NIM_BUDGET_CLI } from '../../server/src/engine/limits';
import { hover } from '../../server/src/features/hover';
import { codeLenses } from '../../server/src/features/codeLens';
import { inlayHints } from '../../server/src/features/inlayHints';
import { showPosition } from '../../server/src/features/showPosition';
import { documentSymbols, foldingRanges } from '../../server/src/features/symbols';
import { boardView } from '../../server/src/features/boardViewRequest';
import { codeActions } from '../../server/src/features/codeActions';
import { defaultSettings } from '../../server/src/settings';
/**
 * Fuzzing the analysis and every server feature with mutated example files (deleted runs, inserted
 * tokens, swapped lines): nothing may throw. Longer runs found real crashes before; keep it cheap here.
 */
test('mutated examples: analysis, JSON and every feature answer without throwing', () => {
  const files = readdirSync('examples').map((f) => readFileSync('examples/' + f, 'utf8'));
  const rand = lcg(31337);
  const search = createSearchCache({ timeBudgetMs: 50 });
  const pieces = [
    'a0',
    'b1-b2',
    '3',
    '4l',
    ':keep',
    ':all',
    '{',
    '}',
    '"',
    '\n',
    '  ',
    'x',
    '+',
    '|',
    '---',
    '9',
    '12',
    '^',
    '(',
    ')',
    'game',
    'size',
    'moves',
    'diagram\n',
    '+---+',
    '  value -1',
    '\r\n',
    ';b[haa]',
    '!!',
    '#',
  ];
  let n = 0;
  for (let k = 0; k < 600; k++) {
    let t = files[Math.floor(rand() * files.length)];
    const edits = 1 + Math.floor(rand() * 8);
    for (let e = 0; e < edits; e++) {
      const at = Math.floor(rand() * t.length);
      const r = rand();
      if (r < 0.4) t = t.slice(0, at) + t.slice(at + 1 + Math.floor(rand() * 20));
      else if (r < 0.8) t = t.slice(0, at) + pieces[Math.floor(rand() * pieces.length)] + t.slice(at);
      else {
        const lines = t.split('\n');
        const i = Math.floor(rand() * lines.length),
          j = Math.floor(rand() * lines.length);
        [lines[i], lines[j]] = [lines[j], lines[i]];
        t = lines.join('\n');
      }
    }
    {
      const rep = analyzeText(t, { search: search.lookup, nim: search.nim });
      JSON.stringify(toJson(rep, 'x'));
      const lines = t.split('\n');
      for (let q = 0; q < 5; q++) {
        const line = Math.floor(rand() * lines.length),
          character = Math.floor(rand() * ((lines[line]?.length ?? 0) + 2));
        hover(rep, { line, character });
        const shown = showPosition(rep, { line, character });
        if (shown !== null) assert.ok(shown.length > 0);
        boardView(rep, { uri: 'u', position: { line, character } });
        codeActions(
          rep,
          {
            textDocument: { uri: 'u' },
            range: { start: { line, character }, end: { line, character } },
            context: { diagnostics: [] },
          } as any,
          () => undefined,
        );
      }
      codeLenses(rep, 'u', 'dab.showPosition');
      inlayHints(
        rep,
        { start: { line: 0, character: 0 }, end: { line: 9999, character: 0 } },
        { ...defaultSettings, inlayHints: { enabled: true, afterEachMove: true } },
      );
      documentSymbols(rep);
      foldingRanges(rep);
      n++;
    }
  }
  assert.equal(n, 600);
  console.log(`${n} mutated example files analysed; every feature answered without throwing`);
});

test('entries left out by the editor bound (maxWork): every feature answers, and says why', async () => {
  const { plausibleRecord } = await import('../support/boards');
  const { documentSymbols, foldingRanges } = await import('../../server/src/features/symbols');
  const records = [1, 2, 3, 4].map((seed) => plausibleRecord(3, 3, 24, lcg(seed), `r${seed}`));
  const text = records.join('\n') + '\nendgame "e"\n  components 3 + 4l + 8l\n';
  const rep = analyzeText(text, { maxWork: 30 });
  // 25 positions of work per record: the first fits, the second would pass the bound, so it and
  // every entry after it (the endgame too) are left out, their moves not even replayed
  assert.deepEqual(
    rep.entries.map((e) => e.model.leftOut === true),
    [false, true, true, true, true],
  );
  assert.ok(rep.doc.models.slice(1).every((m) => m.leftOut && m.states.length <= 1 && m.diagnostics.length === 0));
  const warn = rep.diagnostics.filter((d) => d.code === 'not-analysed-here');
  assert.equal(warn.length, 1);
  assert.equal(warn[0].range.line, rep.entries[1].line);
  assert.match(warn[0].message, /This entry and the 3 entries after it are not analysed in the editor/);
  // more entries than the bound's positions: those past it are not even read, and the warning says so
  const headers = analyzeText('game\n'.repeat(50), { maxWork: 20 });
  assert.equal(headers.entries.length, 20);
  assert.deepEqual(headers.doc.unreadFrom, { line: 20, character: 0, endLine: 20, endCharacter: 4 });
  const unread = headers.diagnostics.filter((d) => d.code === 'not-analysed-here');
  assert.equal(unread.length, 1);
  assert.equal(unread[0].range.line, 20);
  assert.match(unread[0].message, /This entry and every entry after it are not analysed in the editor/);
  const lines = text.split('\n');
  for (let line = 0; line < lines.length; line++) {
    const h = hover(rep, { line, character: 2 });
    const e = rep.entries.find(
      (x) => x.line <= line && (rep.entries.find((y) => y.line > x.line)?.line ?? Infinity) > line,
    );
    if (h && e?.model.leftOut) assert.match((h.contents as { value: string }).value, /not analysed in the editor/i);
    boardView(rep, { uri: 'u', position: { line, character: 2 } });
    showPosition(rep, { line, character: 2 });
  }
  const lenses = codeLenses(rep, 'u', 'dab.showPosition');
  assert.ok(lenses.some((l) => /not analysed in the editor/i.test(l.command!.title)));
  inlayHints(
    rep,
    { start: { line: 0, character: 0 }, end: { line: lines.length, character: 0 } },
    { ...defaultSettings, inlayHints: { enabled: true, afterEachMove: true } },
  );
  assert.equal(documentSymbols(rep).length, 5);
  foldingRanges(rep);
  // without the bound everything is analysed
  assert.ok(analyzeText(text).entries.every((e) => !e.model.leftOut && e.positions.length > 0));
});

test('a move hint stands after the move and its glyph, not between them (found by an audit)', () => {
  const text = 'game\n  size 2x2\n  moves a1-b1 b1-c1? a3-b3 !\n';
  const hints = inlayHints(
    analyzeText(text),
    { start: { line: 0, character: 0 }, end: { line: 4, character: 0 } },
    { ...defaultSettings, inlayHints: { enabled: true, afterEachMove: true } },
  );
  const at = hints.map((h) => h.position.character);
  const line = text.split('\n')[2];
  assert.ok(at.includes(line.indexOf('?') + 1), `after '?': ${JSON.stringify(at)}`);
  assert.ok(at.includes(line.indexOf('!') + 1), `after the spaced '!': ${JSON.stringify(at)}`);
  assert.ok(!at.includes(line.indexOf('?')), 'never between the move and its glyph');
});

// Found by an audit with Neovim: `**endgame "x": **` (nothing after the colon) is not bold Markdown.
test('hover: an endgame whose components cannot be read has a heading without a dangling colon', () => {
  for (const text of ['endgame "Ça 🎲"\n  components 3 + zz\n', 'endgame "x"\n  components\n']) {
    const report = analyzeText(text);
    const h = hover(report, { line: 0, character: 3 });
    const value = (h?.contents as { value: string } | undefined)?.value ?? '';
    const heading = value.split('\n')[0];
    assert.match(heading, /^\*\*endgame .*\*\*/, value);
    assert.doesNotMatch(heading, /: \*\*/, heading);
  }
});

// Found by an audit: dab analyze ran out of memory on a 7.5 MB file (1.1 million positions), and an
// endgame too large for the editor on its own was told to "split the file".
test('work bounds: the command line reads a bounded number of positions per file; an entry larger alone is told so', async () => {
  const { readDab } = await import('../../server/src/engine/notation');
  const { analyzeDocument } = await import('../../server/src/engine/analysis/analyzeDocument');
  const { proveDocument } = await import('../../server/src/cli/search');
  const { formatText } = await import('../../server/src/cli/text');
  const { plausibleRecord } = await import('../support/boards');
  const text = [1, 2, 3].map((seed) => plausibleRecord(3, 3, 24, lcg(seed), `r${seed}`)).join('\n');
  const doc = readDab(text, { maxWork: 30, boundBy: 'cli' });
  const rep = analyzeDocument(doc, {});
  const warn = rep.diagnostics.filter((d) => d.code === 'not-analysed-here');
  assert.equal(warn.length, 1);
  assert.match(
    warn[0].message,
    /^This entry and the 1 entry after it are not analysed by dab: it reads at most 30 positions per file .*Split the file\.$/,
  );
  assert.match(formatText(rep, 'x.dab'), /not analysed: the file holds more than dab reads/);
  // the entries left out are not searched either
  const searched: number[] = [];
  const cache = {
    lookup: () => {
      throw new Error('not asked');
    },
    nim: () => {
      throw new Error('not asked');
    },
    prove: (s: { drawnCount: number }) => {
      searched.push(s.drawnCount);
      return { status: 'unknown', method: 'search', value: null, lower: -9, upper: 9, best: [] } as never;
    },
    completeMoves: () => undefined,
    nimView: () => undefined,
  };
  const proofs = proveDocument(cache as never, doc, { positionBudgetMs: 1, recordBudgetMs: 5 });
  assert.deepEqual(
    proofs.map((p) => p.entry),
    [0],
    'only the entry read is proven',
  );
  // one entry over the bound by itself: splitting the file cannot help, and the message says so
  const eg = `endgame "big"\n  components ${Array(60).fill('3').join(' ')}\n`;
  for (const [by, advice] of [
    ['editor', /This entry alone is larger: run dab analyze on it\.$/],
    ['cli', /This entry alone is larger than that: write it as smaller entries\.$/],
  ] as const) {
    const one = analyzeDocument(readDab(eg, { maxWork: 50, boundBy: by }), {});
    const w = one.diagnostics.find((d) => d.code === 'not-analysed-here');
    assert.match(w?.message ?? '', advice, by);
    assert.match(w?.message ?? '', /an endgame entry about 30 and one per component/);
  }
});

// Found by an audit: with the record's or the run's budget spent, each position still computed a
// Nimstring view "within 0 ms", which on 12x12 boards took a run with --total-budget-ms 1 to a minute.
// Given no time, a position gets the long chain facts alone (a count, no search); a loaded machine
// that spends a record's budget early must still leave its unknown positions that much (a fresh run
// left none, found by CI).
test('the CLI makes no Nimstring search for a position given no time for it: the long chain facts alone', async () => {
  const { BoardState } = await import('../../server/src/engine/board/state');
  const { geometryOf } = await import('../../server/src/engine/board/geometry');
  const { longChainRuleOf } = await import('../../server/src/engine/nimstring');
  for (const [w, h, drawn] of [
    [6, 6, 30],
    [12, 12, 120],
  ] as const) {
    const g = geometryOf(w, h);
    const r = lcg(7);
    const state = new BoardState(g);
    for (let i = 0; i < drawn; i++) {
      const undrawn = state.undrawnLines();
      state.play(undrawn[Math.floor(r() * undrawn.length)]);
    }
    const cache = createSearchCache({ timeBudgetMs: 1, threads: 1 });
    const t0 = performance.now();
    cache.prove(state.clone(), { ms: 0 });
    const facts = cache.nimView(state.clone(), NIM_BUDGET_CLI, 0);
    const ms = performance.now() - t0;
    assert.ok(facts, `${w}x${h}: no time: the facts still`);
    assert.equal(facts.nimber, 'unknown', 'no time: no nim-value');
    assert.equal(facts.regions.length, 0, 'no time: no region searched');
    assert.equal(facts.moverWinsChainFight, undefined, 'no time: the chain fight not decided');
    assert.equal(facts.winningMoves, undefined, 'no time: no winning move');
    const rule = longChainRuleOf(state);
    assert.deepEqual(
      [facts.longChains, facts.loops, facts.wantsLongChains, facts.currentFavoursPlayerToMove],
      [rule.currentLongChains, rule.currentLoops, rule.wantsLongChains, rule.currentFavoursPlayerToMove],
    );
    assert.ok(ms < 1000, `${w}x${h}: ${ms.toFixed(0)} ms for a position given no time`);
    const fresh = createSearchCache({ timeBudgetMs: 1, threads: 1 });
    fresh.prove(state.clone(), { ms: 0 });
    const some = fresh.nimView(state.clone(), NIM_BUDGET_CLI, 200);
    assert.ok(some !== undefined && some.regions.length > 0, 'with time: a searched view (known or not)');
  }
});
