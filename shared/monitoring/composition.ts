/**
 * Company monitoring's composition: a factory of each of its ports (shared/kernel/capability-ports.ts),
 * which its functions give `awsRoutePorts`/`awsPorts`, and the ones the local stack builds the same way
 * (`localPorts`; its queue is the local stack's stand-in, local/jobs.ts).
 */
import type { PortFactory } from '../kernel/capability-ports.ts';
import { required } from '../kernel/config.ts';
import { DynamoMonitoringRuns, DynamoMonitorStore } from './adapters/dynamodb.ts';
import { SqsMonitoringQueue } from './adapters/sqs-queue.ts';
import { MONITORING_ENV } from './infra.ts';

export const monitors: PortFactory<'monitors'> = (root) => new DynamoMonitorStore(root.config.mainTable);
export const monitoringRuns: PortFactory<'monitoringRuns'> = (root) =>
  new DynamoMonitoringRuns(root.config.mainTable);
export const monitoringQueue: PortFactory<'monitoringQueue'> = () =>
  // Monitoring's own setting, which the kernel's configuration does not know (infra.ts).
  new SqsMonitoringQueue(required(process.env[MONITORING_ENV.queueUrl], MONITORING_ENV.queueUrl));

export const localPorts = { monitors, monitoringRuns };
