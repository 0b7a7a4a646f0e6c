/**
 * Held extracts' composition: a factory of each of its ports (shared/kernel/capability-ports.ts),
 * which functions give `awsRoutePorts`/`awsPorts`, and the ones the local stack builds the same way
 * (`localPorts`; it wraps the purchases' store in its storage faults itself, local/composition.ts).
 */

import type { PortFactory } from '../kernel/capability-ports.ts';
import { DynamoExtractStore, DynamoHeldExtracts } from './adapters/dynamodb.ts';

/** The free reads' store: without a purchase's writes. */
export const heldExtracts: PortFactory<'heldExtracts'> = (root) =>
  new DynamoHeldExtracts(root.config.mainTable);
export const extractPurchases: PortFactory<'extractPurchases'> = (root) =>
  new DynamoExtractStore(root.config.mainTable);
export const purchaseRecords: PortFactory<'purchaseRecords'> = (root) =>
  new DynamoExtractStore(root.config.mainTable);
export const ledger: PortFactory<'ledger'> = (root) => new DynamoExtractStore(root.config.mainTable);

export const localPorts = { heldExtracts, extractPurchases, purchaseRecords, ledger };
