import { DynamoExtractStore, DynamoHeldExtracts } from '../../adapters/dynamodb/extracts.ts';
import type { CapabilityFactory } from './root.ts';

/** The free reads' store: without a purchase's writes. */
export const heldExtracts: CapabilityFactory<'heldExtracts'> = (root) =>
  new DynamoHeldExtracts(root.config.mainTable);
export const extractPurchases: CapabilityFactory<'extractPurchases'> = (root) =>
  new DynamoExtractStore(root.config.mainTable);
export const purchaseRecords: CapabilityFactory<'purchaseRecords'> = (root) =>
  new DynamoExtractStore(root.config.mainTable);
export const ledger: CapabilityFactory<'ledger'> = (root) => new DynamoExtractStore(root.config.mainTable);
