/**
 * Variations `( … )`: parsed with exact ranges and recovery, replayed from the position before the
 * move they replace, and reviewed like the main line. Random records with random nested variations
 * are checked position by position and move by move against plain exhaustive minimax.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { geometryOf, type BoardGeometry } from '../../server/src/engine/board/geometry';
import { BoardState } from '../../server/src/engine/board/state';
import { bruteForce } from '../../server/src/engine/solver';
import { analyzeText } from '../../server/src/engine/analysis/analyzeDocument';
import type { LineReport } from '../../server/src/engine/analysis/report';
import { createSearchCache } from '../../server/src/cli/search';
import { toJson } from '../../server/src/cli/json';
import { formatText } from '../../server/src/cli/text';
import { parseDab, readDab, type MoveToken, type Range } from '../../server/src/engine/notation';
import { lcg } from '../support/random';

const R = (line: number, character: number, endLine: number, endCharacter: number): Range => ({
  line,
  character,
  endLine,
  endCharacter,
});

/** The text under a range of a one-line source. */
function at(text: string, r: Range): string {
  const lines = text.split('\n');
  assert.equal(r.line, r.endLine);
  return lines[r.line].slice(r.character, r.endCharacter);
}

test('variations nest under the move they replace, with exact ranges, glyphs and comments', () => {
  const src =
    'game\nsize 2x2\nmoves 1. a1-b1?? {bad} (1. a1-a2! {good} b1-b2 (b2-c2 {deep} c2-c3) c1-c2) b1-c1 ( a2-b2 )';
  const r = parseDab(src);
  assert.deepEqual(r.diagnostics, []);
  const main = r.entries[0].moves!.moves;
  assert.deepEqual(
    main.map((m) => m.text),
    ['a1-b1', 'b1-c1'],
  );
  const [v1] = main[0].variations;
  assert.equal(at(src, v1.range), '(1. a1-a2! {good} b1-b2 (b2-c2 {deep} c2-c3) c1-c2)');
  assert.equal(at(src, v1.openRange), '(');
  assert.equal(at(src, v1.closeRange!), ')');
  assert.equal(v1.depth, 1);
  assert.deepEqual(
    v1.moves.map((m) => [m.text, m.glyph, m.comment, m.number]),
    [
      ['a1-a2', '!', 'good', 1],
      ['b1-b2', null, null, null],
      ['c1-c2', null, null, null],
    ],
  );
  assert.equal(at(src, v1.moves[0].range), 'a1-a2');
  assert.equal(at(src, v1.moves[0].glyphRange!), '!');
  const [v2] = v1.moves[1].variations;
  assert.equal(v2.depth, 2);
  assert.equal(at(src, v2.range), '(b2-c2 {deep} c2-c3)');
  assert.deepEqual(
    v2.moves.map((m) => [m.text, m.comment]),
    [
      ['b2-c2', 'deep'],
      ['c2-c3', null],
    ],
  );
  // The main line's own glyph and comment stay on the main line's move.
  assert.equal(main[0].glyph, '??');
  assert.equal(main[0].comment, 'bad');
  assert.equal(at(src, main[1].variations[0].range), '( a2-b2 )');
  // Variations span lines.
  const multi = parseDab('game\nsize 2x2\nmoves a1-b1 (a1-a2\n  {two lines}\n  b1-b2) b1-c1');
  assert.deepEqual(multi.diagnostics, []);
  assert.deepEqual(multi.entries[0].moves!.moves[0].variations[0].range, R(2, 12, 4, 8));
});

test('a variation starts from the position before the move it replaces and is replayed like the main line', () => {
  const doc = readDab('game\nsize 2x2\nmoves a1-b1 b1-c1 (a1-b1 a1-a2) a1-a2 (b2-c2 (c1-c2) b1-b2)');
  assert.deepEqual(
    doc.diagnostics.map((d) => [d.code, d.range.line, d.range.character]),
    [['drawn-twice', 2, 19]],
    'a1-b1 is already drawn before the move the variation replaces',
  );
  const m = doc.models[0];
  const v = m.moves[1].variations[0];
  assert.equal(v.startPly, 1);
  assert.deepEqual(v.states[0].drawn, m.states[1].drawn);
  assert.deepEqual(
    v.moves.map((x) => [x.name, x.legal, x.ply]),
    [
      ['a1-b1', false, null],
      ['a1-a2', true, 2],
    ],
  );
  const v2 = m.moves[2].variations[0];
  assert.equal(v2.startPly, 2);
  assert.deepEqual(
    v2.plies.map((x) => [x.name, x.ply]),
    [
      ['b2-c2', 3],
      ['b1-b2', 4],
    ],
  );
  const v3 = v2.moves[0].variations[0];
  assert.equal(v3.startPly, 2);
  assert.deepEqual(v3.states[0].drawn, m.states[2].drawn);
  assert.deepEqual(
    v3.plies.map((x) => x.name),
    ['c1-c2'],
  );
});

