/**
 * The phrasebook: every sentence a user reads about a value, a move or a position — hover, code lens,
 * inlay hint, diagnostic, code action, board caption, CLI text — is built here, one wording per idea,
 * so no reader has to know the sign convention and one thing is said one way everywhere. Plain text:
 * the hover escapes it for Markdown. (What is wrong with the text of a file is worded where the
 * notation reader finds it: server/src/engine/notation.)
 *
 *   grammar.ts    counting and listing: boxes, plural, signed, listOr (alternatives), listAll; shared words
 *   values.ts     values and results: who wins the rest, the predicted final score, unknown values
 *   advice.ts     what to play: lens titles, endgame openings, keep control or take all, board caption
 *   moves.ts      moves and mistakes: diagnostics, the verdict on a move, reviews, quick fixes
 *   nimstring.ts  the Nimstring view: nim-values, the chain fight, the long chain rule
 *   board.ts      the board picture: caption, screen-reader summary, titles of its parts
 *   search.ts     why a value is not known yet; the background search's progress report
 *   proofs.ts     proven bounds and results in words, why a value stayed unproven, labels of estimates
 *   files.ts      files that cannot be read or written
 *   store.ts      the proof store: its file, records not believed, export and import, `dab cache` text
 *   cli.ts        the command line: usage, usage errors and notes, files named, render's refusals, analyze's text
 *   lsp.ts        the language server's errors for requests out of turn
 *   editor.ts     the VS Code extension's own messages: its commands, the board panel, the .dbl import
 */
export * from './grammar';
export * from './values';
export * from './advice';
export * from './moves';
export * from './nimstring';
export * from './board';
export * from './search';
export * from './proofs';
export * from './files';
export * from './store';
export * from './cli';
export * from './lsp';
export * from './editor';
