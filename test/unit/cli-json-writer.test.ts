/**
 * The CLI's JSON is written a piece at a time (cli/jsonOut.ts): the same text as JSON.stringify, in
 * pieces of bounded length, so a report longer than the longest string JavaScript can make is
 * written whole (found by an audit: a record of 240,000 variations ended in "Invalid string length").
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JsonWriter } from '../../server/src/cli/jsonOut';
import { mulberry32 } from '../support/random';

function written(value: unknown, indent: number): { text: string; pieces: string[] } {
  const pieces: string[] = [];
  const w = new JsonWriter((s) => pieces.push(s));
  w.value(value, indent);
  w.flush();
  return { text: pieces.join(''), pieces };
}

/** Random plain data with everything JSON.stringify treats specially. */
function randomValue(r: () => number, depth: number): unknown {
  const k = Math.floor(r() * (depth > 3 ? 6 : 9));
  switch (k) {
    case 0:
      return null;
    case 1:
      return r() < 0.5;
    case 2:
      return [Math.floor(r() * 2000) - 1000, r(), NaN, -0, Infinity][Math.floor(r() * 5)];
    case 3:
      return ['', 'a"b\\c', 'line\nbreak', 'é ✓ 😀', '\u2028\u0000', 'x'.repeat(50)][Math.floor(r() * 6)];
    case 4:
      return undefined;
    case 5:
      return { toJSON: (key: string) => `toJSON(${key})` };
    case 6:
    case 7:
      return Array.from({ length: Math.floor(r() * 5) }, () => randomValue(r, depth + 1));
    default: {
      const o: Record<string, unknown> = {};
      for (let i = Math.floor(r() * 5); i > 0; i--)
        o[['a', 'b c', '"q"', 'ü', String(i)][i % 5] + i] = randomValue(r, depth + 1);
      if (r() < 0.2) o.skipped = () => 1;
      return o;
    }
  }
}

test('JsonWriter writes what JSON.stringify writes, compact and indented', () => {
  const r = mulberry32(7);
  for (let i = 0; i < 3000; i++) {
    const v = randomValue(r, 0);
    for (const indent of [0, 2]) {
      const want = JSON.stringify(v, null, indent) ?? 'null';
      assert.equal(written(v, indent).text, want, JSON.stringify(v));
    }
  }
});

test('JsonWriter hands its output over in pieces of bounded length', () => {
  const positions = Array.from({ length: 60_000 }, (_, i) => ({
    ply: i,
    value: null,
    best: ['a1-b1', 'c3-c4'],
    note: 'n'.repeat(20),
  }));
  const { text, pieces } = written({ entries: [{ positions }] }, 2);
  assert.ok(text.length > 8_000_000, `${text.length}`);
  assert.ok(pieces.length > 4);
  assert.ok(Math.max(...pieces.map((p) => p.length)) < 2 * (1 << 20), 'no piece much over the 1 MiB chunk');
  assert.equal(text, JSON.stringify({ entries: [{ positions }] }, null, 2));
});
