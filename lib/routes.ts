import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as z from 'zod/mini';
import type { RouteDefinition } from '../shared/http/route.ts';

/** Repository root: `functions/`, `package-lock.json` and `cdk.json` live here. */
export const PROJECT_ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The keys of an object schema (looking through pipes such as `.transform`), if it is one. */
function objectShape(schema: z.core.$ZodType): Readonly<Record<string, unknown>> | undefined {
  if (schema instanceof z.core.$ZodObject) return schema._zod.def.shape;
  if (schema instanceof z.core.$ZodPipe) return objectShape(schema._zod.def.in);
  return undefined;
}

/** A route paginates when its query schema has a `cursor` parameter; it then signs cursors. */
export function paginates(route: RouteDefinition): boolean {
  const shape = objectShape(route.request.query);
  return shape !== undefined && Object.hasOwn(shape, 'cursor');
}

/** Anything deployed as a function: a route, a workflow task, the starter or the sweeper. */
export interface HandlerModule {
  /** Module under `functions/` (without `.ts`) exporting `handler`. */
  readonly handler: string;
}

/** Entry module of a function: `functions/<handler>.ts` by default; tests may substitute a placeholder. */
export type EntryFor = (module: HandlerModule) => string;

export const defaultEntryFor: EntryFor = (module) => join(PROJECT_ROOT, 'functions', `${module.handler}.ts`);
