// Tokenises sample .dab lines with the real TextMate engine VS Code uses (vscode-textmate +
// vscode-oniguruma) and checks the scopes given to each token.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import * as oniguruma from 'vscode-oniguruma';
import * as vsctm from 'vscode-textmate';

const require_ = createRequire(import.meta.url);
const root = join(import.meta.dirname, '..', '..');

let grammarPromise: Promise<vsctm.IGrammar> | undefined;
function loadGrammar(): Promise<vsctm.IGrammar> {
  grammarPromise ??= (async () => {
    const wasm = readFileSync(join(require_.resolve('vscode-oniguruma'), '..', 'onig.wasm'));
    await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
    const registry = new vsctm.Registry({
      onigLib: Promise.resolve({
        createOnigScanner: (p: string[]) => new oniguruma.OnigScanner(p),
        createOnigString: (s: string) => new oniguruma.OnigString(s),
      }),
      loadGrammar: async (scopeName: string) => {
        if (scopeName !== 'source.dab') return null;
        const text = readFileSync(join(root, 'syntaxes', 'dab.tmLanguage.json'), 'utf8');
        return vsctm.parseRawGrammar(text, 'dab.tmLanguage.json');
      },
    });
    const g = await registry.loadGrammar('source.dab');
    if (!g) throw new Error('grammar source.dab did not load');
    return g;
  })();
  return grammarPromise;
}

interface Tok {
  text: string;
  scopes: string[];
}

/** Tokenises a whole document; returns the tokens of each line. */
async function tokenize(doc: string): Promise<Tok[][]> {
  const g = await loadGrammar();
  let state = vsctm.INITIAL;
  const out: Tok[][] = [];
  for (const line of doc.split('\n')) {
    const r = g.tokenizeLine(line, state);
    out.push(r.tokens.map((t) => ({ text: line.slice(t.startIndex, t.endIndex), scopes: t.scopes })));
    state = r.ruleStack;
  }
  return out;
}

/** The scopes of the token (in the given line) whose text is exactly `text` (the n-th such). */
function scopesOf(line: Tok[], text: string, n = 0): string[] {
  const hits = line.filter((t) => t.text === text);
  assert.ok(hits[n], `no token "${text}" in line: ${JSON.stringify(line.map((t) => t.text))}`);
  return hits[n].scopes;
}
function hasScope(line: Tok[], text: string, scope: string, n = 0): void {
  const s = scopesOf(line, text, n);
  assert.ok(
    s.some((x) => x.split(' ').includes(scope) || x === scope),
    `"${text}" has ${JSON.stringify(s)}, expected ${scope}`,
  );
}
function lacksScope(line: Tok[], text: string, prefix: string): void {
  const s = scopesOf(line, text);
  assert.ok(!s.some((x) => x.startsWith(prefix)), `"${text}" has ${JSON.stringify(s)}, expected no ${prefix}*`);
}

test('grammar: entry headers with titles', async () => {
  const [g, p, e, bare] = await tokenize(
    'game "Barker v Smith"\nposition "Study 3"\n  endgame "Allcock, example 1.2"  # trailing\nendgame',
  );
  hasScope(g, 'game', 'keyword.other.entry.game.dab');
  hasScope(g, 'Barker v Smith', 'entity.name.section.title.dab');
  hasScope(g, '"', 'punctuation.definition.string.begin.dab');
  hasScope(p, 'position', 'keyword.other.entry.position.dab');
  hasScope(p, 'Study 3', 'entity.name.section.title.dab');
  hasScope(e, 'endgame', 'keyword.other.entry.endgame.dab');
  hasScope(e, 'Allcock, example 1.2', 'entity.name.section.title.dab');
  hasScope(e, ' trailing', 'comment.line.number-sign.dab');
  hasScope(bare, 'endgame', 'keyword.other.entry.endgame.dab');
});

// The parser reads typographic quotes as strings (docs/notation.md §1): the colours follow it.
test('grammar: typographic quotes in titles, names and strings; a colon after the entry keyword', async () => {
  const [g, p, q, t] = await tokenize(
    ['game: “O’Brien v Smith”', '  players ‘Ann’ «Bob»', '  players „Cy“ "D’Arcy"', '  tomove “Ann”'].join('\n'),
  );
  hasScope(g, 'game', 'keyword.other.entry.game.dab');
  hasScope(g, 'O’Brien v Smith', 'entity.name.section.title.dab');
  hasScope(g, '“', 'punctuation.definition.string.begin.dab');
  hasScope(g, '”', 'punctuation.definition.string.end.dab');
  hasScope(p, 'Ann', 'entity.name.player.dab');
  hasScope(p, 'Bob', 'entity.name.player.dab');
  hasScope(p, '«', 'punctuation.definition.string.begin.dab');
  hasScope(q, 'Cy', 'entity.name.player.dab');
  hasScope(q, 'D’Arcy', 'entity.name.player.dab');
  hasScope(t, 'Ann', 'string.quoted.double.dab');
});

