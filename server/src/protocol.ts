/**
 * Custom requests between the dab client and server, beyond the standard LSP.
 * Plain data only: the client (and the webview) import these types, nothing else from the server.
 */

export const BoardViewRequest = 'dab/boardView';

export interface BoardViewParams {
  uri: string;
  /** Editor cursor (0-based). The server picks the entry and the move under it. */
  position: { line: number; character: number };
  /** Optional: ask for a given ply of the entry under the cursor instead of the cursor's ply. */
  ply?: number;
}

/** A point on the board in dot coordinates: x from the left, y from the bottom, both from 0. */
export type DotXY = [number, number];

export interface BoardViewLine {
  from: DotXY;
  to: DotXY;
  name: string;
}

export interface BoardView {
  entryTitle: string;
  entryKind: 'game' | 'position' | 'endgame';
  /** 0-based line of the entry header in the document. */
  entryLine: number;
  width: number;
  height: number;
  players: [string, string];
  drawn: BoardViewLine[];
  /** The line drawn by the last move, if any (also in `drawn`). */
  lastMove?: BoardViewLine;
  /** Completed boxes: lower-left dot and owner (0, 1) or null when unknown. */
  boxes: { at: DotXY; owner: 0 | 1 | null }[];
  /** Chains and loops of a loony endgame, each with its boxes (lower-left dots). */
  components: { kind: 'chain' | 'loop'; size: number; boxes: DotXY[] }[];
  /** Every optimal move, to draw dashed. */
  best: BoardViewLine[];
  score: [number, number];
  toMove: 0 | 1;
  /** The value in words, e.g. "Bob to move wins the rest by 2 (final 6-3)". */
  valueText: string;
  value: number | null;
  ply: number;
  /** Number of moves of the record (0 for a position). */
  plyCount: number;
  /** Document ranges of the moves, so the client can move the cursor while stepping (index = ply - 1). */
  moveRanges: { line: number; character: number; endLine: number; endCharacter: number }[];
  /** Value graph: value for the first player after each ply (null when unknown), mistakes marked. */
  graph: { ply: number; valueForFirst: number | null; mistake: boolean }[];
  /** Nimstring regions when known, for colouring. */
  regions?: { boxes: DotXY[]; nimber: number | 'loony' }[];
}
