/** The webhooks' metric lines (shared/kernel/metric-line.ts), and the alarm on them (alarms.ts). */
import type { MetricSpec } from '../kernel/metric-line.ts';

export const WEBHOOK_METRICS = {
  /** One per webhook attempt made, by outcome (`succeeded` or `failed`). */
  webhookAttempts: { name: 'WebhookAttempts', dimensions: ['outcome'] },
} as const satisfies Record<string, MetricSpec>;
