// The playable board on the server side: the heat map's losses (features/boardView.ts) and the edits
// of a clicked line (features/playLine.ts). Each edit is applied to the text and the result analysed
// again, so the losses on the board are checked against the review of the record with that move.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeText } from '../../server/src/engine/analysis/analyzeDocument';
import { createSearchCache } from '../../server/src/cli/search';
import { boardView } from '../../server/src/features/boardViewRequest';
import { playLine } from '../../server/src/features/playLine';
import type { PlayLineParams, PlayLineResult } from '../../shared/protocol';

const search = createSearchCache({ timeBudgetMs: 5000 });
const analyse = (text: string) => analyzeText(text, { search: search.lookup });

function apply(text: string, r: PlayLineResult): string {
  assert.ok(r.edit, `an edit: ${JSON.stringify(r)}`);
  const lines = text.split('\n');
  const { line, character } = r.edit.range.start;
  assert.deepEqual(r.edit.range.start, r.edit.range.end, 'an insertion');
  lines[line] = lines[line].slice(0, character) + r.edit.newText + lines[line].slice(character);
  return lines.join('\n');
}

const GAME = ['game "t"', '  size 2x2', '  players "Alice" "Bob"', '  moves a1-b1 b1-c1 a3-b3', ''].join('\n');

test('board: every undrawn line carries its loss and words; the losses match the review of the record with that move', () => {
  const report = analyse(GAME);
  const view = boardView(report, { uri: 'x', position: { line: 3, character: 40 } }, search.lookup)!;
  assert.equal(view.ply, 3);
  assert.equal(view.solved, true, '2x2 positions are solved');
  assert.equal(view.moves!.length, 12 - 3);
  const names = view.moves!.map((m) => m.line.name);
  assert.ok(!names.includes('a1-b1') && names.includes('a1-a2'));
  for (const m of view.moves!) {
    assert.ok(m.text.startsWith(`${m.line.name}: `), m.text);
    assert.ok(m.loss !== null && m.loss >= 0);
    if (m.loss === 0) assert.match(m.text, /a best move/);
    else assert.match(m.text, new RegExp(`throws away ${m.loss} box`));
    // Play it at the end of the record and let the review judge the move.
    const r = playLine(report, { uri: 'x', position: { line: 3, character: 40 }, line: m.line.name });
    const after = analyse(apply(GAME, r));
    const entry = after.entries[0];
    assert.equal(entry.moves.length, 4, `the move was appended: ${apply(GAME, r)}`);
    assert.equal(entry.moves[3].move, m.line.name);
    assert.equal(entry.moves[3].loss, m.loss, `${m.line.name}: board and review agree`);
  }
  assert.ok(view.pv!.length > 0, 'a principal variation');
  assert.ok(
    view.best.some((b) => b.name === view.pv![0].name),
    'the best line starts with a best move',
  );
});

test('board: a click at the end appends, inside a record starts a variation, on the played move steps', () => {
  const report = analyse(GAME);
  const at = (ply: number, line: string, extra: Partial<PlayLineParams> = {}) =>
    playLine(report, { uri: 'x', position: { line: 3, character: 40 }, ply, line, ...extra });
  const end = at(3, 'a1-a2');
  assert.equal(end.edit!.newText, ' a1-a2');
  assert.deepEqual(end.edit!.range.start, { line: 3, character: 25 });
  assert.deepEqual(end.cursor, { line: 3, character: 31 });

  const inside = at(1, 'c1-c2');
  assert.equal(inside.edit!.newText, ' (c1-c2)');
  assert.deepEqual(inside.edit!.range.start, { line: 3, character: 19 }, 'right after b1-c1, the move it replaces');
  // The variation is read as one: no error, and a second one goes after the first.
  const once = apply(GAME, inside);
  const r1 = analyse(once);
  assert.deepEqual(
    r1.diagnostics.filter((d) => d.severity === 'error'),
    [],
    `no error in ${once}`,
  );
  const again = playLine(r1, { uri: 'x', position: { line: 3, character: 40 }, ply: 1, line: 'a1-a2' });
  assert.equal(apply(once, again).split('\n')[3], '  moves a1-b1 b1-c1 (c1-c2) (a1-a2) a3-b3');
  const played = at(1, 'b1-c1');
  assert.equal(played.edit, undefined);
  assert.equal(played.ply, 2);

  assert.match(at(3, 'a1-b1').error!, /drawn already/);
  assert.match(at(3, 'z9-z10').error!, /not a line/);
});

