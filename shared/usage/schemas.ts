/** The fee ledger's query and answer. */
import * as z from 'zod/mini';
import {
  cursorParam,
  dateParam,
  isoDate,
  limitParam,
  listFields,
  named,
  timestamp,
} from '../kernel/http/schemas.ts';
import { shakable } from '../kernel/shakable.ts';

export const usageQuery = /* @__PURE__ */ shakable(() =>
  z.strictObject({
    from: dateParam('from'),
    to: dateParam('to'),
    limit: limitParam,
    cursor: cursorParam,
  }),
);

const feeEntrySchema = /* @__PURE__ */ shakable(() =>
  named(
    'FeeEntry',
    z.object({
      object: z.literal('feeEntry'),
      at: timestamp,
      product: z.string(),
      feeCode: z.nullable(z.string()),
      quantity: z.int(),
      billable: z.boolean(),
      clientReference: z.nullable(z.string()),
      requestId: z.string(),
      resourceId: z.string(),
      /**
       * The price per unit recorded when the entry was written (a test key's: what the same use would
       * have cost), in cents of `amounts.currency`; null when no price is known.
       */
      unitAmountCents: z.nullable(z.int()),
      /** `unitAmountCents` × `quantity`. */
      amountCents: z.nullable(z.int()),
      /** The price version the entry was priced by: the date it took effect. */
      priceVersion: z.nullable(isoDate),
    }),
  ),
);

export const usageSchema = /* @__PURE__ */ shakable(() =>
  named(
    'Usage',
    z.extend(listFields(feeEntrySchema), {
      from: isoDate,
      to: isoDate,
      totals: z.array(
        named(
          'UsageTotal',
          z.object({
            product: z.string(),
            feeCode: z.nullable(z.string()),
            billable: z.boolean(),
            quantity: z.int(),
            entries: z.int(),
            /** The total's amount in cents (see `amounts`); null when an entry of it has no price. */
            amountCents: z.nullable(z.int()),
            /**
             * Our own products' price (monitoring: per monitored company-day), for live keys only;
             * absent for registry fees, which the registry's fee schedule prices.
             */
            price: z.optional(
              z
                .object({
                  unit: z.literal('monitor_day'),
                  unitAmountCents: z.int(),
                  amountCents: z.int(),
                })
                .register(z.globalRegistry, {
                  id: 'UsagePrice',
                  description: 'The price of a usage total of our own product, in cents.',
                }),
            ),
          }),
        ),
      ),
      /**
       * The period's entries per UTC day, oldest first, only the days that have entries (added in
       * 2026-11; clients that do not read it are unaffected).
       */
      days: z.array(
        named(
          'UsageDay',
          z.object({
            date: isoDate,
            entries: z.int(),
            quantity: z.int(),
            /** The day's priced entries in cents (`amounts.currency`); unpriced ones are left out. */
            amountCents: z.int(),
          }),
          "One UTC day's entries of the period: how many, their quantity and their amount.",
        ),
      ),
      amounts: z
        .object({
          /** ISO 4217 code of every amount. */
          currency: z.string(),
          /** The stage's prices are examples (local stack, sandbox): not what a live key pays. */
          examplePrices: z.boolean(),
          /** False for a test key: the amounts are what the same use would have cost, not billed. */
          billed: z.boolean(),
          /** All of the period's entries, in cents. */
          totalCents: z.int(),
          /** Entries with no known price (left out of the amounts). */
          unpricedEntries: z.int(),
          products: z.array(
            named(
              'ProductSpend',
              z.object({
                product: z.string(),
                /** The product's name for people. */
                name: z.string(),
                quantity: z.int(),
                entries: z.int(),
                amountCents: z.int(),
              }),
              "One product's entries and amount in the period.",
            ),
          ),
        })
        .register(z.globalRegistry, {
          id: 'UsageAmounts',
          description: "The period's amounts in cents: per product and in total, in the currency named.",
        }),
    }),
  ),
);
