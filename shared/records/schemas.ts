/** Requests and responses of the record lookups: documents, business names and name reservations. */
import * as z from 'zod/mini';
import {
  codedSchema,
  companySummarySchema,
  documentSchema,
  isoDate,
  nullableDate,
  partialAddressSchema,
  partySchema,
  personNameSchema,
} from '../companies/shared-schemas.ts';
import { documentNumberSchema } from '../kernel/document-numbers.ts';
import { listEnvelope, metaSchema, named, uniqueItems, withMeta } from '../kernel/http/schemas.ts';
import { shakable } from '../kernel/shakable.ts';
import { findCodeTable } from '../reference/code-tables.ts';
import { RECORD_NUMBER_INPUT } from './identifiers.ts';
import { MAX_DOCUMENT_DETAILS } from './registry-port.ts';

// ---- requests -------------------------------------------------------------------------------

export const documentPath = /* @__PURE__ */ shakable(() => z.strictObject({ number: documentNumberSchema }));

const numbersMessage = /* @__PURE__ */ shakable(
  () => `numbers[] takes 1 to ${MAX_DOCUMENT_DETAILS} document numbers`,
);

/** `numbers[]=9E0010007&numbers[]=9E0010005`: the pipeline makes a `[]` parameter an array. */
export const documentsQuery = /* @__PURE__ */ shakable(() =>
  z.strictObject({
    'numbers[]': uniqueItems(
      z
        .array(documentNumberSchema, {
          error: (issue) =>
            issue.input === undefined ? `numbers[] is required: ${numbersMessage}` : numbersMessage,
        })
        .check(
          z.minLength(1, numbersMessage),
          z.maxLength(MAX_DOCUMENT_DETAILS, `${numbersMessage}; send more in several requests`),
        )
        .register(z.globalRegistry, {
          description: `1 to ${MAX_DOCUMENT_DETAILS} document numbers, each once (compared upper-cased and trimmed: 400 \`duplicate_document_number\`).`,
        }),
      'duplicate_document_number',
      (number) => `Document ${String(number)} is asked for twice; ask for each once.`,
    ),
  }),
);

/** A business name's or name reservation's registry number, as a request may spell it. */
const recordNumberField = () =>
  z
    .string()
    .check(
      z.regex(
        RECORD_NUMBER_INPUT,
        'must be a registry number: 1 to 20 digits and letters (spaces are ignored)',
      ),
    );

export const recordPath = /* @__PURE__ */ shakable(() => z.strictObject({ id: recordNumberField() }));

const jurisdictions = /* @__PURE__ */ shakable(
  () => (findCodeTable('jurisdictions')?.entries.map((entry) => entry.code) ?? []) as [string, ...string[]],
);

/** Give `number`, or `stateNumber` with `jurisdiction`: the use case checks the combination. */
export const businessNamesQuery = /* @__PURE__ */ shakable(() =>
  z.strictObject({
    number: z.optional(
      recordNumberField().register(z.globalRegistry, {
        description:
          'The registry number of a business name. Give it alone, not with `stateNumber` or `jurisdiction` (422 `validation_error`, 400 `identifier_conflict`).',
      }),
    ),
    stateNumber: z.optional(
      z
        .string()
        .check(
          z.regex(
            /^ *[0-9A-Za-z][0-9A-Za-z /-]{0,29}$/,
            'stateNumber must be 1 to 30 letters, digits, spaces, hyphens or slashes, starting with a letter or digit.',
          ),
        )
        .register(z.globalRegistry, {
          description:
            'A pre-2012 state registration number, with the `jurisdiction` that gave it (400 `identifier_conflict` without it). One of `number` and `stateNumber` is required (422 `validation_error`).',
        }),
    ),
    jurisdiction: z.optional(
      z
        .enum(jurisdictions, {
          error: `jurisdiction must be a code of the jurisdictions table: ${jurisdictions.join(', ')}`,
        })
        .register(z.globalRegistry, {
          description: 'The jurisdiction of `stateNumber` (only with it: 422 `validation_error` otherwise).',
        }),
    ),
  }),
);

// ---- responses ------------------------------------------------------------------------------

/** Whose document it is: the organisation or the person it was lodged against, or neither. */
const documentSubjectSchema = /* @__PURE__ */ shakable(() =>
  named(
    'DocumentSubject',
    z.object({
      type: z.enum(['organisation', 'person', 'other']),
      company: z.nullable(companySummarySchema),
      person: z.nullable(personNameSchema),
    }),
  ),
);

export const documentDetailsSchema = /* @__PURE__ */ shakable(() =>
  named('DocumentDetails', z.extend(documentSchema, { subject: documentSubjectSchema })),
);
export const documentResponseSchema = /* @__PURE__ */ shakable(() =>
  named('DocumentResponse', withMeta(documentDetailsSchema)),
);
export const documentListSchema = /* @__PURE__ */ shakable(() =>
  listEnvelope('DocumentDetailsList', documentDetailsSchema),
);

export const businessNameSchema = /* @__PURE__ */ shakable(() =>
  named(
    'BusinessName',
    z.object({
      object: z.literal('businessName'),
      id: z.string(),
      name: z.string(),
      status: codedSchema,
      registeredAt: nullableDate,
      renewalDueAt: nullableDate,
      cancelledAt: nullableDate,
      holders: z.array(
        named(
          'BusinessNameHolder',
          z.object({ party: partySchema, abn: z.nullable(z.string().check(z.regex(/^\d{11}$/))) }),
        ),
      ),
      principalPlaceOfBusiness: z.nullable(partialAddressSchema),
      previousStateRegistrations: z.array(
        named('StateRegistration', z.object({ number: z.string(), jurisdiction: codedSchema })),
      ),
    }),
  ),
);
export const businessNameResponseSchema = /* @__PURE__ */ shakable(() =>
  named('BusinessNameResponse', withMeta(businessNameSchema)),
);
export const businessNameListSchema = /* @__PURE__ */ shakable(() =>
  listEnvelope('BusinessNameList', businessNameSchema),
);

export const nameReservationResponseSchema = /* @__PURE__ */ shakable(() =>
  named(
    'NameReservation',
    z.object({
      object: z.literal('nameReservation'),
      id: z.string(),
      name: z.string(),
      status: codedSchema,
      reservedFor: z.nullable(
        named('ReservedFor', z.object({ type: codedSchema, class: z.nullable(codedSchema) })),
      ),
      company: z.nullable(companySummarySchema),
      reservedAt: isoDate,
      expiresAt: isoDate,
      sourceDocument: named(
        'ReservationDocument',
        z.object({
          documentNumber: z.string(),
          qualifier: z.nullable(z.string()),
          formCode: z.string(),
        }),
      ),
      meta: metaSchema,
    }),
  ),
);