test('grammar: fields, strings, numbers, players', async () => {
  const lines = await tokenize(
    [
      'game "g"',
      '  size 5x5',
      '  players "Alice" "Bob"',
      '  tomove second',
      '  tomove Bob',
      '  score 3 0',
      '  value -2',
    ].join('\n'),
  );
  hasScope(lines[1], 'size', 'keyword.other.field.size.dab');
  hasScope(lines[1], '5', 'constant.numeric.size.dab');
  hasScope(lines[1], 'x', 'keyword.operator.size.dab');
  hasScope(lines[2], 'players', 'keyword.other.field.players.dab');
  hasScope(lines[2], 'Alice', 'entity.name.player.dab');
  hasScope(lines[2], 'Bob', 'string.quoted.double.player.dab');
  hasScope(lines[3], 'tomove', 'keyword.other.field.tomove.dab');
  hasScope(lines[3], 'second', 'constant.language.player.dab');
  hasScope(lines[4], 'Bob', 'entity.name.player.dab');
  hasScope(lines[5], 'score', 'keyword.other.field.score.dab');
  hasScope(lines[5], '3', 'constant.numeric.dab');
  hasScope(lines[5], '0', 'constant.numeric.dab');
  hasScope(lines[6], 'value', 'keyword.other.field.value.dab');
  hasScope(lines[6], '-2', 'constant.numeric.dab');
});

test('grammar: PGN tags', async () => {
  const [t] = await tokenize('  [Event "Club <final>"]');
  hasScope(t, 'Event', 'entity.name.tag.dab');
  hasScope(t, 'Club <final>', 'string.unquoted.tag-value.dab');
  hasScope(t, '[', 'punctuation.definition.tag.begin.dab');
  hasScope(t, ']', 'punctuation.definition.tag.end.dab');
});

test('grammar: move lists — dot moves, compact moves, numbers, glyphs, brace comments, littlegolem codes', async () => {
  const lines = await tokenize(
    [
      'game',
      '  moves 1. a1-b1 2. b1b2?! c3-c4!! {takes the loop',
      '    and gives up control} haa, vab?',
      '    d1-d2  # comment a1-b1',
    ].join('\n'),
  );
  const m = lines[1];
  hasScope(m, 'moves', 'keyword.other.field.moves.dab');
  hasScope(m, '1.', 'constant.numeric.move-number.dab');
  hasScope(m, 'a1', 'support.constant.move.dot.dab');
  hasScope(m, '-', 'punctuation.separator.move.dab');
  hasScope(m, 'b1', 'support.constant.move.dot.dab');
  hasScope(m, 'b1', 'meta.move.dab', 1);
  hasScope(m, 'b2', 'support.constant.move.dot.dab');
  hasScope(m, '?!', 'keyword.operator.glyph.dab');
  hasScope(m, '!!', 'keyword.operator.glyph.dab');
  hasScope(m, '{', 'punctuation.definition.comment.begin.dab');
  hasScope(m, 'takes the loop', 'comment.block.dab');
  const c = lines[2];
  hasScope(c, '    and gives up control', 'comment.block.dab');
  lacksScope(c, '    and gives up control', 'support.constant');
  hasScope(c, 'haa', 'support.constant.move.littlegolem.dab');
  hasScope(c, ',', 'punctuation.separator.comma.dab');
  hasScope(c, 'vab', 'support.constant.move.littlegolem.dab');
  hasScope(c, '?', 'keyword.operator.glyph.dab');
  // continuation line of the moves field
  hasScope(lines[3], 'd1', 'support.constant.move.dot.dab');
  hasScope(lines[3], 'd1', 'meta.field.moves.dab');
  hasScope(lines[3], ' comment a1-b1', 'comment.line.number-sign.dab');
});

