/** The purchases capability over HTTP: `purchase.outcome` says what became of a client key. */

import type { RegistryCall } from '../../adapters/registry-http/transport.ts';
import type { PurchaseReconciliation } from '../registry-port.ts';
import type { purchaseRegistryProtocol } from '../registry-protocol.ts';

export const httpPurchases = (
  call: RegistryCall<typeof purchaseRegistryProtocol>,
): PurchaseReconciliation => ({
  findPurchase: (clientKey, caller) => call('purchase.outcome', { clientKey }, caller),
});
