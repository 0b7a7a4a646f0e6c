/** What a paginated route takes from its request to read one page. */
import type { CursorCodec, CursorScope } from '../cursor.ts';
import { PAGE_SIZE } from './schemas.ts';

/**
 * The page a list request asks for: its route and filters and the caller (a cursor is valid only
 * for the three), the page size (the service's default when the request gives none), the cursor,
 * and the codec that checks it.
 */
export const pageRequest = (
  ports: { cursors: CursorCodec },
  route: { name: string },
  owner: CursorScope['owner'],
  query: { limit?: number | undefined; cursor?: string | undefined },
  filters: CursorScope['filters'],
) => ({
  route: route.name,
  filters,
  owner,
  limit: query.limit ?? PAGE_SIZE.default,
  cursor: query.cursor,
  codec: ports.cursors,
});
