/**
 * Orders in the stage's API stack (lib/capability-constructs.ts): the fulfilment tier, whose event
 * bus the webhooks and company monitoring use, and the workflow's executions on the dashboard.
 */
import { Stats } from 'aws-cdk-lib/aws-cloudwatch';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { periodOf } from '../../../lib/alarms.ts';
import { defineCapabilityConstructs, sharedResource } from '../../../lib/capability-construct.ts';
import { workerScopeOf } from '../../../lib/constructs/worker-function.ts';
import { graph } from '../../../lib/dashboard.ts';
import { ORDER_BLOB_PREFIXES } from '../../../lib/data-stack.ts';
import { ORDERS_ENV, workflowTasks } from '../infra.ts';
import { ORDERS_ALARM_THRESHOLDS } from './alarms.ts';
import { Fulfilment } from './fulfilment.ts';

declare module '../../../lib/capability-construct.ts' {
  interface SharedResources {
    /** The queue route functions send orders to (`uses: queue`). */
    readonly fulfilmentQueue: IQueue;
  }
}

export default defineCapabilityConstructs({
  alarmThresholds: ORDERS_ALARM_THRESHOLDS,
  registryCallers: {
    workflowTasks: workflowTasks.filter((task) => task.needs.includes('registry')).length,
    // The sweeper (it asks the registry what became of a purchase left unsettled).
    scheduled: 1,
  },
  routeBindings: {
    uses: {
      queue: (fn, { shared }) =>
        fn.bindQueueSender(sharedResource(shared, 'fulfilmentQueue'), ORDERS_ENV.queueUrl),
      // Compiled order PDFs and offline search results, read under their prefixes only.
      blobs: (fn, { ordersBucket }) =>
        fn.bindBucket(ordersBucket, ORDERS_ENV.bucket, 'read', ORDER_BLOB_PREFIXES),
    },
  },
  build: (scope) => {
    const fulfilment = new Fulfilment(scope.stack, 'Fulfilment', {
      ...workerScopeOf(scope),
      settings: scope.settings,
      mainTable: scope.tables.main,
      keysTable: scope.tables.keys,
      registryCredentialSecret: scope.registryCredentialSecret,
      ordersBucket: scope.ordersBucket,
      apiBaseUrl: scope.apiBaseUrl,
      failedEvents: scope.failedEvents,
    });
    const period = periodOf(ORDERS_ALARM_THRESHOLDS.workflowFailures);
    const { stateMachine } = fulfilment;
    return {
      construct: fulfilment,
      shares: { eventBus: fulfilment.eventBus, fulfilmentQueue: fulfilment.queue },
      functions: [['Fulfilment workers', fulfilment.functions]],
      queues: [{ name: 'Fulfilment', queue: fulfilment.queue, deadLetters: fulfilment.deadLetterQueue }],
      dashboardRows: [
        [
          graph('Fulfilment executions', [
            stateMachine.metricStarted({ period, statistic: Stats.SUM }),
            stateMachine.metricSucceeded({ period, statistic: Stats.SUM }),
            stateMachine.metricFailed({ period, statistic: Stats.SUM }),
          ]),
        ],
      ],
    };
  },
});
