/**
 * Components of abstract (strings-and-coins style) endgames: isolated chains and loops.
 *
 * A chain of N boxes is written `N` (N >= 1), a loop of N boxes `Nl` (engine: N >= 3; the
 * notation's parser asks for N >= 4 because a loop on a board has at least 4 boxes; odd loops
 * only exist in strings-and-coins). Both algorithms work on counts (a multiset), never on arrays
 * of components, so 100,000 components cost nothing.
 */

export type ComponentKind = 'chain' | 'loop';
export type Component = { kind: ComponentKind; size: number };

/** The multiset of an endgame: size -> how many, separately for chains and loops. */
export interface ComponentCounts {
  chains: Map<number, number>;
  loops: Map<number, number>;
}

/** One distinct component type with its multiplicity. */
export interface ComponentType extends Component {
  count: number;
  name: string;
}

export const MIN_LOOP = 3;
export const MIN_NOTATION_LOOP = 4;

export function componentName(c: Component): string {
  return c.kind === 'loop' ? `${c.size}l` : `${c.size}`;
}

/** Throws RangeError for impossible components (chain < 1, loop < 3, non-integers). */
export function checkComponent(c: Component): void {
  if (!Number.isSafeInteger(c.size)) throw new RangeError(`component size ${c.size} is not an integer`);
  if (c.kind === 'chain' && c.size < 1) throw new RangeError(`a chain needs at least 1 box (got ${c.size})`);
  if (c.kind === 'loop' && c.size < MIN_LOOP)
    throw new RangeError(`a loop needs at least ${MIN_LOOP} boxes (got ${c.size})`);
  if (c.kind !== 'chain' && c.kind !== 'loop')
    throw new RangeError(`unknown component kind ${String((c as Component).kind)}`);
}

export function emptyCounts(): ComponentCounts {
  return { chains: new Map(), loops: new Map() };
}

export function cloneCounts(g: ComponentCounts): ComponentCounts {
  return { chains: new Map(g.chains), loops: new Map(g.loops) };
}

export function countOf(g: ComponentCounts, c: Component): number {
  return (c.kind === 'loop' ? g.loops : g.chains).get(c.size) ?? 0;
}

/** Add `k` copies of c (k may be negative to remove; throws when removing more than present). */
export function addComponent(g: ComponentCounts, c: Component, k = 1): void {
  checkComponent(c);
  const m = c.kind === 'loop' ? g.loops : g.chains;
  const n = (m.get(c.size) ?? 0) + k;
  if (n < 0) throw new RangeError(`cannot remove ${componentName(c)}: not present`);
  if (n === 0) m.delete(c.size);
  else m.set(c.size, n);
}

export function removeComponent(g: ComponentCounts, c: Component, k = 1): void {
  addComponent(g, c, -k);
}

/** Counts from components given as an array/iterable, counts, or notation text (throws on bad text). */
export function countsOf(input: Iterable<Component> | ComponentCounts | string): ComponentCounts {
  if (typeof input === 'string') {
    const r = parseComponents(input);
    if (!r.ok) throw new SyntaxError(r.errors.map((e) => e.message).join('; '));
    return r.counts;
  }
  if (isCounts(input)) {
    const g = emptyCounts();
    for (const [s, n] of input.chains) if (n > 0) addComponent(g, { kind: 'chain', size: s }, n);
    for (const [s, n] of input.loops) if (n > 0) addComponent(g, { kind: 'loop', size: s }, n);
    return g;
  }
  const g = emptyCounts();
  for (const c of input) addComponent(g, c, 1);
  return g;
}

export function isCounts(x: unknown): x is ComponentCounts {
  return (
    typeof x === 'object' &&
    x !== null &&
    (x as ComponentCounts).chains instanceof Map &&
    (x as ComponentCounts).loops instanceof Map
  );
}

/** Distinct types, canonical order: chains by size, then loops by size. */
export function typesOf(g: ComponentCounts): ComponentType[] {
  const out: ComponentType[] = [];
  for (const s of [...g.chains.keys()].sort((a, b) => a - b)) {
    const count = g.chains.get(s)!;
    if (count > 0) out.push({ kind: 'chain', size: s, count, name: `${s}` });
  }
  for (const s of [...g.loops.keys()].sort((a, b) => a - b)) {
    const count = g.loops.get(s)!;
    if (count > 0) out.push({ kind: 'loop', size: s, count, name: `${s}l` });
  }
  return out;
}

export function totalBoxes(g: ComponentCounts): number {
  let n = 0;
  for (const [s, k] of g.chains) n += s * k;
  for (const [s, k] of g.loops) n += s * k;
  return n;
}

export function componentCount(g: ComponentCounts): number {
  let n = 0;
  for (const k of g.chains.values()) n += k;
  for (const k of g.loops.values()) n += k;
  return n;
}

