/** The records capability over HTTP: document details, business names and name reservations (all free). */

import type { RegistryCall } from '../../adapters/registry-http/transport.ts';
import type { RecordsRegistry } from '../registry-port.ts';
import type { recordsRegistryProtocol } from '../registry-protocol.ts';

export const httpRecords = (call: RegistryCall<typeof recordsRegistryProtocol>): RecordsRegistry => ({
  getDocumentDetails: (numbers, caller) => call('documents.details', { numbers: [...numbers] }, caller),
  findBusinessNames: ({ number, stateNumber, jurisdiction }, caller) =>
    call(
      'business-names.find',
      {
        query: { number, stateNumber, jurisdiction },
      },
      caller,
    ),
  getNameReservation: (number, caller) => call('name-reservation.get', { number }, caller),
});
