import { DynamoExtractStore } from '../../adapters/dynamodb/extracts.ts';
import type { CapabilityFactory } from './root.ts';

export const extracts: CapabilityFactory<'extracts'> = (root) =>
  new DynamoExtractStore(root.config.mainTable);
export const ledger: CapabilityFactory<'ledger'> = (root) => new DynamoExtractStore(root.config.mainTable);
