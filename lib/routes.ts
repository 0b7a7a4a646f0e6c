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
