// The phrasebook's small pieces: one way to list alternatives, one wording of a tied rest, plurals.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  boxes,
  listAll,
  listOr,
  outcome,
  plural,
  predictedFinal,
  resultInWords,
  restWinner,
  roleWinner,
  signed,
  unknownValue,
  valueLabel,
} from '../../server/src/engine/phrasebook';
import {
  BEST_SO_FAR_LABEL,
  boundsInWords,
  estimateLabel,
  insteadWords,
  provenSoFarWords,
  unprovenReasonWords,
} from '../../server/src/engine/phrasebook/proofs';
import { estimateStanding, provenOptimalMoves } from '../../server/src/engine/analysis/prove';
import { graphPointLabel } from '../../server/src/engine/phrasebook/board';
import { searchLimitReached } from '../../server/src/engine/phrasebook/search';
import { boardPly, dblNotConverted, offerDblConversion } from '../../server/src/engine/phrasebook/editor';
import { reviewSummary, wrongValueBoundsMessage } from '../../server/src/engine/phrasebook/moves';
import type { PositionReport } from '../../server/src/engine/analysis/report';

test('alternatives are listed one way, with one wording for the rest left out', () => {
  assert.equal(listOr([]), '');
  assert.equal(listOr(['a1-b1']), 'a1-b1');
  assert.equal(listOr(['a', 'b']), 'a or b');
  assert.equal(listOr(['a', 'b', 'c']), 'a, b or c');
  assert.equal(listOr(['a', 'b', 'c', 'd', 'e'], 3), 'a, b or c (and 2 more)');
  assert.equal(listAll(['a', 'b', 'c'], 2), 'a, b (and 1 more)');
  assert.equal(listAll(['a', 'b'], 2, ' '), 'a b');
});

test('a tied rest is worded the same by player and by role; results and signs', () => {
  assert.equal(restWinner(0, 'Alice', 'Bob'), roleWinner(0));
  assert.equal(restWinner(2, 'Alice', 'Bob'), 'Alice wins the rest by 2');
  assert.equal(restWinner(-1, 'Alice', 'Bob'), 'Bob wins the rest by 1');
  assert.equal(roleWinner(1), 'the controller wins by 1');
  assert.equal(roleWinner(-3), 'the opener wins by 3');
  assert.equal(outcome(3), 'a 3-box win');
  assert.equal(outcome(0), 'a tie');
  assert.equal(signed(2), '+2');
  assert.equal(signed(0), '0');
  assert.equal(signed(null), '?');
  assert.equal(boxes(1), '1 box');
  assert.equal(boxes(3), '3 boxes');
  assert.equal(plural(2, 'entry', 'entries'), '2 entries');
});

test('an unknown value: its proven bounds, and bounds that met read as the value (not "between +1 and +1")', () => {
  const p = { pending: true, lower: -3, upper: 5, note: undefined };
  assert.equal(unknownValue(p), 'searching… (value between -3 and +5)');
  assert.equal(unknownValue({ ...p, pending: false }), 'value unknown (between -3 and +5)');
  assert.equal(unknownValue({ ...p, lower: 1, upper: 1 }), 'value +1 proven (its best moves still being searched)');
  const r = { value: null, pending: true, lower: 1, upper: 1, remaining: 9, controlledValue: null } as never;
  assert.equal(valueLabel(r), 'value +1 · searching…');
  assert.equal(valueLabel({ ...(r as object), lower: -1, upper: 3 } as never), 'value: searching… (-1 to +3)');
});

test('the predicted final score adds the value of the rest to the score', () => {
  // Alice (0) to move, 5-3 up, 8 boxes left, she wins the rest by 2: 5 + 5, 3 + 3.
  const final = predictedFinal([5, 3], 8, 2, 0);
  assert.deepEqual(final, [10, 6]);
  assert.equal(resultInWords(final, ['Alice', 'Bob']), 'Alice wins 10-6');
  assert.equal(resultInWords([4, 4], ['Alice', 'Bob']), 'a 4-4 tie');
});