test('board: numbered records get numbered moves, and variations repeat the number of the move they replace', () => {
  const text = ['game "n"', '  size 2x2', '  moves 1. a1-b1 2. b1-c1 {quiet} 3. a3-b3!', ''].join('\n');
  const report = analyse(text);
  const end = playLine(report, { uri: 'x', position: { line: 2, character: 60 }, ply: 3, line: 'a1-a2' });
  assert.equal(apply(text, end).split('\n')[2], '  moves 1. a1-b1 2. b1-c1 {quiet} 3. a3-b3! 4. a1-a2');
  const v = playLine(report, { uri: 'x', position: { line: 2, character: 60 }, ply: 1, line: 'c1-c2' });
  assert.equal(apply(text, v).split('\n')[2], '  moves 1. a1-b1 2. b1-c1 {quiet} (2. c1-c2) 3. a3-b3!');
});

test('board: a position without moves gets a moves field; with moves it is extended', () => {
  const text = ['position "p"', '  size 2x2', '  lines a1-b1 b1-c1', '', 'game "next"', '  size 1x1', ''].join('\n');
  const report = analyse(text);
  const r = playLine(report, { uri: 'x', position: { line: 1, character: 0 }, line: 'a3-b3' });
  const once = apply(text, r);
  assert.equal(once.split('\n').slice(0, 4).join('\n'), 'position "p"\n  size 2x2\n  lines a1-b1 b1-c1\n  moves a3-b3');
  const report2 = analyse(once);
  assert.equal(report2.entries[0].moves.length, 1);
  assert.equal(report2.entries[1].title, 'next', 'the next entry is untouched');
  const r2 = playLine(report2, { uri: 'x', position: r.cursor!, line: 'b3-c3' });
  assert.equal(apply(once, r2).split('\n')[3], '  moves a3-b3 b3-c3');
});

test('board: play it out answers with proven best moves until it is the user’s turn', () => {
  const report = analyse(GAME);
  const r = playLine(report, { uri: 'x', position: { line: 3, character: 40 }, ply: 3, line: 'a1-a2', reply: true });
  const text = apply(GAME, r);
  const entry = analyse(text).entries[0];
  const user = entry.moves[3].player;
  const replies = entry.moves.slice(4);
  assert.ok(replies.length >= 1, `the engine answered: ${text}`);
  for (const m of replies) {
    assert.notEqual(m.player, user, 'only the engine’s turns are played');
    assert.equal(m.loss, 0, `${m.move} is a proven best move`);
  }
  const last = entry.positions[entry.positions.length - 1];
  assert.ok(last.remaining === 0 || last.toMove === user, 'it stops on the user’s turn');
});

