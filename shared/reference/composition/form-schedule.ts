/** The form schedule `GET /v1/reference/forms` serves: the stored copy in the main table (shared/reference/current.ts). */

import type { PortFactory } from '../../kernel/capability-ports.ts';
import { DynamoReferenceStore } from '../adapters/dynamodb.ts';
import { currentFormSchedule } from '../current-forms.ts';

export const formSchedule: PortFactory<'formSchedule'> = (root) =>
  currentFormSchedule(new DynamoReferenceStore(root.config.mainTable), root.clock);
