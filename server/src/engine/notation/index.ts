/**
 * Public API of the `.dab` notation: parse a document, build the meaning of each entry, and find
 * what lies under a cursor. Pure TypeScript; ranges are 0-based UTF-16 like the LSP.
 */
import type { ByteCheck, Diagnostic, Entry, MoveToken, Range } from './ast';
import { buildEntry, type EntryModel } from './model';
import { parseDab } from './parse';
import { MAX_DIAGNOSTICS } from '../limits';

export * from './ast';
export { parseDab } from './parse';
export { resolvePlayer, initialOf, FIELD_NAMES } from './names';
export { splitMoveWord } from './moves';
export { dotRowLike } from './diagram';
export { writeDiagram } from './writeDiagram';
export { MAX_COMPONENTS, MAX_DIAGNOSTICS, MAX_FILE_COMPONENTS } from '../limits';
export { buildEntry, allLines } from './model';
export { writtenEnd, variationEnd, later, hasOpenText } from './text';
export type { EntryModel, LineModel, MoveModel, VariationModel, PlayStepModel, EndgameModel, SetupLine } from './model';

export interface DabDocument {
  entries: Entry[];
  models: EntryModel[];
  /** Parser and model diagnostics together, sorted by position. */
  diagnostics: Diagnostic[];
  /** The work bound the document was read with (ReadOptions.maxWork), when it left entries out. */
  maxWork?: number;
  /** Who set that bound (ReadOptions.boundBy), for the message that says so. */
  boundBy?: WorkBoundBy;
  /**
   * Where the entries not even read begin: every entry costs a position of work at least, so past
   * maxWork entries the rest are left out unread (ParseResult.unreadFrom).
   */
  unreadFrom?: Range;
}

/** Who reads a document under a work bound: the editor, or the command line (dab analyze/check). */
export type WorkBoundBy = 'editor' | 'cli';

export interface ReadOptions {
  /**
   * The most work the entries' models may take, in positions: a board entry costs its written moves
   * (variations included) plus one, an endgame ENDGAME_WORK plus its components and play steps. The
   * entries from the first that would pass it on are left out (EntryModel.leftOut): their fields are
   * read but their moves are not replayed, so a huge file costs a bounded time after its parse
   * (the editor's bound, EDITOR_MAX_POSITIONS). Default: no bound.
   */
  maxWork?: number;
  /** Who set maxWork (default 'editor'), for the message on what it leaves out. */
  boundBy?: WorkBoundBy;
  /**
   * The most entries read at all (parseDab's maxEntries; default maxWork: each entry is a position
   * of work at least, so the entries past maxWork of them are left out anyway). The editor reads more
   * than it analyses, for its outline and folding (EDITOR_MAX_ENTRIES).
   */
  maxEntries?: number;
  /**
   * What the reader found of the text's bytes (the command line checks them): where a U+FFFD stands
   * for a byte that is not UTF-8; every other U+FFFD is then a character written. An editor's text
   * cannot say (it was decoded before it came), so there (bytes absent) a U+FFFD is taken for a bad
   * byte.
   */
  bytes?: ByteCheck;
}

/**
 * An endgame entry's work in positions, before its components: its analysis takes about as long as
 * 30 board positions' (measured on 4,000 small endgames against 60-move 5x5 records).
 */
export const ENDGAME_WORK = 32;

/** The work readDab counts for an entry (ReadOptions.maxWork). */
export function entryWork(e: Entry): number {
  if (e.kind === 'endgame') return ENDGAME_WORK + (e.components?.components.length ?? 0) + (e.play?.steps.length ?? 0);
  let n = 1;
  // a stack, not recursion: variations may nest thousands deep
  const lines: MoveToken[][] = [e.moves?.moves ?? []];
  for (let line = lines.pop(); line !== undefined; line = lines.pop()) {
    n += line.length;
    for (const m of line) for (const v of m.variations) lines.push(v.moves);
  }
  return n;
}

