import { createHttpHandler } from '../../shared/http/pipeline.ts';
import { routes } from '../../shared/http/routes.ts';
import { isSearchExpired, knownPerson, searchExpired } from '../../shared/people/search.ts';

export const handler = createHttpHandler(routes.getPerson, async ({ path, auth, services }) => {
  const person = await knownPerson(services.peopleSearches, path.personId, auth);
  if (isSearchExpired(person.searchExpiresAt, services.clock.now())) {
    throw searchExpired('personId', person.searchExpiresAt);
  }
  return { body: { ...person.match, searchId: person.searchId, searchExpiresAt: person.searchExpiresAt } };
});
