/**
 * The CLI's JSON is written a piece at a time (cli/jsonOut.ts): the same text as JSON.stringify, in
 * pieces of bounded length, so a report longer than the longest string JavaScript can make is
 * written whole (found by an audit: a record of 240,000 variations ended in "Invalid string length").
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { FolderJson, JsonWriter } from '../../server/src/cli/jsonOut';
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

/** The folder document as it was written from every report at once (before FolderJson spooled them). */
function folderAtOnce(arrays: Record<string, unknown[]>): string {
  const keys = Object.keys(arrays);
  let s = '{';
  keys.forEach((k, i) => {
    s += `\n  ${JSON.stringify(k)}: [`;
    arrays[k].forEach((x, j) => (s += `${j ? ',' : ''}\n    ${JSON.stringify(x) ?? 'null'}`));
    s += `${arrays[k].length ? '\n  ' : ''}]${i < keys.length - 1 ? ',' : ''}`;
  });
  return s + '\n}\n';
}

test('a folder JSON spooled one report at a time is the document written at once, and leaves no file', () => {
  const r = mulberry32(4141);
  const split = (d: { a: unknown[]; b: unknown[] }) => ({ diagnostics: d.a, entries: d.b, files: [d] });
  const tmp = () => readdirSync(tmpdir()).filter((f) => f.startsWith('dab-json-')).length;
  const before = tmp();
  for (let trial = 0; trial < 200; trial++) {
    const reports = Array.from({ length: Math.floor(r() * 5) }, () => ({
      a: Array.from({ length: Math.floor(r() * 4) }, () => randomValue(r, 0)),
      b: Array.from({ length: Math.floor(r() * 4) }, () => randomValue(r, 0)),
    }));
    const out: string[] = [];
    let single: unknown;
    const f = new FolderJson(split, (d) => (single = d));
    for (const d of reports) f.add(d);
    f.finish((s) => out.push(s));
    if (reports.length === 1) assert.equal(single, reports[0], 'a lone report is written as a document of its own');
    else {
      const all = reports.map(split);
      const expected =
        reports.length === 0
          ? ''
          : folderAtOnce({
              diagnostics: all.flatMap((x) => x.diagnostics),
              entries: all.flatMap((x) => x.entries),
              files: all.flatMap((x) => x.files),
            });
      assert.equal(out.join(''), expected);
    }
    assert.equal(tmp(), before, 'the temporary files are removed');
  }
});
