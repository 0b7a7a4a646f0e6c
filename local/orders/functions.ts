import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const FUNCTIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'functions');
const loaded = new Map<string, Promise<unknown>>();

/**
 * The `handler` export of `functions/<module>.ts`, the file CDK bundles for Lambda. Imported on
 * first use, so that the stack starts even while a handler it does not need yet is missing.
 */
export function functionHandler<H>(module: string): Promise<H> {
  let handler = loaded.get(module);
  if (!handler) {
    const file = pathToFileURL(join(FUNCTIONS_DIR, `${module}.ts`)).href;
    handler = import(/* @vite-ignore */ file).then((exports: { handler?: unknown }) => {
      if (typeof exports.handler !== 'function') throw new Error(`functions/${module}.ts exports no handler`);
      return exports.handler;
    });
    // A failed import (a module still being written) is tried again next time.
    handler.catch(() => loaded.delete(module));
    loaded.set(module, handler);
  }
  return handler as Promise<H>;
}
