/** Spend caps' requests and answers (docs/usage.md, "Spend caps"). */
import * as z from 'zod/mini';
import { listEnvelope, metaSchema, named, timestamp } from '../kernel/http/schemas.ts';
import { shakable } from '../kernel/shakable.ts';
import { ALERT_THRESHOLDS } from './present.ts';

/** The most a cap may be: one million in the currency (whole cents). */
export const MAX_CAP_CENTS = 100_000_000;
export const MAX_ALERT_EMAILS = 5;

export const keyCapPath = /* @__PURE__ */ shakable(() =>
  z.strictObject({ keyId: z.string().check(z.minLength(1), z.maxLength(64)) }),
);

const amountCents = /* @__PURE__ */ shakable(() =>
  z
    .int({ error: 'amountCents must be a whole number of cents' })
    .check(
      z.minimum(1, 'amountCents must be at least 1'),
      z.maximum(MAX_CAP_CENTS, `amountCents must be at most ${MAX_CAP_CENTS}`),
    ),
);

export const keyCapBody = /* @__PURE__ */ shakable(() =>
  named(
    'SetKeySpendCap',
    z.strictObject({ amountCents }),
    "A key's monthly spend cap, in cents of the stage's currency (`GET /v1/usage`'s `amounts.currency`).",
  ),
);

export const accountCapBody = /* @__PURE__ */ shakable(() =>
  named(
    'SetAccountSpendCap',
    z.strictObject({
      amountCents,
      alertEmails: z.optional(
        z
          .array(z.email({ error: 'alertEmails must hold email addresses' }))
          .check(z.maxLength(MAX_ALERT_EMAILS, `alertEmails holds at most ${MAX_ALERT_EMAILS} addresses`)),
      ),
    }),
    "The account's monthly spend cap, in cents, and who is mailed its spend alerts (replaced as given; omitted: none).",
  ),
);

export const spendCapSchema = /* @__PURE__ */ shakable(() =>
  named(
    'SpendCap',
    z.object({
      object: z.literal('spendCap'),
      /** `account`: every key of the account in this environment; `key`: one key. */
      scope: z.enum(['account', 'key']),
      keyId: z.nullable(z.string()),
      /** The cap in cents; null when none is set (no cap: the default). */
      amountCents: z.nullable(z.int()),
      currency: z.string(),
      /** The calendar month (UTC) `spentCents` is of, `YYYY-MM`. */
      month: z.string().check(z.regex(/^\d{4}-\d{2}$/)),
      /** Fees of this month's purchases, in the prices `GET /v1/usage` records, plus purchases running now. */
      spentCents: z.int(),
      remainingCents: z.nullable(z.int()),
      /** Percentages of the cap at which an alert is sent, once each a month. */
      alertThresholds: z.array(z.int()),
      /** The thresholds alerted this month. */
      alertsSent: z.array(z.int()),
      alertEmails: z.array(z.string()),
      /** False for test keys: counted at the stage's prices, never billed. */
      billed: z.boolean(),
      examplePrices: z.boolean(),
      updatedAt: z.nullable(timestamp),
    }),
    `A monthly spend cap and what its scope spent this month. Alerts at ${ALERT_THRESHOLDS.join(', ')} % of the cap.`,
  ),
);

export const spendCapResponse = /* @__PURE__ */ shakable(() =>
  named('SpendCapResponse', z.extend(spendCapSchema, { meta: metaSchema })),
);

export const spendCapListSchema = /* @__PURE__ */ shakable(() =>
  listEnvelope('SpendCapList', spendCapSchema),
);

/** The event's data (`spend_cap.threshold_reached`). */
export const spendCapAlertSchema = /* @__PURE__ */ shakable(() =>
  named(
    'SpendCapAlert',
    z.object({
      object: z.literal('spendCapAlert'),
      threshold: z.int(),
      cap: spendCapSchema,
    }),
    'A spend cap alert: the threshold (percent of the cap) its scope reached this month, and the cap.',
  ),
);

/** The webhook body of a spend alert (spec 6.2's envelope around `SpendCapAlert`). */
export const spendCapAlertEventSchema = /* @__PURE__ */ shakable(() =>
  named(
    'SpendCapAlertEvent',
    z.object({
      object: z.literal('event'),
      id: z.string().check(z.startsWith('evt_')),
      type: z.literal('spend_cap.threshold_reached'),
      createdAt: timestamp,
      livemode: z.boolean(),
      data: spendCapAlertSchema,
    }),
    'Sent when a spend cap reaches 50, 80 or 100 % in a calendar month (once per threshold and month).',
  ),
);
