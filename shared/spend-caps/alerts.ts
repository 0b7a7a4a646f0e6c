/**
 * Spend alerts: when a capped scope's spend reaches 50, 80 or 100 % of its cap, once per threshold
 * per month, a `spend_cap.threshold_reached` event is recorded (and so delivered to webhooks by the
 * sweeper's publication) and the account's billing recipients are mailed (the sweeper, before it
 * publishes the event: functions/workers/sweep.ts).
 */
import { toTimestamp } from '../kernel/clock.ts';
import { logger } from '../kernel/observability.ts';
import type { Mailer, MailMessage } from '../kernel/ports/mailer.ts';
import { type PriceSchedule, stagePrices } from '../kernel/prices.ts';
import type { EventRecord } from '../webhooks/event-port.ts';
import { eventIdFor } from '../webhooks/publish.ts';
import { ALERT_THRESHOLDS, money, presentSpendCap, type SpendCapView, scopeName } from './present.ts';
import type { BillingRecipients, MemberDirectory, SpendCap, SpendHoldStore } from './store-port.ts';

export const SPEND_ALERT_EVENT = 'spend_cap.threshold_reached';

/** The event's `data`: the threshold reached and the cap as `GET /v1/spend-caps/…` shows it. */
export interface SpendAlertData {
  object: 'spendCapAlert';
  threshold: number;
  cap: SpendCapView;
}

/** Records the alert of every threshold the cap's spend has reached this month and not yet alerted. */
export async function alertReached(
  store: SpendHoldStore,
  cap: SpendCap,
  month: string,
  now: Date,
  schedule: PriceSchedule = stagePrices(),
): Promise<number[]> {
  const ref = { accountId: cap.accountId, environment: cap.environment, scope: cap.scope, month };
  const counter = await store.counter(cap.accountId, cap.environment, cap.scope, month);
  const sent: number[] = [];
  for (const threshold of ALERT_THRESHOLDS) {
    if (counter.alerted.includes(threshold) || counter.spentCents * 100 < threshold * cap.amountCents)
      continue;
    const data: SpendAlertData = {
      object: 'spendCapAlert',
      threshold,
      cap: presentSpendCap(
        {
          environment: cap.environment,
          scope: cap.scope,
          cap,
          counter: { ...counter, alerted: [...counter.alerted, ...sent, threshold] },
          month,
        },
        schedule,
      ),
    };
    const event: EventRecord = {
      id: eventIdFor(
        `${cap.accountId}#${cap.environment}#${scopeName(cap.scope)}#${month}`,
        `${SPEND_ALERT_EVENT}#${threshold}`,
      ),
      type: SPEND_ALERT_EVENT,
      createdAt: toTimestamp(now),
      livemode: cap.environment === 'live',
      accountId: cap.accountId,
      environment: cap.environment,
      data: data as unknown as Record<string, unknown>,
      publishedAt: null,
    };
    if (await store.alert(ref, threshold, event)) sent.push(threshold);
  }
  return sent;
}

/** The alert's email to one recipient; sent again, it is sent once (keyed by event and recipient). */
export function spendAlertMail(event: EventRecord, to: string): MailMessage {
  const { threshold, cap } = event.data as unknown as SpendAlertData;
  const whose = cap.scope === 'account' ? 'Your account' : `Your API key ${cap.keyId}`;
  const mode = cap.billed ? '' : ' (test mode: counted at example prices, never billed)';
  return {
    to,
    subject: `Spend alert: ${threshold}% of your monthly spend cap reached`,
    text: [
      `${whose} has spent ${money(cap.spentCents, cap.currency)} of its ${money(cap.amountCents ?? 0, cap.currency)} monthly spend cap in ${cap.month}${mode}.`,
      threshold >= 100
        ? 'Purchases that would pass the cap are refused (spend_cap_exceeded) until the month ends or the cap is raised.'
        : `Purchases that would pass the cap will be refused (spend_cap_exceeded).`,
      `Event ${event.id}. Review or change the cap in the console, or with PUT /v1/spend-caps/${cap.scope === 'account' ? 'account' : `keys/${cap.keyId}`}.`,
    ].join('\n\n'),
    attachments: [],
    idempotencyKey: `${event.id}#${to}`,
  };
}

/**
 * The roles mailed an account's spend alerts: billing members follow the spend, and admins are the
 * only ones who may raise a cap (caps.ts), so they must hear when one is reached.
 */
export const SPEND_ALERT_ROLES = ['billing', 'admin'] as const;

/** The account's billing and admin members, then the account cap's `alertEmails`, each address once. */
export function billingRecipientsOf(
  members: MemberDirectory,
  alertEmails: BillingRecipients,
): BillingRecipients {
  return {
    async recipientsOf(accountId, environment) {
      const [listed, extra] = await Promise.all([
        members.list(accountId, environment),
        alertEmails.recipientsOf(accountId, environment),
      ]);
      const roles: readonly string[] = SPEND_ALERT_ROLES;
      const billing = listed.filter((member) => roles.includes(member.role)).map((member) => member.email);
      return [...new Set([...billing, ...extra.map((email) => email.toLowerCase())])];
    },
  };
}

/** The sweeper's part: mails a spend alert to the account's billing recipients before it is published. */
export async function mailSpendAlert(
  ports: { billingRecipients: BillingRecipients; mailer: Mailer },
  event: EventRecord,
): Promise<void> {
  if (event.type !== SPEND_ALERT_EVENT) return;
  const recipients = await ports.billingRecipients.recipientsOf(event.accountId, event.environment);
  if (recipients.length === 0) logger.info('spend alert without billing recipients', { eventId: event.id });
  for (const to of recipients) await ports.mailer.send(spendAlertMail(event, to));
}
