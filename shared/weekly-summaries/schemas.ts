/** Weekly summaries (spec document 1, 2.7; document 2, 4.10): requests and the extract's shape. */
import * as z from 'zod/mini';
import { codedSchema, companySummarySchema, isoDate, partySchema, timestamp } from '../companies/schemas.ts';
import { cursorParam, dateParam, limitParam, listEnvelope, metaSchema } from '../kernel/http/schemas.ts';
import { weeklySummaryTypes } from './registry-port.ts';

const requiredString = (name: string) =>
  z.string({
    error: (issue) => (issue.input === undefined ? `${name} is required` : `${name} must be a string`),
  });

/** `type` and `weekStarting` are checked by the use case: `summary_type_invalid`, `week_start_invalid` (400). */
export const purchaseWeeklySummaryBody = z.strictObject({
  type: requiredString('type'),
  weekStarting: requiredString('weekStarting'),
  refresh: z.optional(z.boolean({ error: 'refresh must be true or false' })),
});

export const POSTCODE_PATTERN = /^\d{4}$/;

export const weeklySummaryReadQuery = z.strictObject({
  postcode: z.optional(z.string().check(z.regex(POSTCODE_PATTERN, 'postcode must be four digits'))),
  limit: limitParam,
  cursor: cursorParam,
});

export const weeklySummaryListQuery = z.strictObject({
  type: z.optional(z.string()),
  weekStarting: dateParam('weekStarting'),
  limit: limitParam,
  cursor: cursorParam,
});

export const weeklySummaryItemSchema = z.object({
  object: z.literal('weeklySummaryItem'),
  subType: codedSchema,
  date: isoDate,
  postcode: z.nullable(z.string()),
  documentNumber: z.nullable(z.string()),
  subject: z.nullable(partySchema),
  newName: z.nullable(z.string()),
  licenceNumber: z.nullable(z.string()),
  company: z.nullable(
    z.extend(companySummarySchema, { class: z.nullable(codedSchema), subClass: z.nullable(codedSchema) }),
  ),
});

const weeklySummaryFields = {
  object: z.literal('extract'),
  id: z.string().check(z.startsWith('ext_')),
  kind: z.literal('weeklySummary'),
  type: z.enum(weeklySummaryTypes),
  subject: z.null(),
  summaryType: codedSchema,
  weekStarting: isoDate,
  weekEnding: isoDate,
  purchasedAt: timestamp,
  asOf: timestamp,
  expiresAt: timestamp,
  clientReference: z.nullable(z.string().check(z.maxLength(30))),
  disclaimer: z.string(),
};

/** A held weekly summary as the lists show it: the extract without its items. */
export const weeklySummarySummarySchema = z.object(weeklySummaryFields);

export const weeklySummarySchema = z.object({
  ...weeklySummaryFields,
  postcode: z.nullable(z.string()),
  items: z.object({
    object: z.literal('list'),
    data: z.array(weeklySummaryItemSchema),
    hasMore: z.boolean(),
    nextCursor: z.nullable(z.string()),
    totalCount: z.int(),
  }),
  postcodeTotals: z.nullable(z.array(z.object({ postcode: z.string(), count: z.int() }))),
  meta: metaSchema,
});

export const weeklySummaryListSchema = listEnvelope(weeklySummarySummarySchema);
