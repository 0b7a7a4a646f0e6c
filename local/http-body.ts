import type { IncomingMessage } from 'node:http';

/** A request's body as text (null when empty), refused past `maxBytes` with `tooLarge()`. */
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
      if (size > maxBytes) {
        fail(tooLarge());
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => done(chunks.length > 0 ? Buffer.concat(chunks).toString('utf8') : null));
    req.on('error', fail);
  });
}
