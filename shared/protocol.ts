/**
 * Every message between the dab client and server beyond the standard LSP, declared once and typed
 * (as vscode-eslint's `customMessages.ts` and rust-analyzer's `lsp_ext.ts` do). The server, the
 * client and the webview import this module; both ends name a message by its object here, never by
 * its method string, and never write its parameter or result types by hand at the call site.
 *
 * Plain data only: nothing here imports from the server, the client or the engine.
 */
import { NotificationType, RequestType } from 'vscode-languageserver-protocol';

// ---------------------------------------------------------------------------------------------
// Initialization and commands

/** What dab's VS Code client sends as `initializationOptions` (other clients send nothing or other things). */
export interface DabInitializationOptions {
  /** The `dab.*` settings. */
  settings?: unknown;
  /** Commands the client runs itself: the code lenses use `dab.showBoard` when it is listed. */
  clientCommands?: string[];
}

/** The client's board view, opened at a place in a document (arguments: uri, position). */
export const SHOW_BOARD_COMMAND = 'dab.showBoard';

/**
 * The server's command (workspace/executeCommand) that code lenses run in editors without the
 * board view: the position at a place (arguments: uri, position) in words and as a text diagram,
 * shown as a message and returned as a string.
 */
export const SHOW_POSITION_COMMAND = 'dab.showPosition';

/**
 * The server's command (workspace/executeCommand) behind the quick fix for a client that takes
 * code actions only as commands (no `codeActionLiteralSupport`): arguments uri and position; the
 * server works the fix out again at that place and sends its edit with workspace/applyEdit.
 */
export const INSERT_BETTER_LINE_COMMAND = 'dab.insertBetterLine';

// ---------------------------------------------------------------------------------------------
// Client -> server requests

/** The board under the cursor: everything the webview draws (null when the cursor is on no entry). */
export const BoardViewRequest = new RequestType<BoardViewParams, BoardView | null, void>('dab/boardView');

/**
 * Play a line clicked on the board: the server answers with the one edit that writes it (append,
 * variation, `moves` field; see server/src/features/playLine.ts); the client applies it as one
 * WorkspaceEdit.
 */
export const PlayLineRequest = new RequestType<PlayLineParams, PlayLineResult, void>('dab/playLine');

/**
 * Convert a Dabble/KSquares `.dbl` file to a `.dab` entry (server/src/features/importDbl.ts): the
 * entry's text when the file has no errors, and the file's problems with their ranges either way.
 */
export const ImportDblRequest = new RequestType<ImportDblParams, ImportDblResult, void>('dab/importDbl');

export interface ImportDblParams {
  /** The .dbl file's text. */
  text: string;
  /** The entry's title (the file's name without its extension). */
  title: string;
}

/** The `.dab` entry and what it is; both absent when the file has errors. */
export type ImportDblResult = ImportDblProblems &
  ({ text: string; kind: 'game' | 'position' } | { text?: undefined; kind?: undefined });

export interface ImportDblProblems {
  problems: {
    severity: 'error' | 'warning' | 'information' | 'hint';
    range: { start: { line: number; character: number }; end: { line: number; character: number } };
    code: string;
    message: string;
  }[];
}

// ---------------------------------------------------------------------------------------------
// Client -> server notifications

/**
 * The cursor of a dab editor moved (or the editor became active): the background search solves
 * the position under it first. Send it debounced. (The board view request counts as one too.)
 */
export const CursorNotification = new NotificationType<CursorParams>('dab/cursor');

export interface CursorParams {
  uri: string;
  position: { line: number; character: number };
}

// ---------------------------------------------------------------------------------------------
// Server -> client notifications

/**
 * The analysis of a document changed after its text settled (a search result arrived): the client
 * redraws the board if it shows that document.
 */
export const AnalysisChangedNotification = new NotificationType<AnalysisChangedParams>('dab/analysisChanged');

export interface AnalysisChangedParams {
  uri: string;
}

// ---------------------------------------------------------------------------------------------
// Data of the messages above

