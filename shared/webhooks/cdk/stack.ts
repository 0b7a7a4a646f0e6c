/**
 * Webhooks in the stage's API stack (lib/capability-constructs.ts): the dispatcher and retry tier
 * on the orders' event bus, and the delivery attempts on the dashboard.
 */

import { capabilityFailureRate } from '../../../lib/alarms.ts';
import { defineCapabilityConstructs, sharedResource } from '../../../lib/capability-construct.ts';
import { byOutcome } from '../../../lib/dashboard.ts';
import { webhookAlarms } from '../alarms.ts';
import { Webhooks } from './webhooks.ts';

const failureRate = webhookAlarms.WebhookFailureRate;

export default defineCapabilityConstructs({
  after: ['orders'],
  build: (scope) => {
    const webhooks = new Webhooks(scope.stack, 'Webhooks', {
      mainTable: scope.tables.main,
      eventBus: sharedResource(scope.shared, 'eventBus'),
      key: scope.webhookKey,
      entryFor: scope.entryFor,
      alarms: scope.alarms,
      failedEvents: scope.failedEvents,
      liveAliases: scope.liveAliases,
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
