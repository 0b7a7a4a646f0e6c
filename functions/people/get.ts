import { createHttpHandler } from '../../shared/http/pipeline.ts';
import { peopleRoutes } from '../../shared/http/routes/people.ts';
import { isSearchExpired, knownPerson, searchExpired } from '../../shared/people/search.ts';
import { peopleSearchStore } from '../../shared/stores.ts';

export const handler = createHttpHandler(peopleRoutes.getPerson, async ({ path, auth, services }) => {
  const person = await knownPerson(peopleSearchStore(), path.personId, auth);
  if (isSearchExpired(person.searchExpiresAt, services.clock.now())) {
    throw searchExpired('personId', person.searchExpiresAt);
  }
  return { body: { ...person.match, searchId: person.searchId, searchExpiresAt: person.searchExpiresAt } };
});
