import type { HttpPorts } from '../../shared/app/ports.ts';
import { extracts } from '../../shared/composition/aws/extracts.ts';
import { awsHttpPorts } from '../../shared/composition/aws/http.ts';
import { peopleSearches } from '../../shared/composition/aws/people.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';
import { listPersonRoles } from '../../shared/people/roles.ts';
import { peopleRoutes } from '../../shared/people/routes.ts';

export const createHandler = (ports: HttpPorts<'extracts' | 'peopleSearches'>) =>
  createHttpHandler(peopleRoutes.listPersonRoles, ports, async ({ path, query, auth }) => {
    const read = {
      store: ports.extracts,
      searches: ports.peopleSearches,
      cursors: ports.cursors,
      owner: auth,
      now: ports.clock.now(),
    };
    const { page, extract } = await listPersonRoles(read, path.personId, query);
    return { body: { object: 'list', ...page, extract } };
  });

export const handler = createHandler(awsHttpPorts({ extracts, peopleSearches }));
