import * as z from 'zod/mini';
import {
  addressSchema,
  birthSchema,
  codedSchema,
  companySummarySchema,
  documentSchema,
  extractParam,
  isoDate,
  nullableDate,
  personNameSchema,
  sectionList,
  sourceDocument,
  timestamp,
} from '../companies/shared-schemas.ts';
import {
  cursorParam,
  dateParam,
  limitParam,
  listFields,
  metaSchema,
  named,
  uniqueItems,
} from '../kernel/http/schemas.ts';
import { MEMBER_ROLE } from '../kernel/registry-ordering.ts';
import { shakable } from '../kernel/shakable.ts';
import { findCodeTable } from '../reference/code-tables.ts';
import { personNameField } from './person-names.ts';

const PEOPLE_SEARCH_ID = /^psr_[0-9a-f]{24}$/;
const PERSON_ID = /^prs_[0-9a-f]{24}$/;
const MAX_PEOPLE_PER_PURCHASE = 100;

// ---- requests -------------------------------------------------------------------------------

export const peopleSearchBody = /* @__PURE__ */ shakable(() =>
  named(
    'SearchPeopleRequest',
    z.strictObject({
      familyName: personNameField('name_required', { missing: true }),
      givenName: personNameField('name_required', { missing: true }),
      birthDateFrom: dateParam('birthDateFrom'),
      birthDateTo: dateParam('birthDateTo'),
    }),
  ),
);

export const personPath = /* @__PURE__ */ shakable(() =>
  z.strictObject({
    personId: z
      .string()
      .check(z.regex(PERSON_ID, 'personId must be a person id (prs_ followed by 24 hex digits)')),
  }),
);

const flag = (name: string) => z.optional(z.boolean({ error: `${name} must be true or false` }));

export const purchasePeopleBody = /* @__PURE__ */ shakable(() =>
  named(
    'PurchasePersonExtractsRequest',
    z.strictObject({
      searchId: z
        .string({
          error: (issue) =>
            issue.input === undefined ? 'searchId is required' : 'searchId must be a string',
        })
        .check(
          z.regex(PEOPLE_SEARCH_ID, 'searchId must be a people search id (psr_ followed by 24 hex digits)'),
        ),
      personIds: uniqueItems(
        z
          .array(
            z
              .string({ error: 'each person id must be a string' })
              .check(z.regex(PERSON_ID, 'each person id must be prs_ followed by 24 hex digits')),
            {
              error: (issue) =>
                issue.input === undefined ? 'personIds is required' : 'personIds must be an array',
            },
          )
          .check(
            z.minLength(1, 'personIds must hold at least one person id'),
            z.maxLength(
              MAX_PEOPLE_PER_PURCHASE,
              `personIds may hold at most ${MAX_PEOPLE_PER_PURCHASE} person ids`,
            ),
          ),
        'validation_error',
        (id) => `${String(id)} is given twice`,
      ),
      history: flag('history'),
      includeShareholdings: flag('includeShareholdings'),
    }),
  ),
);

export const roleStatuses = ['current', 'former', 'all'] as const;
/** An office-holder role code (the office-holder-roles table) or `SH`, a member. */
const roleCode = /* @__PURE__ */ shakable(() =>
  z.enum(
    [MEMBER_ROLE, ...(findCodeTable('office-holder-roles')?.entries.map((entry) => entry.code) ?? [])] as [
      string,
      ...string[],
    ],
    {
      error: (issue) =>
        `${issue.input === '' ? 'An empty value' : String(issue.input)} is not an office-holder role code or SH`,
    },
  ),
);
const roleCodes = /* @__PURE__ */ shakable(() => z.union([roleCode, z.array(roleCode)]));

export const rolesQuery = /* @__PURE__ */ shakable(() =>
  z.strictObject({
    status: z.optional(z.enum(roleStatuses, { error: `status must be one of ${roleStatuses.join(', ')}` })),
    /** `role[]=DR&role[]=SR`; a plain repeated `role` is accepted too. */
    'role[]': z.optional(roleCodes),
    role: z.optional(roleCodes),
    extract: extractParam,
    limit: limitParam,
    cursor: cursorParam,
  }),
);

// ---- responses ------------------------------------------------------------------------------

export const personMatchSchema = /* @__PURE__ */ shakable(() =>
  named(
    'Person',
    z.object({
      object: z.literal('person'),
      id: z.string().check(z.regex(PERSON_ID)),
      name: personNameSchema,
      birth: z.nullable(birthSchema),
      formerName: z.nullable(personNameSchema),
    }),
    'A person found by a people search.',
  ),
);

