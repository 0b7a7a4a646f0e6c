import * as z from 'zod/mini';
import {
  coded,
  codedPattern,
  cursorParam,
  dateParam,
  isoDate,
  limitParam,
  listFields,
  metaSchema,
  named,
  timestamp,
  withMeta,
} from '../kernel/http/schemas.ts';
import { ELEVEN_DIGIT_FORM, NINE_DIGIT_FORM } from '../kernel/identifiers.ts';
import { shakable } from '../kernel/shakable.ts';
import { companyExtractTypes } from './registry-port.ts';
import {
  addressRecordSchema,
  addressSchema,
  codedSchema,
  companySummarySchema,
  documentSchema,
  extractParam,
  extractRefSchema,
  nullableDate,
  partySchema,
  searchScopeParam,
  sectionList,
  sourceDocument,
} from './shared-schemas.ts';

export * from './shared-schemas.ts';

// ---- requests -------------------------------------------------------------------------------

export const recordStatuses = ['current', 'ceased', 'all'] as const;
const recordStatusParam = /* @__PURE__ */ shakable(() =>
  z.optional(z.enum(recordStatuses, { error: `status must be one of ${recordStatuses.join(', ')}` })),
);

const numberParam = (name: 'acn' | 'abn', form: RegExp, digits: number) =>
  codedPattern(
    z.string().register(z.globalRegistry, {
      description: `An ${name.toUpperCase()}: ${digits} digits, spaces ignored. Its check digit cannot be said in the schema: a number failing it is 400 \`${name}_invalid\`.`,
    }),
    form,
    `${name}_invalid`,
    `must be ${digits} digits; use ${name === 'acn' ? 'abn for an ABN' : 'acn for an ACN'}`,
  );

export const companySearchQuery = /* @__PURE__ */ shakable(() =>
  z.strictObject({
    q: z.optional(
      z.string().check(z.minLength(1, 'q must not be empty'), z.maxLength(200)).register(z.globalRegistry, {
        description:
          'A company name, or part of one. Give exactly one of `q`, `acn` and `abn`: none is 422 `validation_error`, a name with a number 400 `identifier_conflict`, both numbers 400 `abn_and_acn_supplied`.',
      }),
    ),
    acn: z.optional(numberParam('acn', NINE_DIGIT_FORM, 9)),
    abn: z.optional(numberParam('abn', ELEVEN_DIGIT_FORM, 11)),
    scope: z.optional(searchScopeParam),
    limit: limitParam,
    cursor: cursorParam,
  }),
);

export const purchaseExtractBody = /* @__PURE__ */ shakable(() =>
  named(
    'PurchaseCompanyExtractRequest',
    z.strictObject({
      type: coded(
        'extract_type_invalid',
        z.enum(companyExtractTypes, {
          error: (issue) =>
            issue.input === undefined
              ? 'type is required'
              : `type must be one of ${companyExtractTypes.join(', ')}`,
        }),
      ),
    }),
  ),
);

export const officeholdersQuery = /* @__PURE__ */ shakable(() =>
  z.strictObject({
    status: recordStatusParam,
    extract: extractParam,
    limit: limitParam,
    cursor: cursorParam,
  }),
);

export const addressTypes = ['RG', 'RP', 'PA', 'RO', 'CC'] as const;
export const addressesQuery = /* @__PURE__ */ shakable(() =>
  z.strictObject({
    type: z.optional(z.enum(addressTypes, { error: `type must be one of ${addressTypes.join(', ')}` })),
    status: recordStatusParam,
    extract: extractParam,
  }),
);

export const sectionQuery = /* @__PURE__ */ shakable(() =>
  z.strictObject({ status: recordStatusParam, extract: extractParam }),
);
export const extractOnlyQuery = /* @__PURE__ */ shakable(() => z.strictObject({ extract: extractParam }));

export const documentQualifiers = ['AR', 'FR'] as const;
export const documentsQuery = /* @__PURE__ */ shakable(() =>
  z.strictObject({
    years: z.optional(
      z
        .pipe(
          z
            .string()
            .check(z.regex(/^(?:0?[1-9]|[1-9]\d)$/, 'years must be a whole number of years from 1 to 99')),
          z.pipe(z.transform(Number), z.int()),
        )
        .register(z.globalRegistry, {
          description:
            'Documents received in the last `years` years (1 to 99). Give `years` or a `from`/`to` range, not both (400 `document_period_conflict`); a range needs both ends, `from` not after `to` (400 `document_date_range_invalid`).',
        }),
    ),
    from: dateParam('from'),
    to: dateParam('to'),
    qualifier: z.optional(
      z.enum(documentQualifiers, {
        error: 'qualifier must be AR (annual returns) or FR (financial reports)',
      }),
    ),
    extract: extractParam,
    limit: limitParam,
    cursor: cursorParam,
  }),
);

export const chargeStatuses = ['satisfied', 'deleted', 'all'] as const;
export const chargesQuery = /* @__PURE__ */ shakable(() =>
  z.strictObject({
    status: z.optional(
      z.enum(chargeStatuses, { error: `status must be one of ${chargeStatuses.join(', ')}` }),
    ),
    extract: extractParam,
  }),
);

export const chargePath = /* @__PURE__ */ shakable(() =>
  z.strictObject({ chargeNumber: z.string().check(z.minLength(1)) }),
);

// ---- responses ------------------------------------------------------------------------------

export const companySchema = /* @__PURE__ */ shakable(() =>
  named(
    'Company',
    z.extend(companySummarySchema, {
      object: z.literal('company'),
      class: z.nullable(codedSchema),
      subClass: z.nullable(codedSchema),
      registeredAt: nullableDate,
      governanceType: z.nullable(codedSchema),
      schemeCategories: z.array(codedSchema),
      deregistration: z.nullable(named('Deregistration', z.object({ date: isoDate, reason: codedSchema }))),
      formerNames: z.array(
        named('FormerName', z.object({ name: z.string(), from: nullableDate, to: isoDate })),
      ),
    }),
  ),
);

