/**
 * Public API of the `.dab` notation: parse a document, build the meaning of each entry, and find
 * what lies under a cursor. Pure TypeScript; ranges are 0-based UTF-16 like the LSP.
 */
import type { Diagnostic, Entry, Range } from './ast';
import { buildEntry, type EntryModel } from './model';
import { parseDab } from './parse';
import { MAX_DIAGNOSTICS } from '../limits';

export * from './ast';
export { parseDab } from './parse';
export { resolvePlayer, initialOf, FIELD_NAMES } from './names';
export { splitMoveWord } from './moves';
export { dotRowLike } from './diagram';
export { writeDiagram } from './writeDiagram';
export { MAX_COMPONENTS, MAX_DIAGNOSTICS } from '../limits';
export { buildEntry, allLines } from './model';
export type { EntryModel, LineModel, MoveModel, VariationModel, PlayStepModel, EndgameModel, SetupLine } from './model';

export interface DabDocument {
  entries: Entry[];
  models: EntryModel[];
  /** Parser and model diagnostics together, sorted by position. */
  diagnostics: Diagnostic[];
}

/** Parse a document and build every entry's model. Never throws. */
export function readDab(text: string): DabDocument {
  const parsed = parseDab(text);
  const models = parsed.entries.map(buildEntry);
  const diagnostics = parsed.diagnostics.slice();
  for (const m of models) {
    for (const d of m.diagnostics) {
      if (diagnostics.length >= 2 * MAX_DIAGNOSTICS) break;
      diagnostics.push(d);
    }
  }
  diagnostics.sort((a, b) => a.range.line - b.range.line || a.range.character - b.range.character);
  return { entries: parsed.entries, models, diagnostics };
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

/** The written move (legal or not) whose range contains the cursor, if any. */
export function moveAt(model: EntryModel, line: number, character: number): EntryModel['moves'][number] | undefined {
  return model.moves.find((mv) => rangeContains(mv.range, line, character));
}
export { readDbl, dblToDab } from './dbl';
export type { DblImport, DblLine, DabFromDbl } from './dbl';
