import { createHttpHandler } from '../../shared/http/pipeline.ts';
import { peopleRoutes } from '../../shared/http/routes/people.ts';
import { searchPeople } from '../../shared/people/search.ts';
import { registryFor } from '../../shared/registry/registries.ts';
import { peopleSearchStore } from '../../shared/stores.ts';

export const handler = createHttpHandler(
  peopleRoutes.searchPeople,
  async ({ body, auth, requestId, services }) => ({
    body: await searchPeople({
      body,
      owner: auth,
      requestId,
      now: services.clock.now(),
      registry: registryFor(auth.environment, services),
      searches: peopleSearchStore(),
    }),
  }),
);
