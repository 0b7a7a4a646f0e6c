import type { RoutePorts } from '../../shared/app/ports.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';
import { peopleSearches } from '../../shared/people/composition.ts';
import * as peopleRoutes from '../../shared/people/routes.ts';
import { isSearchExpired, knownPerson, searchExpired } from '../../shared/people/search.ts';

export const createHandler = (ports: RoutePorts<typeof peopleRoutes.getPerson>) =>
  createHttpHandler(peopleRoutes.getPerson, ports, async ({ path, auth }) => {
    const person = await knownPerson(ports.peopleSearches, path.personId, auth);
    if (isSearchExpired(person.searchExpiresAt, ports.clock.now())) {
      throw searchExpired('personId', person.searchExpiresAt);
    }
    return { body: { ...person.match, searchId: person.searchId, searchExpiresAt: person.searchExpiresAt } };
  });

export const handler = createHandler(awsRoutePorts(peopleRoutes.getPerson, { peopleSearches }));