test('board: inside a variation the board shows its position and a click plays on in it', () => {
  const text = ['game "v"', '  size 2x2', '  moves a1-b1 b1-c1 (c1-c2 a3-b3) a3-b3', ''].join('\n');
  const report = analyse(text);
  const inVar = { line: 2, character: 29 }; // inside `a3-b3` of the variation
  const view = boardView(report, { uri: 'x', position: inVar }, search.lookup)!;
  assert.deepEqual(view.variation, { replaces: 2 });
  assert.equal(view.ply, 3);
  assert.deepEqual(view.drawn.map((l) => l.name).sort(), ['a1-b1', 'a3-b3', 'c1-c2']);
  assert.equal(view.lastMove?.name, 'a3-b3');
  // Played at the end of the variation: appended inside its parentheses.
  const r = playLine(report, { uri: 'x', position: inVar, line: 'b3-c3' });
  const once = apply(text, r);
  assert.equal(once.split('\n')[2], '  moves a1-b1 b1-c1 (c1-c2 a3-b3 b3-c3) a3-b3');
  // The cursor lands after the new move, still inside the variation: the next click goes on from there.
  const r2 = playLine(analyse(once), { uri: 'x', position: r.cursor!, line: 'a1-a2', reply: true });
  const twice = apply(once, r2);
  assert.match(twice.split('\n')[2], /^ {2}moves a1-b1 b1-c1 \(c1-c2 a3-b3 b3-c3 a1-a2( [a-d]\d-[a-d]\d)*\) a3-b3$/);
  const entry = analyse(twice).entries[0];
  assert.deepEqual(
    analyse(twice).diagnostics.filter((d) => d.severity === 'error'),
    [],
  );
  assert.ok(entry.lines.length === 2, 'still one variation');
  // Inside the variation, before its end: a nested variation.
  const nested = playLine(report, { uri: 'x', position: { line: 2, character: 23 }, line: 'a2-b2' });
  assert.equal(apply(text, nested).split('\n')[2], '  moves a1-b1 b1-c1 (c1-c2 a3-b3 (a2-b2)) a3-b3');
});

// Found by an independent audit: the click wrote `(3. a1-a2) (3. a1-a2)`.
test('board: a click on the first move of a variation already written there steps into it, writing nothing', () => {
  // On the main line, the second of two variations on b1-c1 (replies on: still nothing is written).
  const text = ['game "s"', '  size 2x2', '  moves a1-b1 b1-c1 (c1-c2) (a1-a2 a3-b3) a3-b3', ''].join('\n');
  const report = analyse(text);
  const r = playLine(report, { uri: 'x', position: { line: 2, character: 60 }, ply: 1, line: 'a1-a2', reply: true });
  const row = text.split('\n')[2];
  assert.equal(r.edit, undefined, `nothing written: ${JSON.stringify(r)}`);
  assert.equal(r.error, undefined);
  assert.deepEqual(r.cursor, { line: 2, character: row.indexOf('a1-a2') });
  // The cursor there shows that variation's position after its first move.
  const view = boardView(report, { uri: 'x', position: r.cursor! })!;
  assert.deepEqual(view.variation, { replaces: 2 });
  assert.equal(view.ply, 2);
  assert.equal(view.lastMove?.name, 'a1-a2');

  // The audit's record: the cursor in a variation, on the move a nested variation replaces.
  const audit = ['game', '  size 2x2', '  moves 1. a1-b1 2. b1-c1? (2. a3-b3! 3. b3-c3 (3. a1-a2)) 3. a3-b3', ''].join(
    '\n',
  );
  const line = audit.split('\n')[2];
  const inVar = { line: 2, character: line.indexOf('a3-b3!') };
  const step = playLine(analyse(audit), { uri: 'x', position: inVar, line: 'a1-a2' });
  assert.equal(step.edit, undefined, `nothing written: ${JSON.stringify(step)}`);
  assert.deepEqual(step.cursor, { line: 2, character: line.indexOf('a1-a2)') });
  const nested = boardView(analyse(audit), { uri: 'x', position: step.cursor! })!;
  assert.equal(nested.lastMove?.name, 'a1-a2');
  assert.deepEqual(nested.drawn.map((l) => l.name).sort(), ['a1-a2', 'a1-b1', 'a3-b3']);
  // Another move there still starts a variation of its own.
  const other = playLine(analyse(audit), { uri: 'x', position: inVar, line: 'c1-c2' });
  assert.equal(apply(audit, other).split('\n')[2], line.replace('(3. a1-a2)', '(3. a1-a2) (3. c1-c2)'));
});

