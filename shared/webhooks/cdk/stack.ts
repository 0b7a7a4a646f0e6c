/**
 * Webhooks in the stage's API stack (lib/capability-constructs.ts): the dispatcher and retry tier
 * on the orders' event bus, and the delivery attempts on the dashboard.
 */

import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { capabilityFailureRate } from '../../../lib/alarms.ts';
import { defineCapabilityConstructs, sharedResource } from '../../../lib/capability-construct.ts';
import { allowSecretUse } from '../../../lib/constructs/webhook-secrets-key.ts';
import { workerScopeOf } from '../../../lib/constructs/worker-function.ts';
import { byOutcome } from '../../../lib/dashboard.ts';
import { webhookAlarms } from '../alarms.ts';
import { WEBHOOK_ENV } from '../infra.ts';
import { Webhooks } from './webhooks.ts';

const failureRate = webhookAlarms.WebhookFailureRate;

declare module '../../../lib/capability-construct.ts' {
  interface SharedResources {
    /** The webhook dispatcher's queue (`uses: webhookQueue`). */
    readonly webhookQueue: IQueue;
  }
}

export default defineCapabilityConstructs({
  after: ['orders'],
  routeBindings: {
    uses: {
      webhookQueue: (fn, { shared }) =>
        fn.bindQueueSender(sharedResource(shared, 'webhookQueue'), WEBHOOK_ENV.queueUrl),
      // Seals a subscription's signing secret (Encrypt only).
      sealer: (fn, { webhookKey }) => allowSecretUse(fn, webhookKey, 'seal'),
    },
  },
  build: (scope) => {
    const webhooks = new Webhooks(scope.stack, 'Webhooks', {
      ...workerScopeOf(scope),
      mainTable: scope.tables.main,
      eventBus: sharedResource(scope.shared, 'eventBus'),
      key: scope.webhookKey,
      failedEvents: scope.failedEvents,
    });
    return {
      construct: webhooks,
      shares: { webhookQueue: webhooks.queue },
      functions: [['Webhook workers', webhooks.functions]],
      queues: [{ name: 'Webhooks', queue: webhooks.queue, deadLetters: webhooks.deadLetterQueue }],
      dashboardRows: [
        [
          byOutcome(
            failureRate.metric.name,
            failureRate.failureRate.outcomes,
            capabilityFailureRate(failureRate),
          ),
        ],
      ],
    };
  },
});
