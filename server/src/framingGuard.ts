/**
 * Over stdio, a watch on the framing of the client's messages, between stdin and the protocol
 * library's reader: every byte passes through unchanged. The library waits for a header to end in
 * CR LF CR LF, so a header ended by bare line feeds (`Content-Length: 9\n\n`), or a stream of bytes
 * with no header end at all, made the server wait for good without a word (found by audits). A
 * blank header line ended by a line feed alone, or a header longer than MAX_HEADER_BYTES, cannot be
 * the start of a message the library will read: `onBroken` is called (the server says so and exits).
 * So is a body longer than MAX_BODY_BYTES: the library would keep every byte that follows as that
 * body, answering nothing and growing without bound (found by an audit: `Content-Length: 99999999999`).
 */
import { Transform, type Readable, type TransformCallback } from 'node:stream';

/** Longer than any header a client sends (Content-Length and Content-Type lines). */
export const MAX_HEADER_BYTES = 64 * 1024;

/**
 * Longer than any message a client sends: the largest file dab reads (MAX_FILE_BYTES, 8 MB), each
 * character escaped in JSON as \uXXXX (6 bytes), is 48 MB.
 */
export const MAX_BODY_BYTES = 256 * 1024 * 1024;

const CR = 13,
  LF = 10;

export function guardFraming(input: Readable, onBroken: (detail: string) => void): Readable {
  let bodyLeft = 0;
  let header: number[] = [];
  let broken = false;
  const guard = new Transform({
    transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback) {
      for (let i = 0; i < chunk.length && !broken;) {
        if (bodyLeft > 0) {
          const n = Math.min(bodyLeft, chunk.length - i);
          bodyLeft -= n;
          i += n;
          continue;
        }
        const c = chunk[i++];
        const h = header.length;
        header.push(c);
        if (c === LF && h > 0 && header[h - 1] === LF) {
          broken = true;
          onBroken('a header line ends in a line feed alone, not CR LF');
        } else if (h + 1 > MAX_HEADER_BYTES) {
          broken = true;
          onBroken(`a header longer than ${MAX_HEADER_BYTES} bytes`);
        } else if (c === LF && h >= 3 && header[h - 1] === CR && header[h - 2] === LF && header[h - 3] === CR) {
          // the header's end: the body's length, when it can be read (else the library says what is wrong)
          const m = /^content-length:[ \t]*(\d+)[ \t]*$/im.exec(Buffer.from(header).toString('ascii'));
          header = [];
          if (m && Number(m[1]) > MAX_BODY_BYTES) {
            broken = true;
            onBroken(`a message body of ${m[1]} bytes, more than ${MAX_BODY_BYTES}`);
          } else if (m) bodyLeft = Number(m[1]);
          else broken = true;
        }
      }
      done(null, chunk);
    },
  });
  input.pipe(guard);
  return guard;
}