// Found by an independent audit: clicks on records written in other shapes wrote broken text.
test('board: a click lands after the colon of an empty moves:, and after the bracket of a littlegolem record', () => {
  const cases: { text: string; ply?: number; line: string; want: RegExp }[] = [
    { text: 'game\n  size 2x2\n  moves:\n', line: 'a1-b1', want: /^ {2}moves: a1-b1$/m },
    { text: 'game\n  size 2x2\n  MOVES: {start}\n', line: 'a1-b1', want: /^ {2}MOVES: \{start\} a1-b1$/m },
    // appended as the turns that follow: haa and hab (a1-b1, b1-c1) complete nothing, so b moves
    { text: 'game\n  size 2x2\n  moves ;b[haa];r[hab]\n', line: 'a3-b3', want: /moves ;b\[haa\];r\[hab\];b\[hca\]$/m },
    { text: 'game\n  size 2x2\n  moves (;b[haa];r[hab])\n', line: 'a3-b3', want: /\(;b\[haa\];r\[hab\];b\[hca\]\)$/m },
    // a variation on the last move of a bracket goes after its ']'
    { text: 'game\n  size 2x2\n  moves ;b[haa];r[hab]\n', ply: 1, line: 'a3-b3', want: /;r\[hab\] \(a3-b3\)$/m },
    // after the SGF comment of the bracket's move, which stays that move's (found by a review)
    {
      text: 'game\n  size 2x2\n  moves ;B[haa]C[a good start];W[hab]\n',
      ply: 0,
      line: 'a3-b3',
      want: /;B\[haa\]C\[a good start\] \(a3-b3\);W\[hab\]$/m,
    },
  ];
  for (const c of cases) {
    const report = analyse(c.text);
    const r = playLine(report, { uri: 'x', position: { line: 2, character: 200 }, line: c.line, ply: c.ply });
    const after = apply(c.text, r);
    assert.match(after, c.want, `${JSON.stringify(c.text)} -> ${JSON.stringify(after)}`);
    const again = analyse(after);
    assert.deepEqual(
      again.diagnostics.filter((d) => d.severity === 'error' || d.code === 'turn-mismatch').map((d) => d.message),
      [],
      after,
    );
    const played = again.entries[0].moves.map((m) => m.move);
    if (c.ply === undefined) assert.equal(played[played.length - 1], c.line, after);
  }
  const sgf = analyse(
    apply(
      cases[5].text,
      playLine(analyse(cases[5].text), { uri: 'x', position: { line: 2, character: 200 }, line: 'a3-b3', ply: 0 }),
    ),
  );
  assert.equal(sgf.entries[0].moves[0].comment, 'a good start');
  // nothing is written after an SGF value left open: it would be read into it
  const open = analyse('game\n  size 2x2\n  moves ;b[haa]C[left open\n');
  const none = playLine(open, { uri: 'x', position: { line: 2, character: 3 }, line: 'a3-b3' });
  assert.equal(none.edit, undefined);
  assert.ok(none.error, 'says why');
  // a move in the middle of a bracket cannot take a variation: said, nothing written
  const glued = analyse('game\n  size 2x2\n  moves ;b[haahba]\n');
  const mid = playLine(glued, { uri: 'x', position: { line: 2, character: 3 }, line: 'a3-b3', ply: 0 });
  assert.equal(mid.edit, undefined);
  assert.match(mid.error ?? '', /bracket/);
  // a ply the record does not have is named, not taken for "no board"
  for (const ply of [-1, 1.5, 99])
    assert.match(
      playLine(glued, { uri: 'x', position: { line: 2, character: 3 }, line: 'a3-b3', ply }).error ?? '',
      /no position/,
    );
});

test('board: at the start of a variation the last move is marked as on the main line at that position', () => {
  const text = 'game\n  size 2x2\n  moves a1-b1 b1-c1 (a3-b3 b3-c3) a2-b2\n';
  const report = analyse(text);
  const open = text.split('\n')[2].indexOf('(');
  const start = boardView(report, { uri: 'x', position: { line: 2, character: open } })!;
  assert.ok(start.variation, 'the variation’s board');
  const main = boardView(report, { uri: 'x', position: { line: 2, character: 0 }, ply: 1 })!;
  assert.deepEqual(start.drawn, main.drawn, 'the same position');
  assert.ok(start.lastMove, 'a last move is marked');
  assert.deepEqual(start.lastMove, main.lastMove);
});