export interface PlayLineParams {
  uri: string;
  /** The document version the board was drawn from: a stale click is refused. */
  version?: number;
  /** The cursor the board was drawn for, and the ply it shows. */
  position: { line: number; character: number };
  ply?: number;
  /** The line clicked, e.g. `c1-c2`. */
  line: string;
  /** Play it out: the engine answers with its proven best move(s). */
  reply?: boolean;
}

export interface PlayLineResult {
  /** The text to insert (range start = end), applied as one undoable edit. */
  edit?: {
    range: { start: { line: number; character: number }; end: { line: number; character: number } };
    newText: string;
  };
  /** Where the editor's cursor goes afterwards (the board follows it). */
  cursor?: { line: number; character: number };
  /** When no edit is needed: the ply to show (the clicked line is the move played there). */
  ply?: number;
  /** Why nothing can be played (shown to the user). */
  error?: string;
  /** Something the user should know (e.g. the engine could not prove a reply). */
  note?: string;
}

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
  /** The annotator's comment on the last move, as written in the file (`{…}` or SGF's `C[…]`), cut at 2,000 characters. */
  lastMoveComment?: string;
  /** Completed boxes: lower-left dot and owner (0, 1) or null when unknown. */
  boxes: { at: DotXY; owner: 0 | 1 | null }[];
  /** Chains and loops of a loony endgame, each with its boxes (lower-left dots). */
  components: { kind: 'chain' | 'loop'; size: number; boxes: DotXY[] }[];
  /** The optimal moves known, to draw dashed: every one, or (not every move searched) those proven optimal. */
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
  /**
   * Value graph: for each ply, the predicted final margin for the first player (score so far plus
   * the value of the rest) when exact, else null; and the proven bounds on it (null when none).
   */
  graph: {
    ply: number;
    valueForFirst: number | null;
    lowerForFirst?: number | null;
    upperForFirst?: number | null;
    mistake: boolean;
  }[];
  /** Whether the position's exact value and every move's value are known (the heat map is drawn). */
  solved?: boolean;
  /**
   * Every undrawn line (board positions), what playing it means in words (its value, or the boxes it
   * throws away) and its loss against best play (null when unknown).
   */
  moves?: { line: BoardViewLine; loss: number | null; text: string }[];
  /** Set when the cursor is inside a variation `( … )`: the board shows that line's position. */
  variation?: { replaces: number };
  /** The principal variation from this position (best line for both sides), when the value is known. */
  pv?: BoardViewLine[];
  /** Nimstring regions when known, for colouring. */
  regions?: { boxes: DotXY[]; nimber: number | 'loony' }[];
}

/** What the extension posts to the board webview. */
export type ToBoardWebview =
  | { type: 'view'; view: BoardView; uri: string; position: { line: number; character: number } }
  | { type: 'empty'; message?: string; uri?: string; position?: { line: number; character: number } }
  | { type: 'exportSvg' };

/** What the board webview posts to the extension. */
export type FromBoardWebview =
  | { type: 'ready' }
  | { type: 'gotoPly'; ply: number }
  /** The user clicked (or pressed Enter on) an undrawn line: play it in the document. */
  | { type: 'play'; line: string }
  /** "Play it out" switched on or off: the engine answers each played line. */
  | { type: 'playOut'; on: boolean }
  | { type: 'svg'; svg: string | null };

/** What the board webview keeps with setState, so a reload redraws at once. */
export interface BoardWebviewState {
  uri?: string;
  position?: { line: number; character: number };
  ply?: number;
  view?: BoardView;
  message?: string;
  /** "Play it out" is ticked: the page posts it on every load, so the extension acts on what the box shows. */
  playOut?: boolean;
}

// ---------------------------------------------------------------------------------------------
// In-process: the extension's Markdown preview plugin and the server's picture module

/** What dist/markdown.js (server/src/markdownBlocks.ts) offers the markdown-it plugin. */
export interface MarkdownBlockRenderer {
  /** The HTML for a ```dab fence: `info` is what follows `dab` on the fence line, `content` its text. */
  renderDabBlock(info: string, content: string): string;
}
