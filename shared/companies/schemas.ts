import * as z from 'zod/mini';
import { extractKinds } from '../extracts/store-port.ts';
import {
  coded,
  codedPattern,
  cursorParam,
  dateParam,
  isoDate,
  limitParam,
  listEnvelope,
  listFields,
  metaSchema,
  named,
  timestamp,
  withMeta,
} from '../kernel/http/schemas.ts';
import { COMPANY_NUMBER_FORM, ELEVEN_DIGIT_FORM, NINE_DIGIT_FORM } from '../kernel/identifiers.ts';
import { companyExtractTypes, companySearchScopes } from './registry-port.ts';

export { isoDate, timestamp };
export const nullableDate = z.nullable(isoDate);

export const codedSchema = named(
  'CodedValue',
  z.object({ code: z.string(), label: z.string() }),
  'A value from a code table: its code and its label.',
);

// ---- requests -------------------------------------------------------------------------------

/**
 * A company as a request names it: its nine-digit number or an ABN that embeds one, spaces
 * ignored. The form is checked here (400 `acn_invalid`); the check digits by the handler.
 */
export const companyNumber = named(
  'CompanyNumber',
  codedPattern(
    z.string({ error: 'must be a string' }),
    COMPANY_NUMBER_FORM,
    'acn_invalid',
    'is not a company number: use nine digits (ACN, ARBN or ARSN) or an ABN that embeds an ACN',
  ),
  'A company: its nine-digit number (ACN, ARBN or ARSN) or an eleven-digit ABN that embeds an ACN; spaces are ignored. The check digits cannot be said in the schema: a number failing them is 400 `acn_invalid` (`abn_invalid`, or `abn_not_acn_based` for an ABN that embeds no ACN).',
);

// Other path ids carry no length cap here: a malformed one gets its own code from the handler
// (charge_not_found, extract_not_found), however long it is.
export const companyPath = z.strictObject({ id: companyNumber });

export const extractParam = z.optional(
  z
    .string()
    .check(z.regex(/^ext_[0-9a-f]{24}$/, 'extract must be an extract id (ext_ followed by 24 hex digits)')),
);

export const recordStatuses = ['current', 'ceased', 'all'] as const;
const recordStatusParam = z.optional(
  z.enum(recordStatuses, { error: `status must be one of ${recordStatuses.join(', ')}` }),
);

/** A company search's scope: `current` names only (the default) or former names too. */
export const searchScopeParam = coded(
  'search_scope_invalid',
  z.enum(companySearchScopes, { error: `scope must be one of ${companySearchScopes.join(', ')}` }),
).register(z.globalRegistry, {
  description:
    'Which names to search: `current` (the default) or `all`, former names too. Anything else is 400 `search_scope_invalid`.',
});

const numberParam = (name: 'acn' | 'abn', form: RegExp, digits: number) =>
  codedPattern(
    z.string().register(z.globalRegistry, {
      description: `An ${name.toUpperCase()}: ${digits} digits, spaces ignored. Its check digit cannot be said in the schema: a number failing it is 400 \`${name}_invalid\`.`,
    }),
    form,
    `${name}_invalid`,
    `must be ${digits} digits; use ${name === 'acn' ? 'abn for an ABN' : 'acn for an ACN'}`,
  );

export const companySearchQuery = z.strictObject({
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
});

export const purchaseExtractBody = named(
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
);

export const officeholdersQuery = z.strictObject({
  status: recordStatusParam,
  extract: extractParam,
  limit: limitParam,
  cursor: cursorParam,
});

export const addressTypes = ['RG', 'RP', 'PA', 'RO', 'CC'] as const;
export const addressesQuery = z.strictObject({
  type: z.optional(z.enum(addressTypes, { error: `type must be one of ${addressTypes.join(', ')}` })),
  status: recordStatusParam,
  extract: extractParam,
});

export const sectionQuery = z.strictObject({ status: recordStatusParam, extract: extractParam });
export const extractOnlyQuery = z.strictObject({ extract: extractParam });

export const documentQualifiers = ['AR', 'FR'] as const;
export const documentsQuery = z.strictObject({
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
    z.enum(documentQualifiers, { error: 'qualifier must be AR (annual returns) or FR (financial reports)' }),
  ),
  extract: extractParam,
  limit: limitParam,
  cursor: cursorParam,
});

export const chargeStatuses = ['satisfied', 'deleted', 'all'] as const;
export const chargesQuery = z.strictObject({
  status: z.optional(z.enum(chargeStatuses, { error: `status must be one of ${chargeStatuses.join(', ')}` })),
  extract: extractParam,
});

export const chargePath = z.strictObject({ chargeNumber: z.string().check(z.minLength(1)) });

export const extractPath = z.strictObject({ id: z.string().check(z.minLength(1)) });
export const extractListQuery = z.strictObject({
  kind: z.optional(z.enum(extractKinds, { error: `kind must be one of ${extractKinds.join(', ')}` })),
  limit: limitParam,
  cursor: cursorParam,
});

// ---- responses ------------------------------------------------------------------------------

export const sourceDocument = named(
  'SourceDocument',
  z.object({ documentNumber: z.string(), qualifier: z.nullable(z.string()) }),
  'The document a record was lodged by.',
);

export const companySummarySchema = named(
  'CompanySummary',
  z.object({
    acn: z.nullable(z.string().check(z.regex(/^\d{9}$/))),
    formatted: z.string().check(z.regex(/^\d{3} \d{3} \d{3}$/)),
    numberType: codedSchema,
    name: z.string(),
    type: codedSchema,
    status: codedSchema,
    abn: z.nullable(z.string().check(z.regex(/^\d{11}$/))),
    registeredCharity: z.boolean(),
    // A scheme (type MISM) also shows these, with `acn` null (document 1, 2.2).
    id: z.optional(z.string()),
    arsn: z.optional(z.string()),
    schemeCategories: z.optional(z.array(codedSchema)),
    // A business name (BUSN) or name reservation (RSVN): the path of its own lookup.
    detailsPath: z.optional(z.string()),
  }),
  'A company (or scheme, business name, name reservation) as other resources show it.',
);