test('malformed variations: clear positioned errors, and the rest of the file is still analysed', () => {
  const search = createSearchCache({ timeBudgetMs: 60_000 });
  const cases: [string, string, RegExp, string][] = [
    ['unclosed', 'moves a1-b1 (a1-a2 b1-b2', /unclosed variation/, '('],
    ['empty', 'moves a1-b1 () b1-c1', /empty variation/, '()'],
    ['only a comment', 'moves a1-b1 ( {nothing} ) b1-c1', /empty variation/, '( {nothing} )'],
    ['before move 1', 'moves (a1-a2) a1-b1 b1-c1', /must follow the move it replaces/, '('],
    ['at the start of a variation', 'moves a1-b1 ((a1-a2) b1-b2) b1-c1', /must follow the move it replaces/, '('],
    ['unmatched )', 'moves a1-b1 ) b1-c1', /unmatched '\)'/, ')'],
    ['littlegolem turn inside', 'moves a1-b1 (b[hab]) b1-c1', /littlegolem turn cannot stand in a variation/, 'b[hab]'],
  ];
  for (const [name, moves, message, marked] of cases) {
    const src = `game "broken"\n  size 2x2\n  ${moves}\n\ngame "fine"\n  size 2x1\n  moves a1-b1 b1-c1 (a1-a2)\n`;
    const report = analyzeText(src, { search: search.lookup });
    const bad = report.diagnostics.filter((d) => d.code === 'bad-variation');
    assert.equal(bad.length, 1, `${name}: ${JSON.stringify(report.diagnostics)}`);
    assert.match(bad[0].message, message, name);
    assert.equal(bad[0].severity, 'error');
    assert.equal(at(src, bad[0].range), marked, name);
    // The broken entry's main line is still replayed and valued.
    const broken = report.entries[0];
    assert.deepEqual(broken.moves.map((m) => m.move).slice(0, 1), ['a1-b1'], name);
    assert.ok(
      broken.positions.every((p) => p.value !== null),
      `${name}: every main-line position valued`,
    );
    // The next entry is untouched.
    const fine = report.entries[1];
    assert.equal(fine.title, 'fine');
    assert.equal(fine.moves.length, 2);
    assert.equal(fine.lines.length, 2);
    assert.ok(fine.positions.every((p) => p.value !== null));
    assert.equal(report.diagnostics.filter((d) => d.range.line >= 4 && d.severity === 'error').length, 0, name);
  }
  // An unclosed variation swallows the rest of the field — but not the next field or entry.
  const r = readDab('game\nsize 2x2\nmoves a1-b1 (a1-a2 b1-b2\nvalue 0\ngame\nsize 1x1\nmoves a1-b1');
  assert.equal(r.entries[0].value?.value, 0);
  assert.equal(r.models[1].plies.length, 1);
  // SGF wrapping `(;` … `)` is not a variation.
  const sgf = readDab('game\nsize 2x1\nmoves (;FF[4]\n;b[haa];r[hab];b[hba])\n');
  assert.equal(sgf.diagnostics.filter((d) => d.code === 'bad-variation').length, 0);
  assert.equal(sgf.models[0].plies.length, 3);
});

test('deep nesting is bounded and never throws', () => {
  const deep = 'game\nsize 3x3\nmoves a1-b1' + ' (a1-a2'.repeat(300) + ')'.repeat(300);
  const report = analyzeText(deep);
  const bad = report.diagnostics.filter((d) => d.code === 'bad-variation');
  assert.ok(bad.length >= 1 && bad.length <= 210, String(bad.length));
  assert.ok(report.entries[0].lines.length >= 100);
});

// ---------------------------------------------------------------------------------------------
// Random records with random variations, against brute force

interface LineSpec {
  /** Lines drawn, in order (each legal from the position before it). */
  moves: number[];
  /** variations[k]: alternatives to moves[k], each from the position before moves[k]. */
  variations: LineSpec[][];
}

function randomLine(rand: () => number, s: BoardState, depth: number, budget: { left: number }): LineSpec {
  const undrawn = s.undrawnLines().sort(() => rand() - 0.5);
  const n = Math.min(
    undrawn.length,
    depth === 0 ? Math.floor(rand() * (undrawn.length + 1)) : 1 + Math.floor(rand() * 4),
  );
  const spec: LineSpec = { moves: [], variations: [] };
  const cur = s.clone();
  for (let k = 0; k < n; k++) {
    const line = undrawn[k];
    const alts: LineSpec[] = [];
    while (depth < 3 && budget.left > 0 && rand() < 0.3) {
      budget.left--;
      alts.push(randomLine(rand, cur, depth + 1, budget));
    }
    spec.moves.push(line);
    spec.variations.push(alts.filter((a) => a.moves.length > 0));
    cur.play(line);
  }
  return spec;
}

