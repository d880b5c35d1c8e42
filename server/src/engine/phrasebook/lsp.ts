/** The language server's answers to requests out of turn (LSP errors sent to the client). */

/** A request before `initialize` (or a shutdown before it). */
export const SERVER_NOT_INITIALIZED = 'the server is not initialized';

/** A request after `shutdown`. */
export const SERVER_SHUT_DOWN = 'the server is shut down';

/** A second `initialize`. */
export const SERVER_ALREADY_INITIALIZED = 'the server is already initialized';
