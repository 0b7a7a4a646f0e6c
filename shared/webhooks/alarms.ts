/**
 * The webhooks' alarm (their capability module's `alarms`; docs/operations.md says what to do):
 * the share of delivery attempts that failed, which the dashboard graphs too.
 */
import type { CapabilityAlarm } from '../kernel/capability.ts';
import { WEBHOOK_METRICS } from './metrics.ts';

export const webhookAlarms = {
  WebhookFailureRate: {
    metric: WEBHOOK_METRICS.webhookAttempts,
    failureRate: {
      dimension: 'outcome',
      outcomes: ['succeeded', 'failed'],
      failed: ['failed'],
      minimumSamples: 20,
      label: 'Webhook attempts failed (share)',
    },
    summary: 'Most webhook attempts failed.',
    threshold: {
      value: 0.5,
      periodMinutes: 15,
      periods: 2,
      reason:
        'Share of webhook attempts that failed, once at least 20 were made: single customer endpoints ' +
        'fail on their own and are retried, but most attempts failing for 30 minutes points at our side ' +
        '(egress, signing, the dispatcher).',
    },
  },
} as const satisfies Record<string, CapabilityAlarm>;
