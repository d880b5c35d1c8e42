/**
 * A real-looking 5x5 game record for the end-to-end test and the README's screenshots: 60 moves
 * played the way club players do (take a box when you can, otherwise a move that gives nothing away,
 * otherwise any), by the generator of bench/server.bench.ts with seed 5. Its first exact value comes
 * at ply 24; moves 25-28 and 35 change the result, 30 and 31 throw away 6 boxes each.
 */
export const RECORD_5X5 = [
  'game "A 5x5 club game"',
  '  players "Alice" "Bob"',
  '  size 5x5',
  '  moves e1-e2 a4-b4 e4-f4 e5-e6 d4-e4 f3-f4 c1-c2 a3-a4 f5-f6 f1-f2 a5-a6 c2-c3 e2-e3 b2-b3 b5-c5 a1-a2 e4-e5 a1-b1 d5-d6 c3-c4 d1-d2 a4-a5 c4-d4 f2-f3 c4-c5 a6-b6 d2-d3 b1-c1 b6-c6 c6-d6 a2-a3 d2-e2 d1-e1 d3-e3 b4-b5 a5-b5 b5-b6 b4-c4 c5-c6 c5-d5 d4-d5 d5-e5 d6-e6 c2-d2 c3-d3 d3-d4 c1-d1 e3-e4 e3-f3 e2-f2 e1-f1 e5-f5 e6-f6 f4-f5 a2-b2 a3-b3 b3-b4 b1-b2 b2-c2 b3-c3',
  '',
].join('\n');

/** 1-based line of `moves` in RECORD_5X5. */
export const RECORD_MOVES_LINE = 4;

/** 1-based column inside the k-th move (1-based) of a `moves` line. */
export function moveColumnIn(line: string, k: number): number {
  const tokens = [...line.matchAll(/[a-f]\d-[a-f]\d/g)];
  return tokens[k - 1].index! + 1 + 2;
}

/** A Markdown article with the record's position after move 40 in a ```dab block. */
export const ARTICLE_MD = [
  '# A 5x5 club game',
  '',
  'After move 40 the chains are all but settled. dab draws the position and proves its value:',
  '',
  '```dab ply=40',
  RECORD_5X5.trimEnd(),
  '```',
  '',
  'An ordinary code block stays a code block:',
  '',
  '```js',
  'const x = 1;',
  '```',
  '',
].join('\n');