function writeLine(rand: () => number, g: BoardGeometry, spec: LineSpec, ply: number): string {
  const out: string[] = [];
  spec.moves.forEach((line, k) => {
    const glyph = rand() < 0.15 ? ['!', '?', '??', '!?'][Math.floor(rand() * 4)] : '';
    const number = rand() < 0.3 ? `${ply + k + 1}. ` : '';
    const comment = rand() < 0.1 ? ' {a note (with parentheses)}' : '';
    out.push(`${number}${g.lineName(line)}${glyph}${comment}`);
    for (const alt of spec.variations[k]) out.push(`(${writeLine(rand, g, alt, ply + k)})`);
  });
  return out.join(rand() < 0.2 ? '\n    ' : ' ');
}

test('every position and move of random records with random variations agrees with exhaustive minimax', () => {
  const rand = lcg(20261123);
  const search = createSearchCache({ timeBudgetMs: 60_000 });
  let positions = 0,
    moves = 0,
    mistakes = 0,
    variations = 0;
  for (let n = 0; n < 90; n++) {
    const [w, h] = [
      [2, 2],
      [2, 3],
      [3, 2],
      [3, 3],
    ][n % 4];
    const g = geometryOf(w, h);
    const order = g.allLines().sort(() => rand() - 0.5);
    const maxUndrawn = w * h >= 9 ? 16 : 14;
    const setup = order.slice(0, Math.max(0, g.lineCount - maxUndrawn - Math.floor(rand() * 3)));
    const start = new BoardState(g);
    for (const l of setup) start.drawSilently(l);
    const spec = randomLine(rand, start, 0, { left: 6 });
    const text = [
      'game "random"',
      `  size ${w}x${h}`,
      setup.length ? `  lines ${setup.map((l) => g.lineName(l)).join(' ')}` : '',
      `  moves ${writeLine(rand, g, spec, 0)}`,
    ].join('\n');
    const report = analyzeText(text, { search: search.lookup });
    assert.equal(report.diagnostics.filter((d) => d.severity === 'error').length, 0, text);
    const e = report.entries[0];
    const flagged = new Set(
      report.diagnostics
        .filter((d) => d.code === 'mistake' || d.code === 'result-changing-mistake')
        .map((d) => `${d.range.line}:${d.range.character}`),
    );
    let expectedFlags = 0;
    const check = (line: LineReport, spec: LineSpec, s0: BoardState, startPly: number) => {
      assert.equal(line.startPly, startPly, text);
      assert.equal(line.moves.length, spec.moves.length, text);
      assert.equal(line.positions.length, spec.moves.length + 1, text);
      const s = s0.clone();
      spec.moves.forEach((l, k) => {
        const p = line.positions[k];
        const oracle = bruteForce(s);
        assert.equal(p.ply, startPly + k, text);
        assert.equal(p.value, oracle.value, `value at ply ${p.ply} of\n${text}`);
        assert.deepEqual(p.best, oracle.best.map((x) => g.lineName(x)).sort(), `best at ply ${p.ply} of\n${text}`);
        positions++;
        const m = line.moves[k];
        const loss = oracle.value - oracle.moveValues[l]!;
        assert.equal(m.move, g.lineName(l));
        assert.equal(m.ply, startPly + k + 1);
        assert.equal(m.loss, loss, `loss of ${m.move} at ply ${m.ply} of\n${text}`);
        assert.equal(flagged.has(`${m.range.line}:${m.range.character}`), loss > 0, `flag of ${m.move}\n${text}`);
        if (loss > 0) {
          mistakes++;
          expectedFlags++;
        }
        moves++;
        assert.equal(m.variations.length, spec.variations[k].length, text);
        m.variations.forEach((v, i) => {
          variations++;
          assert.equal(v.replaces, startPly + k + 1);
          check(v, spec.variations[k][i], s, startPly + k);
        });
        s.play(l);
      });
      const last = line.positions[spec.moves.length];
      assert.equal(last.value, bruteForce(s).value, text);
      positions++;
    };
    check(e, spec, start, 0);
    assert.equal(flagged.size, expectedFlags, text);
  }
  console.log(
    `checked ${positions} positions and ${moves} moves (${mistakes} mistakes) in ${variations} variations and their main lines against brute force`,
  );
  assert.ok(variations > 40, 'the generated records contain variations');
  assert.ok(mistakes > 30, 'the generated records contain mistakes to find');
});

