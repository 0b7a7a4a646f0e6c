/** The purchases capability: reconciling a billable call whose answer was lost. */
import { methodsOf, type RegistryCaller } from '../kernel/registry-port.ts';

/**
 * What the registry knows of a billable call made with a client key (`findPurchase`): it finished
 * (and was billed once, whatever number of times it was repeated), is still running, or never
 * arrived or was refused (nothing billed).
 */
export type RegistryPurchaseOutcome =
  | { state: 'completed'; operation: string; result: unknown }
  | { state: 'pending' }
  | { state: 'none' };

/**
 * Every billable call carries our client key: the registry answers a repeat of the key with the
 * first call's outcome and bills nothing more, and can say later what became of it. So a lost
 * answer is retried safely, and a purchase whose answer never reached us is reconciled.
 */
export interface PurchaseReconciliation {
  /** Free. The outcome of the billable call made with this key, for this caller's account. */
  findPurchase(clientKey: string, caller: RegistryCaller): Promise<RegistryPurchaseOutcome>;
}

export const purchaseReconciliationMethods = methodsOf<PurchaseReconciliation>()(['findPurchase']);

/** This capability's part of the registry port (shared/app/registry.ts). */
declare module '../kernel/registry-port.ts' {
  interface RegistryParts {
    purchases: PurchaseReconciliation;
  }
}
