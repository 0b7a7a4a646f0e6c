/** The purchases capability over HTTP: `purchase.outcome` says what became of a client key. */
import type { PurchaseReconciliation } from '../../extracts/registry-port.ts';
import type { RegistryCall } from './transport.ts';

export const httpPurchases = (call: RegistryCall): PurchaseReconciliation => ({
  findPurchase: (clientKey, caller) => call('purchase.outcome', { clientKey }, caller),
});
