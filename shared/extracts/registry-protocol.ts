/**
 * Purchase reconciliation (the extracts capability)'s operations of the registry protocol (docs/registry-protocol.md; the row's fields:
 * shared/kernel/registry-protocol.ts).
 */
import { isObject, registryOperation } from '../kernel/registry-protocol.ts';
import type { PurchaseReconciliation } from './registry-port.ts';

const operation = registryOperation<PurchaseReconciliation>('purchases');

export const purchaseRegistryProtocol = {
  'purchase.outcome': operation({
    method: 'findPurchase',
    billable: false,
    timeout: 'lookup',
    args: { clientKey: 'string' },
    toPort: (a, caller) => [a.clientKey, caller],
    isResult: (v, resultOf): boolean =>
      isObject(v) &&
      (v.state === 'pending' ||
        v.state === 'none' ||
        (v.state === 'completed' && typeof v.operation === 'string' && resultOf(v.operation, v.result))),
    doc: { args: '`clientKey`', result: '`RegistryPurchaseOutcome`' },
  }),
};
