/** Held extracts as the central places see it (shared/kernel/capability.ts): the Extracts area and the grants of its ports. */
import { defineCapability } from '../kernel/capability.ts';

export const extractsCapability = defineCapability({
  name: 'extracts',
  // Its routes span every extract kind, so they are the app's (shared/app/extract-routes.ts), which
  // joins them to this area first; usage, spend caps and weekly summaries join theirs.
  areas: [
    {
      name: 'Extracts',
      tag: 'Extracts',
      description:
        'Held extracts of any kind, the fee ledger, and monthly spend caps on the account and its keys.',
      order: 40,
      routes: [],
    },
  ],
  portGrants: {
    heldExtracts: { tables: { main: 'read' } },
    extractPurchases: { tables: { main: 'readWrite' } },
    // A purchase the registry refused is forgotten (its record deleted).
    purchaseRecords: { tables: { main: 'readWriteDelete' } },
    ledger: { tables: { main: 'read' } },
  },
});
