/** Held extracts as the central places see it (shared/kernel/capability.ts): the grants of its ports. */
import { defineCapability } from '../kernel/capability.ts';

export const extractsCapability = defineCapability({
  name: 'extracts',
  portGrants: {
    heldExtracts: { tables: { main: 'read' } },
    extractPurchases: { tables: { main: 'readWrite' } },
    // A purchase the registry refused is forgotten (its record deleted).
    purchaseRecords: { tables: { main: 'readWriteDelete' } },
    ledger: { tables: { main: 'read' } },
  },
});
