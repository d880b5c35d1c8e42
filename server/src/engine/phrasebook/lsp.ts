/** The language server's answers to requests out of turn (LSP errors sent to the client). */

/** A request before `initialize` (or a shutdown before it). */
export const SERVER_NOT_INITIALIZED = 'the server is not initialized';

/** A request after `shutdown`. */
export const SERVER_SHUT_DOWN = 'the server is shut down';
/** JSON-RPC: a message that is neither a request, a notification nor a response. */
export const INVALID_MESSAGE = 'not a JSON-RPC request, notification or response';
/** JSON-RPC: a body that is not JSON (the reader's reason follows). */
export const PARSE_ERROR = 'the message is not JSON';
/** A request for a method the server does not have (its name follows). */
export const UNHANDLED_METHOD = 'unhandled method';

/** A second `initialize`. */
export const SERVER_ALREADY_INITIALIZED = 'the server is already initialized';

/**
 * On stderr, before the server exits: a message whose header it cannot read leaves it unable to tell
 * where the next message starts (found by an audit: it went silent for good); exiting lets the client
 * restart it.
 */
export function brokenFramingMessage(detail: string): string {
  return `dab language server: a message from the client has a header that cannot be read (${detail.split('\n')[0]}); the messages after it cannot be found, so the server exits (the client may start it again)`;
}
