/** Factories of company monitoring's ports on Lambda (see root.ts). */

import { SqsMonitoringQueue } from '../../adapters/aws/sqs-monitoring-queue.ts';
import { DynamoMonitoringRuns, DynamoMonitorStore } from '../../adapters/dynamodb/monitoring.ts';
import { required } from '../../kernel/config.ts';
import type { CapabilityFactory } from './root.ts';

export const monitors: CapabilityFactory<'monitors'> = (root) =>
  new DynamoMonitorStore(root.config.mainTable);
export const monitoringRuns: CapabilityFactory<'monitoringRuns'> = (root) =>
  new DynamoMonitoringRuns(root.config.mainTable);
export const monitoringQueue: CapabilityFactory<'monitoringQueue'> = (root) =>
  new SqsMonitoringQueue(required(root.config.monitoringQueueUrl, 'MONITORING_QUEUE_URL'));
