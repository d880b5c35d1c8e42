/**
 * JSON on stdout a piece at a time, as JSON.stringify would write it, without ever making the whole
 * text: the report of one record with 200,000 variations is longer than the longest string
 * JavaScript can make (found by an audit: `dab check --json` died with "Invalid string length" and
 * printed nothing). Values are the plain data of cli/json.ts: objects, arrays, strings, numbers,
 * booleans and null; as JSON.stringify does, keys whose value is undefined are left out, undefined in
 * an array is null, and a value with `toJSON` is written as what it returns.
 */

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