export const companySchema = named(
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
);

export const addressSchema = named(
  'Address',
  z.object({
    careOf: z.nullable(z.string()),
    line1: z.nullable(z.string()),
    street: z.string(),
    locality: z.string(),
    state: z.nullable(z.string()),
    postcode: z.nullable(z.string()),
    country: z.string(),
  }),
);

export const personNameSchema = named(
  'PersonName',
  z.object({ familyName: z.string(), givenNames: z.array(z.string()), formatted: z.string() }),
);

export const birthSchema = named(
  'Birth',
  z.object({ date: nullableDate, locality: z.nullable(z.string()), stateOrCountry: z.nullable(z.string()) }),
);

export const partySchema = named(
  'Party',
  z.object({
    type: z.enum(['person', 'organisation']),
    person: z.nullable(personNameSchema),
    birth: z.nullable(birthSchema),
    organisation: z.nullable(
      named(
        'PartyOrganisation',
        z.object({
          number: z.nullable(z.string()),
          numberType: z.nullable(codedSchema),
          name: z.string(),
          abn: z.nullable(z.string()),
        }),
      ),
    ),
  }),
  'A person or an organisation: an officeholder, member, chargee, holder or subject.',
);

export const documentSchema = named(
  'Document',
  z.object({
    object: z.literal('document'),
    documentNumber: z.string().check(z.regex(/^\d.{8}$/)),
    formCode: z.string().check(z.maxLength(5)),
    formDescription: z.string(),
    subForms: z.array(named('SubForm', z.object({ code: z.string(), description: z.string() }))),
    receivedAt: isoDate,
    processedAt: isoDate,
    effectiveAt: nullableDate,
    qualifier: z.nullable(z.string()),
    pageCount: z.int(),
    imaged: z.boolean(),
    underRequisition: z.boolean(),
    xbrlAvailable: z.boolean(),
    xbrlDocumentNumber: z.nullable(z.string()),
    status: z.nullable(z.string()),
    priced: z.nullable(z.boolean()),
  }),
);

export const officeholderSchema = named(
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
);

export const addressRecordSchema = named(
  'AddressRecord',
  z.object({
    object: z.literal('address'),
    type: codedSchema,
    status: codedSchema,
    from: isoDate,
    to: nullableDate,
    address: addressSchema,
    sourceDocument,
  }),
);

export const chargeSchema = named(
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
);

export const relationshipSchema = named(
  'Relationship',
  z.object({
    object: z.literal('relationship'),
    role: codedSchema,
    status: codedSchema,
    appointedAt: nullableDate,
    ceasedAt: nullableDate,
    company: companySummarySchema,
  }),
);

const shareStructureFields = {
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
};

const externalAdministrationFields = {
  appointees: z.array(officeholderSchema),
  documents: z.array(documentSchema),
};

export const extractRefSchema = named(
  'ExtractReference',
  z.object({
    id: z.string().check(z.startsWith('ext_')),
    type: z.enum(['current', 'historical', 'relational']),
    purchasedAt: timestamp,
    asOf: timestamp,
  }),
  'The held extract a section was read from.',
);

/** A section of a held extract, as a list (named `name` in the contract). */
export const sectionList = <T extends z.core.$ZodType>(name: string, item: T) =>
  named(name, z.extend(listFields(item), { extract: extractRefSchema }));

/** Partial: locality, state and postcode in Australia; locality and country overseas. */
export const partialAddressSchema = named(
  'PartialAddress',
  z.object({
    locality: z.string(),
    state: z.optional(z.nullable(z.string())),
    postcode: z.optional(z.nullable(z.string())),
    country: z.optional(z.string()),
  }),
);

export const companyMatchListSchema = listEnvelope(
  'CompanyMatchList',
  named(
    'CompanyMatch',
    z.extend(companySummarySchema, {
      object: z.literal('companyMatch'),
      matchedName: z.string(),
      nameStatus: z.enum(['current', 'former']),
      score: z.int(),
      address: z.nullable(partialAddressSchema),
    }),
  ),
);

export const companyResponseSchema = named('CompanyResponse', withMeta(companySchema));

const extractFields = {
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
};

export const companyExtractSchema = named(
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
);

export const companyExtractSummarySchema = named('CompanyExtractSummary', z.object(extractFields));

export const officeholderListSchema = sectionList('OfficeholderList', officeholderSchema);
export const addressListSchema = named(
  'AddressRecordList',
  z.extend(z.extend(listFields(addressRecordSchema), { extract: extractRefSchema }), {
    contactAddress: z.nullable(addressRecordSchema),
  }),
);
export const documentListSchema = sectionList('DocumentList', documentSchema);
export const chargeListSchema = sectionList('ChargeList', chargeSchema);
export const relationshipListSchema = sectionList('RelationshipList', relationshipSchema);

export const shareStructureSchema = named(
  'ShareStructure',
  z.object({
    object: z.literal('shareStructure'),
    extract: extractRefSchema,
    ...shareStructureFields,
    meta: metaSchema,
  }),
);

export const externalAdministrationSchema = named(
  'ExternalAdministration',
  z.object({
    object: z.literal('externalAdministration'),
    extract: extractRefSchema,
    company: companySummarySchema,
    underExternalAdministration: z.boolean(),
    ...externalAdministrationFields,
    meta: metaSchema,
  }),
);

export const chargeResponseSchema = named('ChargeResponse', withMeta(chargeSchema));
