import type { RoutePorts } from '../../shared/app/ports.ts';
import { heldExtracts } from '../../shared/composition/aws/extracts.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { peopleSearches } from '../../shared/composition/aws/people.ts';
import { pageOfArray } from '../../shared/kernel/cursor.ts';
import { pageRequest } from '../../shared/kernel/http/paging.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';
import { parseRoleFilter, readPersonRoles } from '../../shared/people/roles.ts';
import { peopleRoutes } from '../../shared/people/routes.ts';

export const createHandler = (ports: RoutePorts<typeof peopleRoutes.listPersonRoles>) =>
  createHttpHandler(peopleRoutes.listPersonRoles, ports, async ({ path, query, auth }) => {
    const roles = parseRoleFilter(query);
    const status = query.status ?? 'current';
    const { extract, data } = await readPersonRoles({
      personId: path.personId,
      status,
      roles,
      extractId: query.extract,
      owner: auth,
      now: ports.clock.now(),
      heldExtracts: ports.heldExtracts,
      searches: ports.peopleSearches,
    });
    const page = await pageOfArray(
      data,
      pageRequest(ports, peopleRoutes.listPersonRoles, auth, query, {
        personId: path.personId,
        status,
        roles: roles && [...roles].sort().join(','),
        extract: extract.id,
      }),
    );
    return { body: { object: 'list', ...page, extract } };
  });

export const handler = createHandler(
  awsRoutePorts(peopleRoutes.listPersonRoles, { heldExtracts, peopleSearches }),
);
