// The quick fix (features/codeActions.ts): the best line as a variation after a move that throws
// boxes away, written where the notation reads it as one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeText } from '../../server/src/engine/analysis/analyzeDocument';
import { createSearchCache } from '../../server/src/cli/search';
import { codeActions } from '../../server/src/features/codeActions';
import { bruteForce } from '../../server/src/engine/solver';
import type { BoardState } from '../../server/src/engine/board/state';
import type { Evaluation } from '../../server/src/engine/analysis/evaluation';

const search = createSearchCache({ timeBudgetMs: 5000 });
const analyse = (text: string) => analyzeText(text, { search: search.lookup });

/** The quick fix at `line`:`character`, applied to the text. */
function fixed(text: string, line: number, character: number): string | undefined {
  const report = analyse(text);
  const actions = codeActions(
    report,
    {
      textDocument: { uri: 'x' },
      range: { start: { line, character }, end: { line, character } },
      context: { diagnostics: [] },
    },
    () => undefined,
  );
  if (actions.length === 0) return undefined;
  const [edit] = actions[0].edit!.changes!.x;
  const lines = text.split('\n');
  const { start } = edit.range;
  lines[start.line] =
    lines[start.line].slice(0, start.character) + edit.newText + lines[start.line].slice(start.character);
  return lines.join('\n');
}

test('quick fix: after a written move, and after the bracket of a littlegolem or SGF turn (found by a review)', () => {
  // a2-b2 (hba) gives away 2 boxes
  const plain = fixed('game\n  size 2x2\n  moves a1-b1 b1-c1 a1-a2 a2-b2 {oops}\n', 2, 26);
  assert.match(plain!, /moves a1-b1 b1-c1 a1-a2 a2-b2 \{oops\} \([a-d][1-3]-[a-d][1-3][^)]*\)\n/);
  for (const text of [
    'game\n  size 2x2\n  moves ;b[haa];r[hab];b[vaa];r[hba]\n',
    'game\n  size 2x2\n  moves (;B[haa];W[hab];B[vaa];W[hba]C[oops])\n',
  ]) {
    const col = text.split('\n')[2].indexOf('hba');
    const after = fixed(text, 2, col + 1);
    assert.ok(after, text);
    // the variation stands after the ']' (and the comment), never inside the bracket
    assert.match(after, /\[hba\](?:C\[oops\])? \(/, after);
    const again = analyse(after);
    assert.deepEqual(
      again.diagnostics.filter((d) => d.severity === 'error').map((d) => d.message),
      [],
      after,
    );
    assert.equal(again.entries[0].moves[3].variations.length, 1, after);
  }
});

test('quick fix: where the optimal moves were not all searched, the one a search proved optimal is written', () => {
  // every position exact (from the brute force) but no optimal move listed: only a proven best move so far
  const proven = (st: BoardState): Evaluation => {
    const bf = bruteForce(st);
    const pick = bf.best[bf.best.length - 1];
    return {
      status: 'exact',
      method: 'search',
      value: bf.value,
      lower: bf.value,
      upper: bf.value,
      best: [],
      bestSoFar: pick,
      bestSoFarLower: bf.value,
    };
  };
  const text = 'game\n  size 2x2\n  moves a1-b1 b1-c1 a1-a2 a2-b2 {oops}\n';
  const report = analyzeText(text, { search: proven });
  const m = report.entries[0].moves[3];
  assert.ok(m.loss! > 0 && m.best.length === 0 && m.provenInstead?.standing === 'optimal', JSON.stringify(m));
  const actions = codeActions(
    report,
    {
      textDocument: { uri: 'x' },
      range: { start: { line: 2, character: 26 }, end: { line: 2, character: 26 } },
      context: { diagnostics: [] },
    },
    () => undefined,
  );
  assert.equal(actions.length, 1);
  const newText = actions[0].edit!.changes!.x[0].newText;
  assert.ok(newText.startsWith(` (${m.provenInstead!.moves[0]}`), newText);
  // the move written is optimal in truth
  const before = report.entries[0].positions[3].state!;
  const g = before.geometry;
  const bf = bruteForce(before);
  assert.ok(bf.best.map((l) => g.lineName(l)).includes(m.provenInstead!.moves[0]));
  // with no proven move (an estimate only), no fix
  const guessed = analyzeText(text, { search: (st) => ({ ...proven(st), bestSoFarLower: undefined }) });
  assert.equal(guessed.entries[0].moves[3].provenInstead, undefined);
});
