/** A company's officeholders from its held extract, by status, one page at a time (free). */
import { decodeOffset, pageOfArray } from '../kernel/cursor.ts';
import { PAGE_SIZE } from '../kernel/http/schemas.ts';
import { OFFICEHOLDER_PAGES } from './extracts.ts';
import * as companyRoutes from './routes.ts';
import type { recordStatuses } from './schemas.ts';
import {
  byRecordStatus,
  locateSection,
  type SectionInput,
  type SectionPorts,
  type StatusRecord,
} from './sections.ts';

export interface OfficeholdersQuery {
  status?: (typeof recordStatuses)[number] | undefined;
  extract?: string | undefined;
  limit?: number | undefined;
  cursor?: string | undefined;
}

/**
 * One page of the held extract's officeholders, with the extract: read from the extract's paged
 * list (one page, filed by status), or, for an extract stored before officeholders were paged,
 * filtered from the section. The cursor holds the offset either way. Ceased and all officeholders
 * are only in historical extracts.
 */
export async function listOfficeholders(
  ports: SectionPorts,
  input: SectionInput & { query: OfficeholdersQuery },
) {
  const { query } = input;
  const status = query.status ?? 'current';
  const { extract } = await locateSection(ports, input, 'officeholders', status !== 'current');
  const limit = query.limit ?? PAGE_SIZE.default;
  const scope = {
    route: companyRoutes.listOfficeholders.name,
    filters: { id: input.path.id, status, extract: extract.id },
    owner: input.auth,
  };
  const offset = await decodeOffset(ports.cursors, scope, query.cursor);
  const stored = await ports.heldExtracts.readPage(extract.id, OFFICEHOLDER_PAGES, {
    offset,
    limit,
    ...(status === 'all' ? {} : { key: status }),
  });
  if (stored) {
    const next = offset + stored.items.length;
    const hasMore = next < stored.total;
    const nextCursor = hasMore ? await ports.cursors.encode(scope, next) : null;
    return { page: { data: stored.items, hasMore, nextCursor, totalCount: stored.total }, extract };
  }
  const section = (await ports.heldExtracts.getSection(extract.id, 'officeholders')) as StatusRecord[];
  const records = section.filter(byRecordStatus(status));
  const page = await pageOfArray(records, { ...scope, limit, cursor: query.cursor, codec: ports.cursors });
  return { page, extract };
}
