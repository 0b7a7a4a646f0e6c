/** Factories of company monitoring's ports on Lambda (see root.ts). */
import { DynamoMonitoringRuns, DynamoMonitorStore } from '../../adapters/dynamodb/monitoring.ts';
import type { CapabilityFactory } from './root.ts';

export const monitors: CapabilityFactory<'monitors'> = (root) =>
  new DynamoMonitorStore(root.config.mainTable);
export const monitoringRuns: CapabilityFactory<'monitoringRuns'> = (root) =>
  new DynamoMonitoringRuns(root.config.mainTable);
