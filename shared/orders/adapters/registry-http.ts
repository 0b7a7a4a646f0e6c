/** The orders capability over HTTP: each method sends its operation (../registry-protocol.ts). */

import type { RegistryCall } from '../../adapters/registry-http/transport.ts';
import type { OrdersRegistry } from '../registry-port.ts';
import type { ordersRegistryProtocol } from '../registry-protocol.ts';

export const httpOrders = (call: RegistryCall<typeof ordersRegistryProtocol>): OrdersRegistry => ({
  planChargesExtract: (number, caller) => call('charges.plan', { number }, caller),
  getDocuments: (numbers, caller) => call('documents.get', { numbers: [...numbers] }, caller),
  requestImages: ({ clientKey, documents }, caller) =>
    call(
      'images.request',
      {
        clientKey,
        documents: documents.map(({ documentNumber, pages }) => ({
          documentNumber,
          pages: pages ? { from: pages.from, to: pages.to } : null,
        })),
      },
      caller,
    ),
  getImageRequest: (registryRequestId, caller) => call('images.status', { registryRequestId }, caller),
  // The registry keeps the pages of each request: they are not sent again.
  getImages: (registryRequestId, documentNumber, caller) =>
    call('images.get', { registryRequestId, documentNumber }, caller),
  requestPostalDelivery: (delivery, caller) => {
    const { clientKey, registryRequestIds, recipient, address, postcode, contactName, contactPhone } =
      delivery;
    const ids = [...registryRequestIds];
    return call(
      'post.request',
      {
        delivery: {
          clientKey,
          registryRequestIds: ids,
          recipient,
          address,
          postcode,
          contactName,
          contactPhone,
        },
      },
      caller,
    );
  },
  searchCompaniesOffline: (query, caller, clientKey) =>
    call('search.offline', { name: query.name, scope: query.scope, clientKey }, caller),
});
