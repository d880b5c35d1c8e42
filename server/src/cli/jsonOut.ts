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
  value(value: unknown, indent = 2, depth = 0, key = ''): void {
    const v = toJsonValue(value, key);
    if (v === null || typeof v !== 'object') {
      this.text(JSON.stringify(v === undefined ? null : v));
      return;
    }
    const pad = indent > 0 ? '\n' + ' '.repeat(indent * (depth + 1)) : '';
    const end = indent > 0 ? '\n' + ' '.repeat(indent * depth) : '';
    const colon = indent > 0 ? ': ' : ':';
    if (Array.isArray(v)) {
      if (v.length === 0) return this.text('[]');
      this.text('[');
      v.forEach((x, i) => {
        this.text(i === 0 ? pad : ',' + pad);
        const y = toJsonValue(x, String(i));
        this.value(y === undefined || typeof y === 'function' || typeof y === 'symbol' ? null : y, indent, depth + 1);
      });
      return this.text(end + ']');
    }
    const entries = Object.entries(v as Record<string, unknown>)
      .map(([k, x]) => [k, toJsonValue(x, k)] as const)
      .filter(([, x]) => x !== undefined && typeof x !== 'function' && typeof x !== 'symbol');
    if (entries.length === 0) return this.text('{}');
    this.text('{');
    entries.forEach(([k, x], i) => {
      this.text((i === 0 ? pad : ',' + pad) + JSON.stringify(k) + colon);
      this.value(x, indent, depth + 1, k);
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

function toJsonValue(x: unknown, key: string): unknown {
  if (x !== null && typeof x === 'object' && typeof (x as { toJSON?: unknown }).toJSON === 'function')
    return (x as { toJSON: (k: string) => unknown }).toJSON(key);
  if (typeof x === 'bigint') throw new TypeError('Do not know how to serialize a BigInt');
  return x;
}