export const officeholderSchema = /* @__PURE__ */ shakable(() =>
  named(
    'Officeholder',
    z.object({
      object: z.literal('officeholder'),
      role: codedSchema,
      status: codedSchema,
      appointedAt: nullableDate,
      ceasedAt: nullableDate,
      party: partySchema,
      address: z.nullable(addressSchema),
      sourceDocument: z.nullable(sourceDocument),
    }),
  ),
);

export const chargeSchema = /* @__PURE__ */ shakable(() =>
  named(
    'Charge',
    z.object({
      object: z.literal('charge'),
      chargeNumber: z.string().check(z.regex(/^\d{1,9}$/)),
      company: companySummarySchema,
      status: codedSchema,
      type: z.nullable(codedSchema),
      registeredAt: z.nullable(timestamp),
      createdAt: nullableDate,
      expiresAt: nullableDate,
      satisfiedAt: nullableDate,
      preAsicChargeNumber: z.nullable(z.string()),
      chargees: z.array(named('Chargee', z.object({ party: partySchema }))),
      documents: z.array(documentSchema),
    }),
  ),
);

export const relationshipSchema = /* @__PURE__ */ shakable(() =>
  named(
    'Relationship',
    z.object({
      object: z.literal('relationship'),
      role: codedSchema,
      status: codedSchema,
      appointedAt: nullableDate,
      ceasedAt: nullableDate,
      company: companySummarySchema,
    }),
  ),
);

const shareStructureFields = /* @__PURE__ */ shakable(() => ({
  shareClasses: z.array(
    named(
      'ShareClass',
      z.object({
        object: z.literal('shareClass'),
        classCode: z.string(),
        description: z.string(),
        status: codedSchema,
        sharesIssued: z.number(),
        amountPaid: z.string(),
        amountDue: z.string(),
        sourceDocument,
      }),
    ),
  ),
  members: z.array(
    named(
      'Member',
      z.object({
        object: z.literal('member'),
        classCode: z.string(),
        status: codedSchema,
        party: partySchema,
        sharesHeld: z.number(),
        fullyPaid: z.boolean(),
        beneficiallyHeld: z.boolean(),
        sourceDocument,
      }),
    ),
  ),
}));

const externalAdministrationFields = /* @__PURE__ */ shakable(() => ({
  appointees: z.array(officeholderSchema),
  documents: z.array(documentSchema),
}));

export const companyResponseSchema = /* @__PURE__ */ shakable(() =>
  named('CompanyResponse', withMeta(companySchema)),
);

const extractFields = /* @__PURE__ */ shakable(() => ({
  object: z.literal('extract'),
  id: z.string().check(z.startsWith('ext_')),
  kind: z.literal('company'),
  type: z.enum(['current', 'historical', 'relational']),
  company: companySchema,
  purchasedAt: timestamp,
  asOf: timestamp,
  expiresAt: timestamp,
  clientReference: z.nullable(z.string().check(z.maxLength(30))),
  disclaimer: z.string(),
}));

export const companyExtractSchema = /* @__PURE__ */ shakable(() =>
  named(
    'CompanyExtract',
    z.object({
      ...extractFields,
      officeholders: z.nullable(z.array(officeholderSchema)),
      addresses: z.nullable(z.array(addressRecordSchema)),
      contactAddress: z.nullable(addressRecordSchema),
      shareStructure: z.nullable(named('ExtractShareStructure', z.object(shareStructureFields))),
      documents: z.nullable(z.array(documentSchema)),
      externalAdministration: z.nullable(
        named('ExtractExternalAdministration', z.object(externalAdministrationFields)),
      ),
      charges: z.nullable(z.array(chargeSchema)),
      relationships: z.nullable(z.array(relationshipSchema)),
      meta: metaSchema,
    }),
  ),
);

export const companyExtractSummarySchema = /* @__PURE__ */ shakable(() =>
  named('CompanyExtractSummary', z.object(extractFields)),
);

export const officeholderListSchema = /* @__PURE__ */ shakable(() =>
  sectionList('OfficeholderList', officeholderSchema),
);
export const addressListSchema = /* @__PURE__ */ shakable(() =>
  named(
    'AddressRecordList',
    z.extend(z.extend(listFields(addressRecordSchema), { extract: extractRefSchema }), {
      contactAddress: z.nullable(addressRecordSchema),
    }),
  ),
);
export const documentListSchema = /* @__PURE__ */ shakable(() => sectionList('DocumentList', documentSchema));
export const chargeListSchema = /* @__PURE__ */ shakable(() => sectionList('ChargeList', chargeSchema));
export const relationshipListSchema = /* @__PURE__ */ shakable(() =>
  sectionList('RelationshipList', relationshipSchema),
);

export const shareStructureSchema = /* @__PURE__ */ shakable(() =>
  named(
    'ShareStructure',
    z.object({
      object: z.literal('shareStructure'),
      extract: extractRefSchema,
      ...shareStructureFields,
      meta: metaSchema,
    }),
  ),
);

export const externalAdministrationSchema = /* @__PURE__ */ shakable(() =>
  named(
    'ExternalAdministration',
    z.object({
      object: z.literal('externalAdministration'),
      extract: extractRefSchema,
      company: companySummarySchema,
      underExternalAdministration: z.boolean(),
      ...externalAdministrationFields,
      meta: metaSchema,
    }),
  ),
);

export const chargeResponseSchema = /* @__PURE__ */ shakable(() =>
  named('ChargeResponse', withMeta(chargeSchema)),
);
