/** The form schedule `GET /v1/reference/forms` serves: the stored copy in the main table (shared/reference/current.ts). */
import { DynamoReferenceStore } from '../../adapters/dynamodb/reference.ts';
import { currentFormSchedule } from '../../reference/current-forms.ts';
import type { CapabilityFactory } from './root.ts';

export const formSchedule: CapabilityFactory<'formSchedule'> = (root) =>
  currentFormSchedule(new DynamoReferenceStore(root.config.mainTable), root.clock);
