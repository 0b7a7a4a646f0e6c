/** Factories of company monitoring's ports on Lambda (see root.ts). */

import { SqsMonitoringQueue } from '../../adapters/aws/sqs-monitoring-queue.ts';
import { DynamoMonitoringRuns, DynamoMonitorStore } from '../../adapters/dynamodb/monitoring.ts';
import { required } from '../../kernel/config.ts';
import { MONITORING_ENV } from '../../monitoring/infra.ts';
import type { CapabilityFactory } from './root.ts';

export const monitors: CapabilityFactory<'monitors'> = (root) =>
  new DynamoMonitorStore(root.config.mainTable);
export const monitoringRuns: CapabilityFactory<'monitoringRuns'> = (root) =>
  new DynamoMonitoringRuns(root.config.mainTable);
export const monitoringQueue: CapabilityFactory<'monitoringQueue'> = (_root) =>
  // Monitoring's own setting, which the kernel's configuration does not know (shared/monitoring/infra.ts).
  new SqsMonitoringQueue(required(process.env[MONITORING_ENV.queueUrl], MONITORING_ENV.queueUrl));
