import { pageOfArray } from '../../shared/domain/cursor.ts';
import { createHttpHandler } from '../../shared/http/pipeline.ts';
import { peopleRoutes } from '../../shared/http/routes/people.ts';
import { parseRoleFilter, readPersonRoles } from '../../shared/people/roles.ts';
import { PAGE_SIZE } from '../../shared/schemas/common.ts';
import { extractStore, peopleSearchStore } from '../../shared/stores.ts';

export const handler = createHttpHandler(
  peopleRoutes.listPersonRoles,
  async ({ path, query, auth, services }) => {
    const roles = parseRoleFilter(query);
    const status = query.status ?? 'current';
    const { extract, data } = await readPersonRoles({
      personId: path.personId,
      status,
      roles,
      extractId: query.extract,
      owner: auth,
      now: services.clock.now(),
      store: extractStore(),
      searches: peopleSearchStore(),
    });
    const page = await pageOfArray(data, {
      route: peopleRoutes.listPersonRoles.name,
      filters: {
        personId: path.personId,
        status,
        roles: roles && [...roles].sort().join(','),
        extract: extract.id,
      },
      owner: auth,
      limit: query.limit ?? PAGE_SIZE.default,
      cursor: query.cursor,
      codec: services.cursors,
    });
    return { body: { object: 'list', ...page, extract } };
  },
);
