/**
 * Files the service serves as they are (the OpenAPI document, the reference page's script): read
 * once per process, answered with an ETag (`304` to a matching `If-None-Match`), a public cache
 * lifetime, and gzip when the client accepts it.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { HandlerResult } from './pipeline.ts';

/**
 * Where a route's `assets` file is: next to the bundle in Lambda (CDK copies it there), under the
 * project root locally (the local stack and the tests run from it).
 */
export function assetPath(relative: string): string {
  const taskRoot = process.env.LAMBDA_TASK_ROOT;
  return taskRoot ? join(taskRoot, basename(relative)) : join(process.cwd(), relative);
}

export interface StaticFile {
  readonly bytes: Uint8Array;
  readonly gzipped: Uint8Array;
  readonly etag: string;
}

/** Reads and compresses a file once; `load` is called on first use. */
export function staticFile(load: () => Uint8Array): () => StaticFile {
  let file: StaticFile | undefined;
  return () => {
    if (!file) {
      const bytes = load();
      file = {
        bytes,
        gzipped: gzipSync(bytes),
        etag: `"${createHash('sha256').update(bytes).digest('hex').slice(0, 32)}"`,
      };
    }
    return file;
  };
}

export const readAsset = (relative: string) => staticFile(() => readFileSync(assetPath(relative)));

/** Five minutes in any cache, then revalidated with the ETag. */
export const CACHE_CONTROL = 'public, max-age=300, must-revalidate';

/** The pipeline result for a static file, given the request headers (names in lower case). */
export function serveStatic(
  file: StaticFile,
  headers: Readonly<Record<string, string>>,
  contentType: string,
  filename: string,
): HandlerResult {
  const common = { ETag: file.etag, 'Cache-Control': CACHE_CONTROL, Vary: 'Accept-Encoding' };
  const matches = (headers['if-none-match'] ?? '')
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .includes(file.etag);
  if (matches) {
    return {
      status: 304,
      body: {},
      file: { contentType, bytes: new Uint8Array(), filename },
      headers: common,
    };
  }
  const gzip = /\bgzip\b/.test(headers['accept-encoding'] ?? '');
  return {
    body: {},
    file: { contentType, bytes: gzip ? file.gzipped : file.bytes, filename },
    headers: {
      ...common,
      'Content-Disposition': 'inline',
      ...(gzip ? { 'Content-Encoding': 'gzip' } : {}),
    },
  };
}
