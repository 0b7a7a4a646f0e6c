/** The code tables the code-table routes serve: the stored copy in the main table (shared/reference/current.ts). */

import type { PortFactory } from '../../kernel/capability-ports.ts';
import { DynamoReferenceStore } from '../adapters/dynamodb.ts';
import { currentCodeTables } from '../current-code-tables.ts';

export const codeTableSet: PortFactory<'codeTableSet'> = (root) =>
  currentCodeTables(new DynamoReferenceStore(root.config.mainTable), root.clock);
