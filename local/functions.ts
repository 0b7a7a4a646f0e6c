const loaded = new Map<string, Promise<FunctionModule>>();

/**
 * A module under `functions/`, the file CDK bundles for Lambda: `handler` is what Lambda runs
 * (its AWS adapters), `createHandler(ports)` the same handler given other ports.
 */
interface FunctionModule {
  handler?: unknown;
  createHandler?: (ports: never) => unknown;
}

/** Imported on first use, so that the stack starts even while a module it does not need yet is missing. */
function functionModule(module: string): Promise<FunctionModule> {
  let exports = loaded.get(module);
  if (!exports) {
    exports = import(/* @vite-ignore */ `../functions/${module}.ts`) as Promise<FunctionModule>;
    // A failed import (a module still being written) is tried again next time.
    exports.catch(() => loaded.delete(module));
    loaded.set(module, exports);
  }
  return exports;
}

/** The `handler` export of `functions/<module>.ts`. */
export async function functionHandler<H>(module: string): Promise<H> {
  const { handler } = await functionModule(module);
  if (typeof handler !== 'function') throw new Error(`functions/${module}.ts exports no handler`);
  return handler as H;
}

/**
 * The handler of `functions/<module>.ts` built with `ports` (the local stack's stand-ins) by its
 * `createHandler`, as its own `handler` is built with the AWS adapters.
 */
export async function functionHandlerWith<H>(module: string, ports: object): Promise<H> {
  const { createHandler } = await functionModule(module);
  if (typeof createHandler !== 'function') throw new Error(`functions/${module}.ts exports no createHandler`);
  const handler = createHandler(ports as never);
  if (typeof handler !== 'function') throw new Error(`functions/${module}.ts: createHandler gave no handler`);
  return handler as H;
}

/** `functionHandlerWith(module, ports)` on first call, kept for the next (and tried again after a failed import). */
export function lazyHandlerWith<H>(module: string, ports: object): () => Promise<H> {
  let built: Promise<H> | undefined;
  return () => {
    if (!built) {
      const building = functionHandlerWith<H>(module, ports);
      built = building;
      building.catch(() => {
        if (built === building) built = undefined;
      });
    }
    return built;
  };
}