/** Parse a document and build every entry's model (within options.maxWork). Never throws. */
export function readDab(text: string, options: ReadOptions = {}): DabDocument {
  // each entry is a position of work at least: entries past maxWork would be left out, so (unless
  // the reader wants them listed) they are not read
  const parsed = parseDab(text, options.maxEntries ?? options.maxWork ?? Infinity, options.bytes);
  let workLeft = options.maxWork ?? Infinity;
  const models = parsed.entries.map((entry) => {
    if (workLeft !== Infinity && workLeft >= 0) {
      const w = entryWork(entry);
      if (w > workLeft) workLeft = -1;
      else workLeft -= w;
    }
    if (workLeft >= 0) return buildEntry(entry);
    // only the parser's diagnostics: the model of what is left out is not checked
    const bare = buildEntry({ ...entry, moves: null, play: null, components: null });
    return { ...bare, entry, diagnostics: [], leftOut: true };
  });
  // the parser's (at most MAX_DIAGNOSTICS and its own 'too many' line), then the models' up to as
  // many again, then one line saying the rest are not shown (each model keeps all of its own)
  const diagnostics = parsed.diagnostics.slice();
  let shown = 0;
  let hidden: Diagnostic | null = null;
  for (const m of models) {
    for (const d of m.diagnostics) {
      if (shown < MAX_DIAGNOSTICS) {
        diagnostics.push(d);
        shown++;
      } else hidden ??= d;
    }
  }
  if (hidden)
    diagnostics.push({
      severity: 'information',
      range: hidden.range,
      code: 'too-many-diagnostics',
      message: `more than ${MAX_DIAGNOSTICS} problems found in the entries' moves and boards; the rest are not shown`,
    });
  diagnostics.sort((a, b) => a.range.line - b.range.line || a.range.character - b.range.character);
  const cut = models.some((m) => m.leftOut) || parsed.unreadFrom !== undefined;
  return {
    entries: parsed.entries,
    models,
    diagnostics,
    ...(cut ? { maxWork: options.maxWork, boundBy: options.boundBy ?? 'editor' } : {}),
    ...(parsed.unreadFrom ? { unreadFrom: parsed.unreadFrom } : {}),
  };
}

/** Whether (line, character) lies in the range (end exclusive, but a cursor right after the end counts). */
export function rangeContains(r: Range, line: number, character: number): boolean {
  if (line < r.line || line > r.endLine) return false;
  if (line === r.line && character < r.character) return false;
  if (line === r.endLine && character > r.endCharacter) return false;
  return true;
}

/**
 * The index of the entry a cursor line belongs to: the last entry whose header is at or above the
 * line (an entry owns everything up to the next header). -1 before the first entry.
 */
export function entryIndexAt(entries: Entry[], line: number): number {
  let lo = 0,
    hi = entries.length - 1,
    ans = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (entries[mid].range.line <= line) {
      ans = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return ans;
}

/**
 * The ply shown for a cursor inside an entry: the number of legal moves that start at or before
 * the cursor (0 before the first move). A cursor on an illegal move shows the position before it.
 */
export function plyAt(model: EntryModel, line: number, character: number): number {
  let ply = 0;
  for (const mv of model.plies) {
    const r = mv.range;
    if (r.line < line || (r.line === line && r.character <= character)) ply = mv.ply!;
    else break;
  }
  return ply;
}

/**
 * Of items in text order, the last whose range contains the cursor. A range holds the cursor just
 * after its end too, so where one move ends at the next one's start (glued littlegolem codes, as in
 * `b[haahdc]`), the cursor on the next one's first character is on the next one.
 */
export function lastContaining<T extends { range: Range }>(
  items: readonly T[],
  line: number,
  character: number,
): T | undefined {
  for (let i = items.length - 1; i >= 0; i--) if (rangeContains(items[i].range, line, character)) return items[i];
  return undefined;
}

/** The written move (legal or not) whose range contains the cursor, if any. */
export function moveAt(model: EntryModel, line: number, character: number): EntryModel['moves'][number] | undefined {
  return lastContaining(model.moves, line, character);
}
export { readDbl, dblToDab } from './dbl';
export type { DblImport, DblLine, DabFromDbl } from './dbl';
