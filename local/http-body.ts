import type { IncomingMessage } from 'node:http';

/**
 * A request's body as text (null when empty). Past `maxBytes` the rest is read and dropped, and
 * the promise is rejected with `tooLarge()` once the request has ended, so that the caller can
 * answer it: answering, and closing, while the client is still sending would reset the connection
 * before the client reads the answer.
 */
export function readBody(
  req: IncomingMessage,
  maxBytes: number,
  tooLarge: () => Error,
): Promise<string | null> {
  return new Promise((done, fail) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) chunks.length = 0;
      else chunks.push(chunk);
    });
    req.on('end', () => {
      if (size > maxBytes) fail(tooLarge());
      else done(chunks.length > 0 ? Buffer.concat(chunks).toString('utf8') : null);
    });
    req.on('error', fail);
  });
}
