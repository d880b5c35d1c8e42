/** Counting and listing: the small pieces every sentence of the phrasebook is made of, and the words all sections share. */

/** A value no proof has reached yet, in one word for every reader. */
export const VALUE_UNKNOWN = 'value unknown';
/** An entry without a title. */
export const UNTITLED = '(untitled)';

/** "1 box", "3 boxes", "1 move", "2 moves". */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${Math.abs(n) === 1 ? one : many}`;
}

/** "1 box", "3 boxes". */
export function boxes(n: number): string {
  return plural(n, 'box', 'boxes');
}

/** A value with its sign: "+2", "-1", "0"; "?" when unknown. */
export function signed(v: number | null): string {
  if (v === null) return '?';
  return v > 0 ? `+${v}` : String(v);
}

/**
 * The value proven by bounds that met (lower = upper, both finite), else null. A position whose
 * search is still running keeps its value unset while its proven bounds may already have met (the
 * analysis promotes met bounds only once the search is done): every sentence reads them as the value.
 */
export function metBounds(lower: number | null, upper: number | null): number | null {
  return lower !== null && lower === upper && Number.isFinite(lower) ? lower : null;
}

/** "Game over" → sentence case for a text that starts a line or a title. */
export function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** " (and 4 more)" after the first `shown` of `total` items; "" when all are shown. */
export function andMore(total: number, shown: number): string {
  return total > shown ? ` (and ${total - shown} more)` : '';
}

/**
 * Alternatives, the one way they are written: "a", "a or b", "a, b or c"; beyond `max` items
 * "a, b or c (and 4 more)".
 */
export function listOr(items: readonly string[], max = Infinity): string {
  const shown = items.slice(0, max);
  const more = andMore(items.length, shown.length);
  if (shown.length <= 1) return shown.join('') + more;
  return `${shown.slice(0, -1).join(', ')} or ${shown[shown.length - 1]}${more}`;
}

/** Every item of a set (not alternatives): "a, b, c"; beyond `max` items "a, b, c (and 4 more)". */
export function listAll(items: readonly string[], max = Infinity, separator = ', '): string {
  const shown = items.slice(0, max);
  return shown.join(separator) + andMore(items.length, shown.length);
}

/** Where in a record a position is: "after move 7". */
export function afterMoveWords(ply: number): string {
  return `after move ${ply}`;
}
