/**
 * JSON on stdout a piece at a time, as JSON.stringify would write it, without ever making the whole
 * text: the report of one record with 200,000 variations is longer than the longest string
 * JavaScript can make (found by an audit: `dab check --json` died with "Invalid string length" and
 * printed nothing). Values are the plain data of cli/json.ts: objects, arrays, strings, numbers,
 * booleans and null; as JSON.stringify does, keys whose value is undefined are left out, undefined in
 * an array is null, and a value with `toJSON` is written as what it returns.
 */
import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Characters gathered before they are written. */
const CHUNK = 1 << 20;

export class JsonWriter {
  private parts: string[] = [];
  private held = 0;

  constructor(private readonly out: (s: string) => void = (s) => process.stdout.write(s)) {}

  /** Raw text (punctuation around values). */
  text(s: string): void {
    this.parts.push(s);
    this.held += s.length;
    if (this.held >= CHUNK) this.flush();
  }

  /**
   * `value` as JSON.stringify(value, null, indent) writes it (indent 0: compact), its lines after the
   * first indented by `depth` levels more (the value sits that deep in a document written around it).
   */
  value(value: unknown, indent = 2, depth = 0): void {
    this.write(jsonable(value, ''), indent, depth);
  }

  /** A value already through `jsonable`: its members are converted once each, as JSON.stringify does. */
  private write(v: unknown, indent: number, depth: number): void {
    if (v === null || typeof v !== 'object') return this.text(JSON.stringify(v ?? null));
    const pad = indent > 0 ? '\n' + ' '.repeat(indent * (depth + 1)) : '';
    const end = indent > 0 ? '\n' + ' '.repeat(indent * depth) : '';
    if (Array.isArray(v)) {
      if (v.length === 0) return this.text('[]');
      v.forEach((x, i) => {
        this.text(i === 0 ? '[' + pad : ',' + pad);
        this.write(jsonable(x, String(i)) ?? null, indent, depth + 1);
      });
      return this.text(end + ']');
    }
    const members = Object.entries(v as Record<string, unknown>)
      .map(([k, x]) => [k, jsonable(x, k)] as const)
      .filter(([, x]) => x !== undefined);
    if (members.length === 0) return this.text('{}');
    members.forEach(([k, x], i) => {
      this.text((i === 0 ? '{' + pad : ',' + pad) + JSON.stringify(k) + (indent > 0 ? ': ' : ':'));
      this.write(x, indent, depth + 1);
    });
    this.text(end + '}');
  }

  flush(): void {
    if (this.parts.length === 0) return;
    this.out(this.parts.join(''));
    this.parts = [];
    this.held = 0;
  }
}

/**
 * What JSON.stringify writes for `x` under `key`: what its toJSON returns, if it has one; undefined
 * for what it leaves out (undefined, functions, symbols).
 */
function jsonable(x: unknown, key: string): unknown {
  if (x !== null && typeof x === 'object' && typeof (x as { toJSON?: unknown }).toJSON === 'function')
    x = (x as { toJSON: (k: string) => unknown }).toJSON(key);
  if (typeof x === 'bigint') throw new TypeError('Do not know how to serialize a BigInt');
  return typeof x === 'function' || typeof x === 'symbol' ? undefined : x;
}

/**
 * The JSON of a folder, `{ "diagnostics": [...], "entries": [...], "files": [...] }`, written as
 * writeArrays wrote it from all the files' reports at once, but from one report at a time: each
 * report's elements go to a temporary file per array as the report is made, and the arrays are
 * copied out in order at the end. A folder of large files held every report until the end (found by
 * an audit: 1.8 GB for three files of 50,000 variations); now memory holds one file's report. A lone
 * report (one file read) is kept as it is, and written as a document of its own (`single`).
 */
export class FolderJson<T> {
  private first: T | undefined;
  private count = 0;
  private dir: string | undefined;
  private arrays: { name: string; fd: number; path: string; n: number; w: JsonWriter }[] = [];

  constructor(
    private readonly split: (report: T) => Record<string, unknown[]>,
    private readonly single: (report: T) => void,
  ) {}

  add(report: T): void {
    if (++this.count === 1) {
      this.first = report;
      return;
    }
    if (this.first !== undefined) {
      this.spool(this.first);
      this.first = undefined;
    }
    this.spool(report);
  }

  private spool(report: T): void {
    const parts = this.split(report);
    if (this.dir === undefined) {
      this.dir = mkdtempSync(join(tmpdir(), 'dab-json-'));
      this.arrays = Object.keys(parts).map((name, i) => {
        const path = join(this.dir!, `${i}.json`);
        const fd = openSync(path, 'w');
        return { name, fd, path, n: 0, w: new JsonWriter((s) => void writeSync(fd, s)) };
      });
    }
    for (const a of this.arrays)
      for (const x of parts[a.name]) {
        a.w.text(`${a.n++ ? ',' : ''}\n    `);
        a.w.value(x, 0);
      }
  }

  /** Write the document to `out` and remove the temporary files. */
  finish(out: (s: string) => void = (s) => process.stdout.write(s)): void {
    try {
      if (this.count === 1) return this.single(this.first as T);
      if (this.count === 0) return;
      out('{');
      this.arrays.forEach((a, i) => {
        a.w.flush();
        closeSync(a.fd);
        a.fd = -1;
        out(`\n  ${JSON.stringify(a.name)}: [`);
        copyOut(a.path, out);
        out(`${a.n ? '\n  ' : ''}]${i < this.arrays.length - 1 ? ',' : ''}`);
      });
      out('\n}\n');
    } finally {
      this.discard();
    }
  }

  /** Remove the temporary files (also when the run ends early). */
  discard(): void {
    for (const a of this.arrays) if (a.fd >= 0) closeSync(a.fd);
    this.arrays = [];
    if (this.dir !== undefined) rmSync(this.dir, { recursive: true, force: true });
    this.dir = undefined;
  }
}

/** A file's text to `out`, a chunk at a time. */
function copyOut(path: string, out: (s: string) => void): void {
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.alloc(CHUNK);
    const decoder = new TextDecoder();
    for (let n; (n = readSync(fd, buf, 0, buf.length, null)) > 0;)
      out(decoder.decode(buf.subarray(0, n), { stream: true }));
    const rest = decoder.decode();
    if (rest) out(rest);
  } finally {
    closeSync(fd);
  }
}
