/** The code tables the code-table routes serve: the stored copy in the main table (shared/reference/current.ts). */
import { DynamoReferenceStore } from '../../adapters/dynamodb/reference.ts';
import { currentCodeTables } from '../../reference/current-code-tables.ts';
import type { CapabilityFactory } from './root.ts';

export const codeTableSet: CapabilityFactory<'codeTableSet'> = (root) =>
  currentCodeTables(new DynamoReferenceStore(root.config.mainTable), root.clock);
