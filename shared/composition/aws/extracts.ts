import { DynamoExtractStore } from '../../adapters/dynamodb/extracts.ts';
import type { CapabilityFactory } from './root.ts';

export const heldExtracts: CapabilityFactory<'heldExtracts'> = (root) =>
  new DynamoExtractStore(root.config.mainTable);
export const extractPurchases: CapabilityFactory<'extractPurchases'> = (root) =>
  new DynamoExtractStore(root.config.mainTable);
export const purchaseRecords: CapabilityFactory<'purchaseRecords'> = (root) =>
  new DynamoExtractStore(root.config.mainTable);
export const ledger: CapabilityFactory<'ledger'> = (root) => new DynamoExtractStore(root.config.mainTable);