test('grammar: variations, nested, over lines, with their own glyphs and comments', async () => {
  const lines = await tokenize(
    [
      'game "g"',
      '  moves 25. d2-e2?? (25. b6-c6! {the idea} b5-c5',
      '          (26. a1-b1?)) 26. c1-c2',
      '  value 0',
      'game "unclosed"',
      '  moves a1-b1 (a1-a2 b1-b2',
      '  value 0',
    ].join('\n'),
  );
  const [, a, b, c, , d, e] = lines;
  hasScope(a, '(', 'punctuation.section.variation.begin.dab');
  hasScope(a, 'b6', 'meta.variation.dab');
  hasScope(a, 'b6', 'support.constant.move.dot.dab');
  hasScope(a, '!', 'keyword.operator.glyph.dab');
  hasScope(a, 'the idea', 'comment.block.dab');
  hasScope(a, 'c5', 'meta.variation.dab');
  lacksScope(a, 'd2', 'meta.variation');
  // The nested variation on the next line: two levels deep, closed twice.
  const nested = scopesOf(b, 'a1').filter((x) => x === 'meta.variation.dab');
  assert.equal(nested.length, 2, JSON.stringify(scopesOf(b, 'a1')));
  hasScope(b, ')', 'punctuation.section.variation.end.dab');
  hasScope(b, ')', 'punctuation.section.variation.end.dab', 1);
  lacksScope(b, 'c2', 'meta.variation');
  hasScope(b, 'c2', 'meta.move.dab');
  hasScope(c, 'value', 'keyword.other.field.value.dab');
  // A missing ')' ends with the moves field: the next field is coloured as usual.
  hasScope(d, 'b2', 'meta.variation.dab');
  hasScope(e, 'value', 'keyword.other.field.value.dab');
  lacksScope(e, 'value', 'meta.variation');
  // SGF wrapping is not a variation.
  const [sgf] = await tokenize('  moves (;b[haa];r[hab])');
  lacksScope(sgf, 'haa', 'meta.variation');
});

test('grammar: littlegolem turn strings', async () => {
  const [, m] = await tokenize('game\n  moves ;b[hdb];r[vce];b[haevbe]');
  hasScope(m, ';', 'punctuation.separator.turn.dab');
  hasScope(m, 'b', 'variable.other.player.littlegolem.dab');
  hasScope(m, 'r', 'variable.other.player.littlegolem.dab');
  hasScope(m, 'hdb', 'support.constant.move.littlegolem.dab');
  hasScope(m, 'vce', 'support.constant.move.littlegolem.dab');
  hasScope(m, 'hae', 'support.constant.move.littlegolem.dab');
  hasScope(m, 'vbe', 'support.constant.move.littlegolem.dab');
  hasScope(m, '[', 'punctuation.section.turn.begin.dab');
  hasScope(m, ']', 'punctuation.section.turn.end.dab');
});

test('grammar: SGF properties, their values over lines, and SGF turns', async () => {
  const [, m, c, next] = await tokenize(
    'game\n  moves (;FF[4]C[a comment\nover two lines];B[haa]C[x \\] y];W[hab])\ngame "b"',
  );
  hasScope(m, 'FF', 'entity.name.tag.property.sgf.dab');
  hasScope(m, '4', 'comment.block.property.sgf.dab');
  hasScope(m, 'a comment', 'comment.block.property.sgf.dab');
  hasScope(c, 'over two lines', 'comment.block.property.sgf.dab');
  hasScope(c, ']', 'punctuation.section.property.end.dab');
  hasScope(c, 'B', 'variable.other.player.littlegolem.dab');
  hasScope(c, 'haa', 'support.constant.move.littlegolem.dab');
  hasScope(c, '\\]', 'constant.character.escape.dab');
  hasScope(c, ' y', 'comment.block.property.sgf.dab');
  hasScope(c, 'W', 'variable.other.player.littlegolem.dab');
  hasScope(c, 'hab', 'support.constant.move.littlegolem.dab');
  hasScope(next, 'game', 'keyword.other.entry.game.dab');
  // An unclosed value ends before the next entry header, as the reader has it.
  const [, open, header] = await tokenize('game\n  moves ;b[haa]C[never closed\ngame "b"');
  hasScope(open, 'never closed', 'comment.block.property.sgf.dab');
  hasScope(header, 'game', 'keyword.other.entry.game.dab');
  // nor into a field line or a tag line; a header word inside a value does not end it
  const [, , field, tag] = await tokenize('game\n  moves ;b[haa]C[never closed\n  value 0\n[Event "x"]');
  hasScope(field, 'value', 'keyword.other.field.value.dab');
  lacksScope(tag, '[', 'comment.block.property');
  const [, , inside, after] = await tokenize('game\n  moves ;b[haa]C[about\ngame (a1-b1) y]\n;r[hab]');
  hasScope(inside, 'game (a1-b1) y', 'comment.block.property.sgf.dab');
  hasScope(after, 'hab', 'support.constant.move.littlegolem.dab');
});

test('grammar: lines field and malformed move tokens', async () => {
  const [, l, bad] = await tokenize('position\n  lines a1-b1 c2-c3\n  moves a1-b1 zz9 a1-');
  hasScope(l, 'lines', 'keyword.other.field.lines.dab');
  hasScope(l, 'c2', 'support.constant.move.dot.dab');
  hasScope(bad, 'zz9', 'invalid.illegal.move.dab');
  hasScope(bad, 'a1-', 'invalid.illegal.move.dab');
});

