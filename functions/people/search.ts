import type { RoutePorts } from '../../shared/app/ports.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { registryFor } from '../../shared/composition/aws/registry.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';
import { peopleSearches } from '../../shared/people/composition.ts';
import * as peopleRoutes from '../../shared/people/routes.ts';
import { searchPeople } from '../../shared/people/search.ts';

export const createHandler = (ports: RoutePorts<typeof peopleRoutes.searchPeople>) =>
  createHttpHandler(peopleRoutes.searchPeople, ports, async ({ body, auth, requestId }) => ({
    body: await searchPeople({
      body,
      owner: auth,
      requestId,
      now: ports.clock.now(),
      registry: ports.registryFor(auth.environment),
      searches: ports.peopleSearches,
    }),
  }));

export const handler = createHandler(
  awsRoutePorts(peopleRoutes.searchPeople, { peopleSearches, registryFor }),
);
