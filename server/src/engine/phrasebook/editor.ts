/**
 * The VS Code extension's own messages (client/src) and the board webview's (webview/main.ts): what
 * the editor says about its commands, the board panel and the .dbl import, beside what the language
 * server says (lsp.ts, and the hovers and diagnostics of the other sections). No editor types here:
 * the client and the webview bundle this file by itself.
 */
import { plural } from './grammar';
export { UNTITLED, VALUE_UNKNOWN } from './grammar';

/** What was thrown, in words (an Error's message, else the value as text). */
export function thrownWords(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

// ---- the extension's commands ----
export const serverDidNotStart = (why: string): string => `dab: the language server did not start: ${why}`;
export const OPEN_BOARD_FIRST = 'dab: open the board (dab: Show Board) on an entry first.';
export const BOARD_GAVE_NO_SVG = 'dab: the board view did not return an SVG.';
export const EXPORT_BOARD_LABEL = 'Export board';
export const SVG_FILTER_NAME = 'SVG image';
export const BOARD_SVG_COPIED = 'dab: board SVG copied to the clipboard.';
export const boardSaved = (path: string, copied: boolean): string =>
  `dab: board saved to ${path}${copied ? ' and copied to the clipboard' : ''}.`;

// ---- the .dbl import (client/src/dblImport.ts) ----
export const DBL_PROBLEMS_SOURCE = 'dab .dbl import';
export const DBL_SERVER_NOT_RUNNING = 'dab: the language server is not running, so the .dbl file cannot be read.';
export const OPEN_DBL_FIRST = 'dab: open a Dabble/KSquares .dbl file to convert it.';
export const dblNotConverted = (errors: number): string =>
  `dab: ${plural(errors, 'error')} in this .dbl file (see Problems); nothing was converted.`;
/** The offer made when a .dbl file is opened; `kind` what it reads as (undefined: it has errors, no entry). */
export const offerDblConversion = (kind: string | undefined): string =>
  `dab: this is a Dabble/KSquares board (.dbl). ${kind === undefined ? 'It has errors (see Problems).' : `It reads as a ${kind}.`} Convert it to .dab?`;
export const CONVERT_ACTION = 'Convert';

// ---- the board panel (client/src/boardPanel.ts) and its webview (webview/main.ts) ----
export const BOARD_PANEL_TITLE = 'dab board';
export const boardPanelTitle = (entryTitle: string | undefined): string =>
  entryTitle ? `dab: ${entryTitle}` : BOARD_PANEL_TITLE;
export const cannotOpenDocument = (path: string): string => `Cannot open ${path}`;
export const BOARD_SERVER_NOT_RUNNING = 'The dab language server is not running.';
export const positionNotDrawn = (why: string): string => `The language server could not draw this position: ${why}`;
export const NO_BOARD_HERE =
  'No board here: place the cursor in a game, position or endgame whose board can be read (the problems of one that cannot are in the Problems panel).';
export const PLACE_CURSOR_FOR_BOARD = 'Place the cursor in a game, position or endgame of a .dab file.';
export const couldNotPlay = (line: string, why: string): string => `dab: could not play ${line}: ${why}`;
export const playRefused = (why: string): string => `dab: ${why}`;
export const documentChangedNotPlayed = (line: string): string =>
  `dab: the document changed since the board was drawn; ${line} was not played.`;
export const editRefused = (line: string): string => `dab: the editor refused the edit for ${line}.`;
/** Where the board stands in its record. */
export const boardPly = (ply: number, plyCount: number, variationReplaces?: number): string =>
  variationReplaces !== undefined
    ? `move ${ply} of a variation (instead of move ${variationReplaces})`
    : `move ${ply} of ${plyCount}`;

// ---- the Markdown preview (client/src/markdownPreview.ts, server/src/markdownBlocks.ts) ----
/** A ```dab block whose drawing failed (`message`: the error's). */
export function blockNotDrawn(message: string): string {
  return `dab could not draw this block: ${message}`;
}