test('a mistake in a variation gets the same diagnostic as the same mistake in the main line', () => {
  // The same position and move, once as the main line, once as a variation of another first move.
  const body = 'size 2x2\n  lines a1-b1 b1-c1 a3-b3 b3-c3 a1-a2 c1-c2 a2-a3 c2-c3\n';
  const main = analyzeText(`game\n  ${body}  moves b2-c2 a2-b2`);
  const vari = analyzeText(`game\n  ${body}  moves b2-c2 b1-b2 (a2-b2)`);
  const pick = (r: ReturnType<typeof analyzeText>) =>
    r.diagnostics.filter(
      (d) =>
        d.range.line === 3 &&
        at(`x\nx\nx\n${r === main ? '  moves b2-c2 a2-b2' : '  moves b2-c2 b1-b2 (a2-b2)'}`, d.range) === 'a2-b2',
    );
  const a = pick(main),
    b = pick(vari);
  assert.equal(a.length, 1);
  assert.deepEqual(
    b.map((d) => [d.code, d.severity, d.message]),
    a.map((d) => [d.code, d.severity, d.message]),
  );
});

test('MoveToken.variations is empty without parentheses (old records read as before)', () => {
  const r = parseDab('game\nsize 2x2\nmoves a1-b1 b1-c1');
  assert.ok(r.entries[0].moves!.moves.every((m: MoveToken) => m.variations.length === 0));
});

test('a variation written on an illegal move replaces the next legal move, or starts from the end of the line', () => {
  const g = geometryOf(3, 3);
  const line = (n: string) => g.allLines().find((x) => g.lineName(x) === n)!;
  const search = createSearchCache({ timeBudgetMs: 60_000 });
  // c1-c2 twice: the second is skipped, its variation (a1-a2 b1-b2) starts after move 2
  const text = [
    'game "illegal moves with variations"',
    '  size 3x3',
    '  moves 1. c1-c2 2. a3-b3 3. c1-c2 (3. a1-a2 b1-b2) 4. d3-d4 5. d3-d4 (5. b1-c1 a1-b1)',
  ].join('\n');
  const report = analyzeText(text, { search: search.lookup });
  assert.equal(report.diagnostics.filter((d) => d.code === 'drawn-twice').length, 2, 'both repeats are errors');
  const e = report.entries[0];
  assert.deepEqual(
    e.moves.map((m) => m.move),
    ['c1-c2', 'a3-b3', 'd3-d4'],
  );
  // nested under d3-d4, the move played from the position the variation starts from
  const under = e.moves[2].variations;
  assert.equal(under.length, 1);
  assert.equal(under[0].replaces, 3);
  assert.deepEqual(
    under[0].moves.map((m) => m.move),
    ['a1-a2', 'b1-b2'],
  );
  // the last written move is illegal: its variation starts from the line's last position
  assert.equal(e.endVariations.length, 1);
  const end = e.endVariations[0];
  assert.equal(end.replaces, 4);
  assert.equal(end.startPly, 3);
  assert.deepEqual(
    end.moves.map((m) => m.move),
    ['b1-c1', 'a1-b1'],
  );
  // both replayed from the right position and valued against brute force, move by move
  const s = new BoardState(g);
  for (const l of ['c1-c2', 'a3-b3']) s.play(line(l));
  const check = (v: LineReport, from: BoardState) => {
    const st = from.clone();
    v.moves.forEach((m, k) => {
      const oracle = bruteForce(st);
      assert.equal(v.positions[k].value, oracle.value, `value before ${m.move}`);
      assert.equal(m.loss, oracle.value - oracle.moveValues[line(m.move)]!, `loss of ${m.move}`);
      st.play(line(m.move));
    });
    assert.equal(v.positions[v.moves.length].value, bruteForce(st).value);
  };
  check(under[0], s);
  const afterAll = s.clone();
  afterAll.play(line('d3-d4'));
  check(end, afterAll);
  // the CLI shows both: text and JSON
  const json = toJson(report, 'x');
  const entry = json.entries[0] as { moves: { variations?: unknown[] }[]; endVariations?: { replaces: number }[] };
  assert.equal(entry.moves[2].variations?.length, 1);
  assert.equal(entry.endVariations?.[0].replaces, 4);
  const shown = formatText(report, 'x');
  assert.equal(shown.match(/\( variation instead of move 3/g)?.length, 1, shown);
  assert.equal(shown.match(/\( variation instead of move 4/g)?.length, 1, shown);
  assert.match(shown, /4\. B b1-c1/, shown);
});
