/**
 * A `.dab` text as a picture: one entry at one ply, analysed with a bounded synchronous search and
 * drawn by the shared drawing code (render/). Used by `dab render` and by the Markdown preview's
 * ```dab blocks (which must answer synchronously inside VS Code's extension host, hence the small
 * total budget: a position not proven within it is shown as unknown, with what bounds were proven).
 */
import type { BoardView } from '../../shared/protocol';
import { analyzeText } from './engine/analysis/analyzeDocument';
import type { Evaluation } from './engine/analysis/evaluation';
import { createSolver, quickEvaluate, searchEvaluate } from './engine/analysis/evaluatePosition';
import type { BoardState } from './engine/board/state';
import { boardView } from './features/boardViewRequest';
import { pictureSvg, type PictureOptions } from '../../render/picture';

export interface PictureRequest {
  /** 1-based entry number (default 1). */
  entry?: number;
  /** Ply to show (default: the end of the record). */
  ply?: number;
  /** Total search time for the whole entry, in milliseconds. */
  budgetMs: number;
  /** Search time per position at most (default: the total). */
  positionBudgetMs?: number;
}

export type PictureResult = { view: BoardView } | { error: string };

/**
 * A search lookup that stops searching once the total budget is spent: later positions are
 * reported unknown (trivial bounds) rather than making the caller wait.
 */
function budgetedLookup(totalMs: number, perPositionMs: number): (s: BoardState) => Evaluation {
  const solver = createSolver();
  const cache = new Map<string, Evaluation>();
  const deadline = Date.now() + totalMs;
  return (state) => {
    const key = state.key();
    const hit = cache.get(key);
    if (hit) return hit;
    const left = deadline - Date.now();
    const e: Evaluation =
      left > 0
        ? searchEvaluate(solver, state, { timeBudgetMs: Math.max(1, Math.min(perPositionMs, left)) })
        : {
            status: 'unknown',
            method: 'search',
            value: null,
            lower: -state.openBoxCount(),
            upper: state.openBoxCount(),
            best: [],
            note: 'not searched: the time for this picture was spent',
          };
    cache.set(key, e);
    return e;
  };
}

/** The view of one entry at one ply, analysed within the budget. */
export function pictureView(text: string, req: PictureRequest): PictureResult {
  const first = analyzeText(text);
  const n = first.entries.length;
  if (n === 0) return { error: 'no entry (game, position or endgame) in this text' };
  const index = (req.entry ?? 1) - 1;
  if (!Number.isInteger(index) || index < 0 || index >= n)
    return { error: `there is no entry ${req.entry} (the text has ${n} entr${n === 1 ? 'y' : 'ies'})` };
  const lookup = budgetedLookup(req.budgetMs, req.positionBudgetMs ?? req.budgetMs);
  // Solve from the end backwards: late positions are cheap and fill the table for earlier ones.
  const states = first.doc.models[index].states;
  for (let i = states.length - 1; i >= 0; i--) if (!quickEvaluate(states[i])) lookup(states[i]);
  // Only this entry's positions are searched; the others' values are not drawn.
  const wanted = new Set(states.map((s) => s.key()));
  const report = analyzeText(text, { search: (s) => (wanted.has(s.key()) ? lookup(s) : undefined) });
  const entry = report.entries[index];
  const last = Math.max(0, entry.positions.length - 1);
  const ply = req.ply ?? last;
  if (!Number.isInteger(ply) || ply < 0 || ply > last)
    return { error: `there is no ply ${req.ply} in entry ${index + 1} (plies 0 to ${last})` };
  const view = boardView(report, { uri: '', position: { line: entry.line, character: 0 }, ply }, lookup);
  return view ? { view } : { error: `entry ${index + 1} has nothing to draw` };
}

export function pictureOf(
  text: string,
  req: PictureRequest,
  options: PictureOptions = {},
): { svg: string } | { error: string } {
  const r = pictureView(text, req);
  return 'error' in r ? r : { svg: pictureSvg(r.view, options) };
}
