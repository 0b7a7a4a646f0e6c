import type { RoutePorts } from '../../shared/app/ports.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { heldExtracts } from '../../shared/extracts/composition.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';
import { peopleSearches } from '../../shared/people/composition.ts';
import { listPersonRoles } from '../../shared/people/roles.ts';
import * as peopleRoutes from '../../shared/people/routes.ts';

export const createHandler = (ports: RoutePorts<typeof peopleRoutes.listPersonRoles>) =>
  createHttpHandler(peopleRoutes.listPersonRoles, ports, async ({ path, query, auth }) => {
    const read = {
      heldExtracts: ports.heldExtracts,
      searches: ports.peopleSearches,
      cursors: ports.cursors,
      owner: auth,
      now: ports.clock.now(),
    };
    const { page, extract } = await listPersonRoles(read, path.personId, query);
    return { body: { object: 'list', ...page, extract } };
  });

export const handler = createHandler(
  awsRoutePorts(peopleRoutes.listPersonRoles, { heldExtracts, peopleSearches }),
);
