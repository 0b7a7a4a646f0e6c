/** The people capability over HTTP: each method sends its operation of the protocol table. */
import type { PeopleRegistry } from '../../people/registry-port.ts';
import type { RegistryCall } from './transport.ts';

export const httpPeople = (call: RegistryCall): PeopleRegistry => ({
  searchPeople: ({ familyName, givenName, birthDateFrom, birthDateTo }, caller) =>
    call(
      'person.search',
      {
        query: {
          familyName,
          givenName,
          birthDateFrom: birthDateFrom ?? null,
          birthDateTo: birthDateTo ?? null,
        },
      },
      caller,
    ),
  purchasePersonExtract: (registryIdentifier, { history, includeShareholdings }, caller, clientKey) =>
    call(
      'person.extract',
      { registryIdentifier, options: { history, includeShareholdings }, clientKey },
      caller,
    ),
});
