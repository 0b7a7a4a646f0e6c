/** The purchases capability over the dataset. */

import type { RegistryCaller } from '../../kernel/registry-port.ts';
import type { PurchaseReconciliation, RegistryPurchaseOutcome } from '../registry-port.ts';

export class DatasetPurchases implements PurchaseReconciliation {
  /**
   * The sandbox bills nothing and its answers are never lost (it runs in process), so it keeps no
   * outcomes: every key is unknown to it. The simulator keeps them for the registry it serves.
   */
  async findPurchase(_clientKey: string, _caller: RegistryCaller): Promise<RegistryPurchaseOutcome> {
    return { state: 'none' };
  }
}
