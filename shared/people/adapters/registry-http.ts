/** The people capability over HTTP: each method sends its operation (../registry-protocol.ts). */

import type { RegistryCall } from '../../adapters/registry-http/transport.ts';
import type { PeopleRegistry } from '../registry-port.ts';
import type { peopleRegistryProtocol } from '../registry-protocol.ts';

export const httpPeople = (call: RegistryCall<typeof peopleRegistryProtocol>): PeopleRegistry => ({
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