/** True when the papers' closed form applies: only long chains (>= 3) and even loops (>= 4). */
export function isSimpleLoony(g: ComponentCounts): boolean {
  for (const [s, k] of g.chains) if (k > 0 && s < 3) return false;
  for (const [s, k] of g.loops) if (k > 0 && (s < 4 || s % 2 !== 0)) return false;
  return true;
}

/** Canonical text key: `3^5+4l+8l` (chains ascending, then loops ascending). Empty: ``. */
export function countsKey(g: ComponentCounts): string {
  return typesOf(g)
    .map((t) => (t.count === 1 ? t.name : `${t.name}^${t.count}`))
    .join('+');
}

/** Human form: `3 + 3 + 4l` for small multisets, `3^40 + 4l` when something repeats more than 3 times. */
export function formatCounts(g: ComponentCounts): string {
  const parts: string[] = [];
  for (const t of typesOf(g)) {
    if (t.count > 3) parts.push(`${t.name}^${t.count}`);
    else for (let i = 0; i < t.count; i++) parts.push(t.name);
  }
  return parts.length ? parts.join(' + ') : '(empty)';
}

/** Expand to an array (only for small multisets: throws above `limit` components). */
export function componentsOf(g: ComponentCounts, limit = 100_000): Component[] {
  if (componentCount(g) > limit) throw new RangeError(`more than ${limit} components`);
  const out: Component[] = [];
  for (const t of typesOf(g)) for (let i = 0; i < t.count; i++) out.push({ kind: t.kind, size: t.size });
  return out;
}

export interface ParseIssue {
  message: string;
  start: number;
  end: number;
}

export type ComponentNameParse = { ok: true; component: Component } | { ok: false; message: string };

/** Parse one name: `3`, `4l`, `4L`, `4ℓ`. Loops need >= `minLoop` boxes (default 4, the notation's rule). */
export function parseComponentName(text: string, minLoop = MIN_NOTATION_LOOP): ComponentNameParse {
  const m = /^([0-9]+)([lLℓ]?)$/.exec(text);
  if (!m)
    return { ok: false, message: `'${text}' is not a component: write N for a chain of N boxes or Nl for a loop` };
  const size = Number(m[1]);
  const kind: ComponentKind = m[2] ? 'loop' : 'chain';
  if (!Number.isSafeInteger(size)) return { ok: false, message: `'${text}': size too large` };
  if (kind === 'chain' && size < 1) return { ok: false, message: `'${text}': a chain needs at least 1 box` };
  if (kind === 'loop' && size < minLoop)
    return { ok: false, message: `'${text}': a loop needs at least ${minLoop} boxes` };
  return { ok: true, component: { kind, size } };
}

export type ComponentsParse =
  | { ok: true; counts: ComponentCounts; notes: ParseIssue[] }
  | { ok: false; errors: ParseIssue[]; counts: ComponentCounts; notes: ParseIssue[] };

export interface ParseComponentsOptions {
  /** Smallest loop accepted (default 4, as in the notation; the engine itself handles 3). */
  minLoop?: number;
  /** Refuse more than this many components in total (default 10,000,000). */
  maxComponents?: number;
}

/**
 * Parse `3 + 4l + 8l`, `3,3,4l`, `6l^9`, `6l*9`, `4ℓ^101`. Offsets in issues are into `text`.
 * Notes (not errors): odd loops (strings-and-coins only).
 */
export function parseComponents(text: string, options: ParseComponentsOptions = {}): ComponentsParse {
  const minLoop = options.minLoop ?? MIN_NOTATION_LOOP;
  const maxComponents = options.maxComponents ?? 10_000_000;
  const counts = emptyCounts();
  const errors: ParseIssue[] = [];
  const notes: ParseIssue[] = [];
  let total = 0;
  const re = /[^\s+,]+/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    const tok = m[0];
    const start = m.index,
      end = start + tok.length;
    const rep = /^([^^*]+)(?:[\^*]([0-9]+))?$/.exec(tok);
    if (!rep) {
      errors.push({ message: `'${tok}' is not a component (repeat with ^N, e.g. 6l^9)`, start, end });
      continue;
    }
    const r = parseComponentName(rep[1], minLoop);
    if (!r.ok) {
      errors.push({ message: r.message, start, end });
      continue;
    }
    const k = rep[2] === undefined ? 1 : Number(rep[2]);
    if (!Number.isSafeInteger(k) || k < 1) {
      errors.push({ message: `'${tok}': repeat count must be at least 1`, start, end });
      continue;
    }
    total += k;
    if (total > maxComponents) {
      errors.push({ message: `more than ${maxComponents} components`, start, end });
      break;
    }
    if (r.component.kind === 'loop' && r.component.size % 2 === 1) {
      notes.push({
        message: `${r.component.size}l: an odd loop exists only in strings-and-coins, not on a dots-and-boxes board`,
        start,
        end,
      });
    }
    addComponent(counts, r.component, k);
  }
  return errors.length ? { ok: false, errors, counts, notes } : { ok: true, counts, notes };
}
