import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import type { RouteDefinition } from '../shared/http/route.ts';

/** Repository root: `functions/`, `package-lock.json` and `cdk.json` live here. */
export const PROJECT_ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The keys of an object schema (looking through pipes such as `.transform`), if it is one. */
function objectShape(schema: z.ZodType): Readonly<Record<string, unknown>> | undefined {
  if (schema instanceof z.ZodObject) return schema.shape;
  if (schema instanceof z.ZodPipe) return objectShape(schema.in as z.ZodType);
  return undefined;
}

/** A route paginates when its query schema has a `cursor` parameter; it then signs cursors. */
export function paginates(route: RouteDefinition): boolean {
  const shape = objectShape(route.request.query);
  return shape !== undefined && Object.hasOwn(shape, 'cursor');
}