test('why a record position stayed unproven: every reason has its own sentence, naming the flag that sets it', () => {
  const reasons = ['budget', 'extended', 'probe', 'skipped', 'margin-probe', 'record-budget', 'total-budget'] as const;
  const said = reasons.map((r) => unprovenReasonWords(r, false, 5000));
  assert.equal(new Set(said).size, reasons.length, said.join(' | '));
  for (const s of said) assert.match(s, /^result not proven/);
  assert.match(unprovenReasonWords('margin-probe', true, 5000), /^result proven, margin not: a short search/);
  assert.match(unprovenReasonWords('budget', true, 5000), /^result proven, margin not within 5(\.0)? s/);
  assert.match(
    unprovenReasonWords('extended', false, 5000),
    /--budget-ms.*second, result-only search.*--record-budget-ms/,
  );
  assert.match(unprovenReasonWords('record-budget', false, 5000), /--record-budget-ms/);
  assert.match(unprovenReasonWords('total-budget', false, 5000), /--total-budget-ms/);
});

test('a position given up on: its attempts and the longest, and a last attempt cut short by the budget says so', () => {
  assert.equal(
    searchLimitReached({ ms: 10_000 }, 4, 10_000),
    'not solved within the search limit (4 attempts, the longest 10 s)',
  );
  // found by an audit: "7.0 s per attempt" while the setting was 10 s (the document's budget cut the last one)
  const cut = searchLimitReached({ ms: 7_000 }, 4, 10_000);
  assert.match(cut, /the longest 7\.0 s, cut short of 10 s by this document's background budget/);
  assert.doesNotMatch(cut, /per attempt/);
  assert.equal(
    searchLimitReached({ nodes: 1_000_000 }, 1),
    'not solved within the search limit (1 attempt of 1,000,000 positions)',
  );
});

test("the review's totals say they are sums of each move's loss (which may exceed the boxes on the board)", () => {
  const e = {
    players: ['Alice', 'Bob'],
    pending: false,
    summary: { lost: [70, 3], lostAtLeast: [false, false], resultChanging: 1, unknownMoves: 0 },
  } as unknown as Parameters<typeof reviewSummary>[0];
  assert.equal(reviewSummary(e), "Alice's errors add up to 70 boxes, Bob's to 3 boxes; 1 result-changing error");
});

test('a wrong value claim against bounds that met says the proven value, not "between -3 and -3" (found by an audit)', () => {
  const start = { remaining: 9, toMove: 0 } as unknown as PositionReport;
  const players: [string, string] = ['Alice', 'Bob'];
  assert.equal(
    wrongValueBoundsMessage(3, start, -3, -3, players),
    'value 3 is wrong: 9 boxes are left, and the value for Alice to move is proven to be -3',
  );
  assert.equal(
    wrongValueBoundsMessage(3, start, -5, 1, players),
    'value 3 is wrong: 9 boxes are left, and the value for Alice to move is proven to be between -5 and +1',
  );
  assert.equal(
    wrongValueBoundsMessage(2, start, -9, 9, players),
    'value 2 is wrong: 9 boxes are left, so the value for Alice to move is odd',
  );
});

test('bounds that met read as the value in the graph label and the progress line (found by a review)', () => {
  assert.equal(graphPointLabel('Alice', 3, null, [-3, -3], false), 'after move 3: Alice -3');
  assert.equal(graphPointLabel('Alice', 0, null, [0, 0], true), 'start: even, mistake');
  assert.equal(
    graphPointLabel('Alice', 3, null, [-3, 1], false),
    'after move 3: value unknown, Alice between −3 and +1',
  );
  assert.equal(provenSoFarWords(17, { status: 'bounds', value: null, lower: 5, upper: 5 }, 'win'), 'ply 17 exact (+5)');
  assert.equal(
    provenSoFarWords(17, { status: 'bounds', value: null, lower: 1, upper: 25 }, 'win'),
    'ply 17 win proven for the player to move',
  );
});

test('what is proven about a best move found so far, and what to play instead of a mistake', () => {
  const pos = (o: Partial<Parameters<typeof estimateStanding>[0]>) => ({
    exact: false,
    value: null,
    score: [0, 0] as [number, number],
    toMove: 0 as const,
    ...o,
  });
  assert.equal(estimateStanding(pos({})), 'unproven');
  assert.equal(estimateStanding(pos({ exact: true, value: 3, bestSoFarLower: 3 })), 'optimal');
  // exact, the move below the value: it keeps the win all the same
  assert.equal(estimateStanding(pos({ exact: true, value: 3, bestSoFarLower: 1 })), 'keeps-win');
  // the lead counts: 2 boxes behind, a move worth at least 1 does not keep anything proven
  assert.equal(estimateStanding(pos({ bestSoFarLower: 1, score: [0, 2] })), 'unproven');
  assert.equal(estimateStanding(pos({ bestSoFarLower: 3, score: [0, 2] })), 'keeps-win');
  // the player to move is the second player: their lead is score[1] - score[0]
  assert.equal(estimateStanding(pos({ bestSoFarLower: 1, score: [0, 2], toMove: 1 })), 'keeps-win');
  // 2 boxes ahead, a move worth at least -2 keeps at least a tie: not a win (and a proven tie is exact)
  assert.equal(estimateStanding(pos({ bestSoFarLower: -2, score: [2, 0] })), 'unproven');
  assert.equal(estimateLabel('unproven'), BEST_SO_FAR_LABEL);
  for (const s of ['optimal', 'keeps-win'] as const) assert.match(estimateLabel(s), /proven/);
  const code = (m: string) => `\`${m}\``;
  assert.equal(insteadWords({ best: ['a1-b1', 'c1-c2'] }, code), 'best: `a1-b1` or `c1-c2`');
  assert.equal(
    insteadWords({ best: [], provenInstead: { moves: ['d4-e4'], standing: 'optimal' } }),
    'best: d4-e4 (proven; not every move was searched)',
  );
  assert.equal(
    insteadWords({ best: [], provenInstead: { moves: ['d5-d6'], standing: 'keeps-win' } }),
    'instead, d5-d6 keeps the win (proven)',
  );
  assert.equal(
    insteadWords({ best: [], provenInstead: { moves: ['c3-c4'], standing: 'better', atLeast: 3, playedAtMost: 1 } }),
    'instead, c3-c4 is proven better (worth at least +3, the move played at most +1)',
  );
  assert.equal(insteadWords({ best: [] }), '');
});

test('moves proven optimal where the optimal moves were not all searched', () => {
  const p = {
    exact: true,
    value: 1,
    best: [] as string[],
    moveValues: new Map<string, number | null>([
      ['a1-b1', 1],
      ['b1-c1', -1],
      ['c1-d1', null],
    ]),
    bestSoFar: ['d1-e1'],
    bestSoFarLower: 1,
  };
  assert.deepEqual(provenOptimalMoves(p), ['a1-b1', 'd1-e1']);
  assert.deepEqual(provenOptimalMoves({ ...p, bestSoFarLower: -1 }), ['a1-b1']);
  assert.deepEqual(provenOptimalMoves({ ...p, best: ['a1-b1'] }), [], 'all known: nothing to add');
  assert.deepEqual(provenOptimalMoves({ ...p, exact: false, value: null }), [], 'no value, no optimal move');
});

test('proven bounds in words: what is proven comes first, an unproven result last', () => {
  assert.equal(
    boundsInWords(-1, 25, 25, 0, 'A', 'B'),
    'the rest is between B by 1 and A by 25; the result is not proven',
  );
  assert.equal(boundsInWords(1, 25, 25, 0, 'A', 'B'), 'A wins; A wins the rest by at least 1');
  assert.equal(boundsInWords(-25, 25, 25, 0, 'A', 'B'), 'nothing proven yet (the rest: 25 boxes)');
});

// Found by a review: the count was said twice ("dab: 2 2 errors …") when the messages moved here.
test("the extension's messages: counts said once, the .dbl offer names what the file reads as", () => {
  assert.equal(dblNotConverted(2), 'dab: 2 errors in this .dbl file (see Problems); nothing was converted.');
  assert.equal(dblNotConverted(1), 'dab: 1 error in this .dbl file (see Problems); nothing was converted.');
  assert.match(offerDblConversion('game'), /It reads as a game\. Convert it to \.dab\?$/);
  assert.match(offerDblConversion(undefined), /It has errors \(see Problems\)\. Convert it to \.dab\?$/);
  assert.equal(boardPly(3, 10), 'move 3 of 10');
  assert.equal(boardPly(3, 10, 2), 'move 3 of a variation (instead of move 2)');
});