test('grammar: endgame components with loops and repeats; play suffixes', async () => {
  const lines = await tokenize(
    [
      'endgame "Allcock, example 1.2"',
      '  components 3 + 4l, 6l^9 8L 5ℓ 3*2 12   # value: the controller wins by 1',
      '  play 3:keep 3:all 4l:all 3?',
    ].join('\n'),
  );
  const c = lines[1];
  hasScope(c, 'components', 'keyword.other.field.components.dab');
  hasScope(c, '3', 'constant.numeric.component.chain.dab');
  hasScope(c, '+', 'keyword.operator.plus.dab');
  hasScope(c, '4', 'constant.numeric.component.loop.dab');
  hasScope(c, 'l', 'storage.modifier.loop.dab');
  hasScope(c, '^', 'keyword.operator.repeat.dab');
  hasScope(c, '9', 'constant.numeric.repeat.dab');
  hasScope(c, 'L', 'storage.modifier.loop.dab');
  hasScope(c, 'ℓ', 'storage.modifier.loop.dab');
  hasScope(c, '*', 'keyword.operator.repeat.dab');
  hasScope(c, '12', 'constant.numeric.component.chain.dab');
  hasScope(c, ' value: the controller wins by 1', 'comment.line.number-sign.dab');
  const p = lines[2];
  hasScope(p, 'play', 'keyword.other.field.play.dab');
  hasScope(p, 'keep', 'keyword.control.play.keep.dab');
  hasScope(p, 'all', 'keyword.control.play.all.dab');
  hasScope(p, ':', 'punctuation.separator.play.dab');
  hasScope(p, '?', 'keyword.operator.glyph.dab');
});

test('grammar: diagrams — dots, lines, owners; the diagram ends at the next field', async () => {
  const lines = await tokenize(
    [
      'position "2x2"',
      '  diagram   # three lines undrawn',
      '  +---+---+',
      '  | A |',
      '  +---+   +',
      '',
      '  o-o o',
      '  |       |',
      '  +---+---+',
      '  tomove second',
      '  moves a1-b1',
    ].join('\n'),
  );
  hasScope(lines[1], 'diagram', 'keyword.other.field.diagram.dab');
  hasScope(lines[1], ' three lines undrawn', 'comment.line.number-sign.dab');
  hasScope(lines[2], '+', 'constant.character.dot.dab');
  hasScope(lines[2], '---', 'keyword.operator.line.horizontal.dab');
  hasScope(lines[3], '|', 'keyword.operator.line.vertical.dab');
  hasScope(lines[3], 'A', 'variable.other.owner.dab');
  hasScope(lines[6], 'o', 'constant.character.dot.dab');
  hasScope(lines[6], '-', 'keyword.operator.line.horizontal.dab');
  hasScope(lines[8], '---', 'meta.field.diagram.dab');
  hasScope(lines[9], 'tomove', 'keyword.other.field.tomove.dab');
  lacksScope(lines[9], 'tomove', 'meta.field.diagram');
  hasScope(lines[10], 'a1', 'support.constant.move.dot.dab');
});

test('grammar: a field ends at the next header; comments everywhere', async () => {
  const lines = await tokenize(
    ['# a file comment', 'game "one"', '  moves a1-b1', 'endgame "two"', '  components 3 3', '[Event "x"]'].join('\n'),
  );
  hasScope(lines[0], ' a file comment', 'comment.line.number-sign.dab');
  hasScope(lines[0], '#', 'punctuation.definition.comment.dab');
  hasScope(lines[3], 'endgame', 'keyword.other.entry.endgame.dab');
  lacksScope(lines[3], 'endgame', 'meta.field.moves');
  hasScope(lines[4], '3', 'constant.numeric.component.chain.dab');
  hasScope(lines[5], 'Event', 'entity.name.tag.dab');
});

test('grammar: package.json wires the grammar and language configuration', () => {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const gr = pkg.contributes.grammars.find((x: { language: string }) => x.language === 'dab');
  assert.equal(gr.scopeName, 'source.dab');
  assert.equal(gr.path, './syntaxes/dab.tmLanguage.json');
  const lang = pkg.contributes.languages.find((x: { id: string }) => x.id === 'dab');
  assert.deepEqual(lang.extensions, ['.dab']);
  const conf = JSON.parse(readFileSync(join(root, lang.configuration), 'utf8'));
  assert.equal(conf.comments.lineComment, '#');
  assert.ok(conf.brackets.some((b: string[]) => b[0] === '{' && b[1] === '}'));
  assert.ok(conf.autoClosingPairs.some((p: { open: string }) => p.open === '"'));
  const wp = new RegExp(conf.wordPattern);
  assert.equal('  a1-b1 x'.match(wp)?.[0], 'a1-b1', 'a move is one word');
  assert.equal('6l^9,'.match(wp)?.[0], '6l^9', 'a repeated loop is one word');
  const fold = new RegExp(conf.folding.markers.start);
  assert.ok(fold.test('# region openings'));
});
