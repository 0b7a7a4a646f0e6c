import type { RoutePorts } from '../../shared/app/ports.ts';
import { OFFICEHOLDER_PAGES } from '../../shared/companies/extracts.ts';
import { companyRoutes } from '../../shared/companies/routes.ts';
import { byRecordStatus, locateSection, type StatusRecord } from '../../shared/companies/sections.ts';
import { heldExtracts } from '../../shared/composition/aws/extracts.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { registryFor } from '../../shared/composition/aws/registry.ts';
import { decodeOffset, pageOfArray } from '../../shared/kernel/cursor.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';
import { PAGE_SIZE } from '../../shared/kernel/http/schemas.ts';

/**
 * One page of the held extract's officeholders: read from the extract's paged list (one page,
 * filed by status), or, for an extract stored before officeholders were paged, from the section.
 * The cursor holds the offset either way.
 */
export const createHandler = (ports: RoutePorts<typeof companyRoutes.listOfficeholders>) =>
  createHttpHandler(companyRoutes.listOfficeholders, ports, async (input) => {
    const status = input.query.status ?? 'current';
    const { extract } = await locateSection(ports, input, 'officeholders', status !== 'current');
    const limit = input.query.limit ?? PAGE_SIZE.default;
    const scope = {
      route: companyRoutes.listOfficeholders.name,
      filters: { id: input.path.id, status, extract: extract.id },
      owner: input.auth,
    };
    const offset = await decodeOffset(ports.cursors, scope, input.query.cursor);
    const stored = await ports.heldExtracts.readPage(extract.id, OFFICEHOLDER_PAGES, {
      offset,
      limit,
      ...(status === 'all' ? {} : { key: status }),
    });
    if (stored) {
      const next = offset + stored.items.length;
      const hasMore = next < stored.total;
      return {
        body: {
          object: 'list',
          data: stored.items,
          hasMore,
          nextCursor: hasMore ? await ports.cursors.encode(scope, next) : null,
          totalCount: stored.total,
          extract,
        },
      };
    }
    const records = (
      (await ports.heldExtracts.getSection(extract.id, 'officeholders')) as StatusRecord[]
    ).filter(byRecordStatus(status));
    const page = await pageOfArray(records, {
      ...scope,
      limit,
      cursor: input.query.cursor,
      codec: ports.cursors,
    });
    return { body: { object: 'list', ...page, extract } };
  });

export const handler = createHandler(
  awsRoutePorts(companyRoutes.listOfficeholders, { heldExtracts, registryFor }),
);
