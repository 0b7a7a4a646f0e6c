/** Weekly summaries (spec document 1, 2.7; document 2, 4.10): requests and the extract's shape. */
import * as z from 'zod/mini';
import {
  codedSchema,
  companySummarySchema,
  isoDate,
  partySchema,
  timestamp,
} from '../companies/shared-schemas.ts';
import {
  coded,
  cursorParam,
  dateParam,
  limitParam,
  listEnvelope,
  metaSchema,
  named,
} from '../kernel/http/schemas.ts';
import { shakable } from '../kernel/shakable.ts';
import { weeklySummaryTypes } from './registry-port.ts';

/** A weekly summary's type: one of the six slugs, or 400 `summary_type_invalid`. */
const summaryType = /* @__PURE__ */ shakable(() =>
  coded(
    'summary_type_invalid',
    z.enum(weeklySummaryTypes, {
      error: (issue) =>
        issue.input === undefined
          ? 'type is required'
          : `type must be one of ${weeklySummaryTypes.join(', ')}`,
    }),
  ),
);

/**
 * `weekStarting`: a date, or 400 `week_start_invalid`. That it is a real date, a Monday, of a
 * completed week within the last 12 months is the use case's check (same code), since JSON Schema
 * cannot say it.
 */
const weekStarting = /* @__PURE__ */ shakable(() =>
  coded(
    'week_start_invalid',
    z
      .string({
        error: (issue) =>
          issue.input === undefined ? 'weekStarting is required' : 'weekStarting must be a string',
      })
      .check(z.regex(/^\d{4}-\d{2}-\d{2}$/, 'weekStarting must be a date YYYY-MM-DD')),
  ).register(z.globalRegistry, {
    description:
      'The Monday the week starts on, `YYYY-MM-DD`: a real date, a Monday, of a week that has ended, within the last 12 months. Anything else is 400 `week_start_invalid` (the calendar rules are checked by the service, not by this schema).',
  }),
);

export const purchaseWeeklySummaryBody = /* @__PURE__ */ shakable(() =>
  named(
    'PurchaseWeeklySummaryRequest',
    z.strictObject({
      type: summaryType,
      weekStarting,
      refresh: z.optional(z.boolean({ error: 'refresh must be true or false' })),
    }),
  ),
);

export const POSTCODE_PATTERN = /^\d{4}$/;

export const weeklySummaryReadQuery = /* @__PURE__ */ shakable(() =>
  z.strictObject({
    postcode: z.optional(z.string().check(z.regex(POSTCODE_PATTERN, 'postcode must be four digits'))),
    limit: limitParam,
    cursor: cursorParam,
  }),
);

export const weeklySummaryListQuery = /* @__PURE__ */ shakable(() =>
  z.strictObject({
    type: z.optional(summaryType),
    weekStarting: dateParam('weekStarting'),
    limit: limitParam,
    cursor: cursorParam,
  }),
);

export const weeklySummaryItemSchema = /* @__PURE__ */ shakable(() =>
  named(
    'WeeklySummaryItem',
    z.object({
      object: z.literal('weeklySummaryItem'),
      subType: codedSchema,
      date: isoDate,
      postcode: z.nullable(z.string()),
      documentNumber: z.nullable(z.string()),
      subject: z.nullable(partySchema),
      newName: z.nullable(z.string()),
      licenceNumber: z.nullable(z.string()),
      company: z.nullable(
        named(
          'WeeklySummaryCompany',
          z.extend(companySummarySchema, {
            class: z.nullable(codedSchema),
            subClass: z.nullable(codedSchema),
          }),
        ),
      ),
    }),
  ),
);

const weeklySummaryFields = /* @__PURE__ */ shakable(() => ({
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
}));

/** A held weekly summary as the lists show it: the extract without its items. */
export const weeklySummarySummarySchema = /* @__PURE__ */ shakable(() =>
  named('WeeklySummaryExtractSummary', z.object(weeklySummaryFields)),
);

export const weeklySummarySchema = /* @__PURE__ */ shakable(() =>
  named(
    'WeeklySummaryExtract',
    z.object({
      ...weeklySummaryFields,
      postcode: z.nullable(z.string()),
      items: named(
        'WeeklySummaryItemPage',
        z.object({
          object: z.literal('list'),
          data: z.array(weeklySummaryItemSchema),
          hasMore: z.boolean(),
          nextCursor: z.nullable(z.string()),
          totalCount: z.int(),
        }),
      ),
      postcodeTotals: z.nullable(
        z.array(named('PostcodeTotal', z.object({ postcode: z.string(), count: z.int() }))),
      ),
      meta: metaSchema,
    }),
  ),
);

export const weeklySummaryListSchema = /* @__PURE__ */ shakable(() =>
  listEnvelope('WeeklySummaryExtractList', weeklySummarySummarySchema),
);
