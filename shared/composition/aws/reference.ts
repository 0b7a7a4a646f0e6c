/** The reference data the reference routes serve: the stored copy in the main table (see current.ts). */
import { DynamoReferenceStore } from '../../adapters/dynamodb/reference.ts';
import { currentReference } from '../../reference/current.ts';
import type { CapabilityFactory } from './root.ts';

export const reference: CapabilityFactory<'reference'> = (root) =>
  currentReference(new DynamoReferenceStore(root.config.mainTable), root.clock);
