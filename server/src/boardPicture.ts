/**
 * A `.dab` text as a picture: one entry at one ply, analysed with a bounded synchronous search and
 * drawn by the shared drawing code (render/). Used by `dab render` and by the Markdown preview's
 * ```dab blocks (which must answer synchronously inside VS Code's extension host, hence the small
 * total budget: a position not proven within it is shown as unknown, with what bounds were proven).
 */
import type { BoardView } from '../../shared/protocol';
import { analyzeDocument } from './engine/analysis/analyzeDocument';
import { nothingProven, type Evaluation } from './engine/analysis/evaluation';
import { createSolver, quickEvaluate, searchEvaluate } from './engine/analysis/evaluatePosition';
import type { BoardState } from './engine/board/state';
import { readDab, type DabDocument } from './engine/notation';
import { NOTE_PICTURE_TIME_SPENT } from './engine/phrasebook/values';
import { NO_ENTRY_TO_DRAW, entryLeftOut, noSuchEntry, noSuchPly, nothingToDraw } from './engine/phrasebook/board';
import { boardView } from './features/boardViewRequest';
import { pictureSvg, type PictureOptions } from '../../render/picture';
// not from './store': its index opens the database, which the Markdown preview's bundle must not carry
import { searchOnce } from './store/searchOnce';
import type { ProofCache } from './store';

export interface PictureRequest {
  /** 1-based entry number (default 1). */
  entry?: number;
  /** The text already read (the command line reads it first, to say its problems): not read again. */
  doc?: DabDocument;
  /** Ply to show (default: the end of the record). */
  ply?: number;
  /** Total search time for the whole entry, in milliseconds. */
  budgetMs: number;
  /** Search time per position at most (default: the total). */
  positionBudgetMs?: number;
  /** readDab's work bound (ReadOptions.maxWork): entries past it are not drawn. Default: none. */
  maxWork?: number;
  /** Why a position has no value once the budget is spent (default NOTE_PICTURE_TIME_SPENT). */
  timeSpentNote?: string;
  /** The proof store (the CLI's): what it holds is not searched again, and what a search proves is kept. */
  proofs?: ProofCache;
}

export type PictureResult = { view: BoardView } | { error: string };

/**
 * A search lookup that stops searching once the total budget is spent: later positions are
 * reported unknown (trivial bounds, or what the store holds) rather than making the caller wait.
 */
function budgetedLookup(
  totalMs: number,
  perPositionMs: number,
  spentNote: string,
  proofs: ProofCache | undefined,
): (s: BoardState) => Evaluation {
  const solver = createSolver();
  const cache = new Map<string, Evaluation>();
  const deadline = Date.now() + totalMs;
  return (state) => {
    const key = state.key();
    const hit = cache.get(key);
    if (hit) return hit;
    const left = deadline - Date.now();
    const ms = Math.max(1, Math.min(perPositionMs, left));
    const e: Evaluation =
      left > 0
        ? searchOnce(proofs, state, (known) => searchEvaluate(solver, state, { timeBudgetMs: ms, known }), ms)
        : (proofs?.get(state) ?? nothingProven(state, 'unknown', spentNote));
    cache.set(key, e);
    return e;
  };
}

/** The view of one entry at one ply, analysed within the budget. */
export function pictureView(text: string, req: PictureRequest): PictureResult {
  const doc = req.doc ?? readDab(text, { maxWork: req.maxWork });
  const n = doc.models.length;
  if (n === 0) return { error: NO_ENTRY_TO_DRAW };
  const index = (req.entry ?? 1) - 1;
  // whose bound left an entry out: dab render's (the command line's) or a Markdown block's
  const boundBy = doc.boundBy === 'cli' ? 'cli' : 'block';
  // past the entries read (as many as the work bound at most): left out, not missing
  if (Number.isInteger(index) && index >= n && doc.unreadFrom)
    return { error: entryLeftOut(index + 1, doc.maxWork ?? 0, false, boundBy) };
  if (!Number.isInteger(index) || index < 0 || index >= n) return { error: noSuchEntry(req.entry ?? 1, n) };
  const model = doc.models[index];
  if (model.leftOut) return { error: entryLeftOut(index + 1, doc.maxWork ?? 0, n === 1, boundBy) };
  // Only this entry is analysed: a document of it alone (the others cost nothing more than their parse).
  const one = { ...doc, entries: [model.entry], models: [model], diagnostics: model.entry.diagnostics };
  const states = model.states;
  // a board entry's plies are known before any search: a ply it does not have is said at once
  const lastState = states.length - 1;
  if (
    req.ply !== undefined &&
    states.length > 0 &&
    !(Number.isInteger(req.ply) && req.ply >= 0 && req.ply <= lastState)
  )
    return { error: noSuchPly(req.ply, index + 1, lastState) };
  const lookup = budgetedLookup(
    req.budgetMs,
    req.positionBudgetMs ?? req.budgetMs,
    req.timeSpentNote ?? NOTE_PICTURE_TIME_SPENT,
    req.proofs,
  );
  // Solve from the end backwards: late positions are cheap and fill the table for earlier ones.
  for (let i = states.length - 1; i >= 0; i--) if (!quickEvaluate(states[i])) lookup(states[i]);
  const report = analyzeDocument(one, { search: lookup });
  const entry = report.entries[0];
  const last = Math.max(0, entry.positions.length - 1);
  const ply = req.ply ?? last;
  if (!Number.isInteger(ply) || ply < 0 || ply > last) return { error: noSuchPly(req.ply ?? ply, index + 1, last) };
  const view = boardView(report, { uri: '', position: { line: entry.line, character: 0 }, ply }, lookup);
  if (view) return { view };
  // the parser's errors first, then the model's (a missing size is the model's: found by an audit)
  const problem = [...model.entry.diagnostics, ...model.diagnostics].find((d) => d.severity === 'error');
  return { error: nothingToDraw(index + 1, problem && { line: problem.range.line + 1, message: problem.message }) };
}

export function pictureOf(
  text: string,
  req: PictureRequest,
  options: PictureOptions = {},
): { svg: string } | { error: string } {
  const r = pictureView(text, req);
  return 'error' in r ? r : { svg: pictureSvg(r.view, options) };
}
