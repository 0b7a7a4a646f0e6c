/** What every extract purchase takes from its HTTP request and its handler's ports. */

import type { Environment } from '../kernel/api-keys.ts';
import type { AuthContext } from '../kernel/http/pipeline.ts';
import type { PlatformPorts } from '../kernel/ports/platform.ts';
import type { PurchaseContext } from './lifecycle.ts';
import type { ExtractPurchases, HeldExtracts, PurchaseRecords } from './store-port.ts';

/** Who buys, the names the request gives the purchase, the time, the registry of the key's environment and the extract stores. */
export const purchaseRequestOf = <R>(
  ports: PlatformPorts & {
    heldExtracts: HeldExtracts;
    extractPurchases: ExtractPurchases;
    purchaseRecords: PurchaseRecords;
    registryFor: (environment: Environment) => R;
  },
  input: {
    auth: AuthContext;
    requestId: string;
    clientReference: string | null;
    recoveryKey: string | undefined;
  },
): PurchaseContext<R> => ({
  owner: input.auth,
  requestId: input.requestId,
  clientReference: input.clientReference,
  recoveryKey: input.recoveryKey,
  now: ports.clock.now(),
  registry: ports.registryFor(input.auth.environment),
  heldExtracts: ports.heldExtracts,
  extractPurchases: ports.extractPurchases,
  purchaseRecords: ports.purchaseRecords,
});