test('board: at the start of a nested variation the last move is the one before the branch, in the line it branches from', () => {
  // main: a1-b1 b1-c1 a2-b2; variation 1 replaces b1-c1 with a3-b3 b3-c3 (nested: replaces b3-c3 with c1-c2)
  const text = 'game\n  size 2x2\n  moves a1-b1 b1-c1 (a3-b3 b3-c3 (c1-c2 c2-c3)) a2-b2\n';
  const report = analyse(text);
  const row = text.split('\n')[2];
  const inner = row.indexOf('(c1-c2');
  const start = boardView(report, { uri: 'x', position: { line: 2, character: inner } })!;
  assert.ok(start.variation, 'the nested variation’s board');
  // the position after a1-b1 a3-b3, reached in the outer variation by its first move
  const outerFirst = boardView(report, { uri: 'x', position: { line: 2, character: row.indexOf('a3-b3') + 1 } })!;
  assert.deepEqual(start.drawn, outerFirst.drawn, 'the same position');
  assert.deepEqual(start.lastMove, outerFirst.lastMove, 'a3-b3 is marked, as in the outer variation');
  assert.ok(start.lastMove);
  // a nested variation on the outer one's first move goes back to the main line for its last move
  const text2 = 'game\n  size 2x2\n  moves a1-b1 b1-c1 (a3-b3 (c1-c2) b3-c3) a2-b2\n';
  const report2 = analyse(text2);
  const row2 = text2.split('\n')[2];
  const start2 = boardView(report2, { uri: 'x', position: { line: 2, character: row2.indexOf('(c1-c2') } })!;
  const main = boardView(report2, { uri: 'x', position: { line: 2, character: 0 }, ply: 1 })!;
  assert.deepEqual(start2.drawn, main.drawn);
  assert.deepEqual(start2.lastMove, main.lastMove, 'a1-b1, on the main line');
  assert.ok(start2.lastMove);
});

test('board: no move is written into an entry whose comment is left open (it would be read as part of it)', () => {
  // found by an audit: `moves a1-b1 b1-c1 {note` took the board's a3-b3 into the comment
  const text = ['game "t"', '  size 2x2', '  moves a1-b1 b1-c1 {🎲 note', ''].join('\n');
  const report = analyse(text);
  const r = playLine(report, { uri: 'x', position: { line: 2, character: 9 }, line: 'a3-b3' });
  assert.equal(r.edit, undefined);
  assert.match(r.error ?? '', /not closed: close it first/);
  const closed = text.replace('note', 'note}');
  const end = { line: 2, character: closed.split('\n')[2].length };
  const ok = playLine(analyse(closed), { uri: 'x', position: end, line: 'a3-b3' });
  assert.equal(apply(closed, ok).split('\n')[2], '  moves a1-b1 b1-c1 {🎲 note} a3-b3');
});

// Found by an audit: a comment after a move's variations was kept by no move, and a move played at
// the end went in before it, so the comment then read as the new move's.
test('board: a comment after a move’s variations is the move’s, and a move played after it goes after the comment', () => {
  const text = 'game "e2"\n  size 2x2\n  moves a1-b1 {first} (a3-b3 {alt}) {c\n   more}\n';
  const report = analyse(text);
  const moves = report.entries[0].moves;
  assert.equal(moves.length, 1);
  assert.equal(moves[0].comment, 'first c more');
  assert.equal(moves[0].variations[0].moves[0].comment, 'alt');
  const view = boardView(report, { uri: 'x', position: { line: 3, character: 8 } });
  assert.equal(view?.lastMoveComment, 'first c more');
  const played = playLine(report, { uri: 'x', position: { line: 3, character: 8 }, ply: 1, line: 'b1-c1' });
  const after = apply(text, played);
  assert.equal(after.split('\n').slice(2, 4).join('\n'), '  moves a1-b1 {first} (a3-b3 {alt}) {c\n   more} b1-c1');
  const again = analyse(after);
  assert.deepEqual(
    again.entries[0].moves.map((m) => [m.move, m.comment]),
    [
      ['a1-b1', 'first c more'],
      ['b1-c1', null],
    ],
  );
  // a glyph after the variations is still no glyph of the move
  assert.ok(analyse(text.replace('{c', '?? {c')).diagnostics.some((d) => d.code === 'bad-glyph'));
});