export const peopleSearchSchema = /* @__PURE__ */ shakable(() =>
  named(
    'PeopleSearch',
    z.object({
      object: z.literal('peopleSearch'),
      id: z.string().check(z.regex(PEOPLE_SEARCH_ID)),
      familyName: z.string(),
      givenName: z.string(),
      birthDateFrom: nullableDate,
      birthDateTo: nullableDate,
      createdAt: timestamp,
      expiresAt: timestamp,
      totalCount: z.int(),
      found: z.int(),
      data: z.array(personMatchSchema),
      meta: metaSchema,
    }),
  ),
);

export const personResponseSchema = /* @__PURE__ */ shakable(() =>
  named(
    'PersonResponse',
    z.intersection(
      personMatchSchema,
      named(
        'PersonSearchReference',
        z.object({
          searchId: z.string().check(z.regex(PEOPLE_SEARCH_ID)),
          searchExpiresAt: timestamp,
          meta: metaSchema,
        }),
        'The search that found the person, and until when it can be read.',
      ),
    ),
  ),
);

export const roleSchema = /* @__PURE__ */ shakable(() =>
  named(
    'Role',
    z.object({
      object: z.literal('role'),
      role: codedSchema,
      status: codedSchema,
      appointedAt: nullableDate,
      ceasedAt: nullableDate,
      company: companySummarySchema,
      address: z.nullable(addressSchema),
      sourceDocument: z.nullable(sourceDocument),
    }),
  ),
);

const licenceSchema = /* @__PURE__ */ shakable(() =>
  named(
    'Licence',
    z.object({
      object: z.literal('licence'),
      type: codedSchema,
      status: codedSchema,
      licenceNumber: z.string(),
      licenceStatus: codedSchema,
      from: isoDate,
      to: nullableDate,
      address: z.nullable(addressSchema),
      sourceDocument: z.nullable(sourceDocument),
    }),
  ),
);

const shareholdingSchema = /* @__PURE__ */ shakable(() =>
  named(
    'Shareholding',
    z.object({
      object: z.literal('shareholding'),
      company: companySummarySchema,
      classCode: z.string(),
      classDescription: z.string(),
      status: codedSchema,
      sharesHeld: z.number(),
      fullyPaid: z.boolean(),
      beneficiallyHeld: z.boolean(),
      sourceDocument: z.nullable(sourceDocument),
    }),
  ),
);

const noticeSchema = /* @__PURE__ */ shakable(() =>
  named(
    'PersonNotice',
    z.object({
      type: z.enum(['acnc_charity', 'same_name']),
      acn: z.nullable(z.string()),
      text: z.string(),
    }),
  ),
);

const personExtractFields = /* @__PURE__ */ shakable(() => ({
  object: z.literal('extract'),
  id: z.string().check(z.startsWith('ext_')),
  kind: z.literal('person'),
  type: z.enum(['current', 'historical']),
  includeShareholdings: z.boolean(),
  subject: personMatchSchema,
  purchasedAt: timestamp,
  asOf: timestamp,
  expiresAt: timestamp,
  clientReference: z.nullable(z.string().check(z.maxLength(30))),
  disclaimer: z.string(),
  person: named(
    'PersonDetails',
    z.object({
      id: z.string().check(z.regex(PERSON_ID)),
      registryIdentifier: z.string().check(z.regex(/^\d{1,9}$/)),
      name: personNameSchema,
      birth: z.nullable(birthSchema),
      formerName: z.nullable(personNameSchema),
    }),
    'The person an extract is about, with the registry’s own identifier.',
  ),
}));

export const personExtractSummarySchema = /* @__PURE__ */ shakable(() =>
  named('PersonExtractSummary', z.object(personExtractFields)),
);

export const personExtractSchema = /* @__PURE__ */ shakable(() =>
  named(
    'PersonExtract',
    z.object({
      ...personExtractFields,
      roles: z.array(roleSchema),
      licences: z.array(licenceSchema),
      shareholdings: z.array(shareholdingSchema),
      documents: z.array(documentSchema),
      notices: z.array(noticeSchema),
      meta: metaSchema,
    }),
  ),
);

export const personExtractListSchema = /* @__PURE__ */ shakable(() =>
  named(
    'PersonExtractList',
    z.extend(listFields(personExtractSchema), { searchId: z.string().check(z.regex(PEOPLE_SEARCH_ID)) }),
  ),
);

export const roleListSchema = /* @__PURE__ */ shakable(() => sectionList('RoleList', roleSchema));
