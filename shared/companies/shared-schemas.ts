/**
 * What other capabilities show or take of a company: its summary and number, coded values,
 * parties, addresses, documents, a held extract's reference and a section list. Kept apart from
 * the company routes' own schemas (schemas.ts, which re-exports these) so that a function of
 * another capability builds only these at start, not every company schema
 * (docs/decisions/0100-sandbox-beside-the-bundle.md).
 */
import * as z from 'zod/mini';
import { extractKinds } from '../extracts/store-port.ts';
import {
  coded,
  codedPattern,
  cursorParam,
  isoDate,
  limitParam,
  listEnvelope,
  listFields,
  named,
  timestamp,
} from '../kernel/http/schemas.ts';
import { COMPANY_NUMBER_FORM } from '../kernel/identifiers.ts';
import { shakable } from '../kernel/shakable.ts';
import { companySearchScopes } from './registry-port.ts';

export { isoDate, timestamp };
export const nullableDate = /* @__PURE__ */ shakable(() => z.nullable(isoDate));

export const codedSchema = /* @__PURE__ */ shakable(() =>
  named(
    'CodedValue',
    z.object({ code: z.string(), label: z.string() }),
    'A value from a code table: its code and its label.',
  ),
);

/**
 * A company as a request names it: its nine-digit number or an ABN that embeds one, spaces
 * ignored. The form is checked here (400 `acn_invalid`); the check digits by the handler.
 */
export const companyNumber = /* @__PURE__ */ shakable(() =>
  named(
    'CompanyNumber',
    codedPattern(
      z.string({ error: 'must be a string' }),
      COMPANY_NUMBER_FORM,
      'acn_invalid',
      'is not a company number: use nine digits (ACN, ARBN or ARSN) or an ABN that embeds an ACN',
    ),
    'A company: its nine-digit number (ACN, ARBN or ARSN) or an eleven-digit ABN that embeds an ACN; spaces are ignored. The check digits cannot be said in the schema: a number failing them is 400 `acn_invalid` (`abn_invalid`, or `abn_not_acn_based` for an ABN that embeds no ACN).',
  ),
);

// Other path ids carry no length cap here: a malformed one gets its own code from the handler
// (charge_not_found, extract_not_found), however long it is.
export const companyPath = /* @__PURE__ */ shakable(() => z.strictObject({ id: companyNumber }));

export const extractParam = /* @__PURE__ */ shakable(() =>
  z.optional(
    z
      .string()
      .check(z.regex(/^ext_[0-9a-f]{24}$/, 'extract must be an extract id (ext_ followed by 24 hex digits)')),
  ),
);

/** A company search's scope: `current` names only (the default) or former names too. */
export const searchScopeParam = /* @__PURE__ */ shakable(() =>
  coded(
    'search_scope_invalid',
    z.enum(companySearchScopes, { error: `scope must be one of ${companySearchScopes.join(', ')}` }),
  ).register(z.globalRegistry, {
    description:
      'Which names to search: `current` (the default) or `all`, former names too. Anything else is 400 `search_scope_invalid`.',
  }),
);

export const extractPath = /* @__PURE__ */ shakable(() =>
  z.strictObject({ id: z.string().check(z.minLength(1)) }),
);
export const extractListQuery = /* @__PURE__ */ shakable(() =>
  z.strictObject({
    kind: z.optional(z.enum(extractKinds, { error: `kind must be one of ${extractKinds.join(', ')}` })),
    limit: limitParam,
    cursor: cursorParam,
  }),
);

export const sourceDocument = /* @__PURE__ */ shakable(() =>
  named(
    'SourceDocument',
    z.object({ documentNumber: z.string(), qualifier: z.nullable(z.string()) }),
    'The document a record was lodged by.',
  ),
);

export const companySummarySchema = /* @__PURE__ */ shakable(() =>
  named(
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
  ),
);

export const addressSchema = /* @__PURE__ */ shakable(() =>
  named(
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
  ),
);

export const personNameSchema = /* @__PURE__ */ shakable(() =>
  named(
    'PersonName',
    z.object({ familyName: z.string(), givenNames: z.array(z.string()), formatted: z.string() }),
  ),
);

export const birthSchema = /* @__PURE__ */ shakable(() =>
  named(
    'Birth',
    z.object({
      date: nullableDate,
      locality: z.nullable(z.string()),
      stateOrCountry: z.nullable(z.string()),
    }),
  ),
);

export const partySchema = /* @__PURE__ */ shakable(() =>
  named(
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
  ),
);

export const documentSchema = /* @__PURE__ */ shakable(() =>
  named(
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
  ),
);

export const addressRecordSchema = /* @__PURE__ */ shakable(() =>
  named(
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
  ),
);

export const extractRefSchema = /* @__PURE__ */ shakable(() =>
  named(
    'ExtractReference',
    z.object({
      id: z.string().check(z.startsWith('ext_')),
      type: z.enum(['current', 'historical', 'relational']),
      purchasedAt: timestamp,
      asOf: timestamp,
    }),
    'The held extract a section was read from.',
  ),
);

/** A section of a held extract, as a list (named `name` in the contract). */
export const sectionList = <T extends z.core.$ZodType>(name: string, item: T) =>
  named(name, z.extend(listFields(item), { extract: extractRefSchema }));

/** Partial: locality, state and postcode in Australia; locality and country overseas. */
export const partialAddressSchema = /* @__PURE__ */ shakable(() =>
  named(
    'PartialAddress',
    z.object({
      locality: z.string(),
      state: z.optional(z.nullable(z.string())),
      postcode: z.optional(z.nullable(z.string())),
      country: z.optional(z.string()),
    }),
  ),
);

export const companyMatchListSchema = /* @__PURE__ */ shakable(() =>
  listEnvelope(
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
  ),
);
