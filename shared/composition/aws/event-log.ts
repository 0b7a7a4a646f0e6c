import { DynamoEventLog } from '../../adapters/dynamodb/events.ts';
import type { CapabilityFactory } from './root.ts';

export const eventLog: CapabilityFactory<'eventLog'> = (root) => new DynamoEventLog(root.config.mainTable);
