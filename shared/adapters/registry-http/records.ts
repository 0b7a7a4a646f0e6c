/** The records capability over HTTP: document details, business names and name reservations (all free). */
import type { RecordsRegistry } from '../../records/registry-port.ts';
import type { RegistryCall } from './transport.ts';

export const httpRecords = (call: RegistryCall): RecordsRegistry => ({
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
