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

export const usageQuery = z.strictObject({
  from: dateParam('from'),
  to: dateParam('to'),
  limit: limitParam,
  cursor: cursorParam,
});

const feeEntrySchema = named(
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
  }),
);

export const usageSchema = named(
  'Usage',
  z.extend(listFields(feeEntrySchema), {
    from: isoDate,
    to: isoDate,
    totals: z.array(
      z.object({
        product: z.string(),
        feeCode: z.nullable(z.string()),
        billable: z.boolean(),
        quantity: z.int(),
        entries: z.int(),
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
  }),
);
