/** Registers (spec document 1, 2.9; document 3, 7.5 and 7.7): requests and the shapes of entries and extracts. */
import * as z from 'zod/mini';
import {
  addressRecordSchema,
  codedSchema,
  documentSchema,
  isoDate,
  nullableDate,
  partySchema,
  timestamp,
} from '../companies/shared-schemas.ts';
import {
  coded,
  cursorParam,
  limitParam,
  listEnvelope,
  metaSchema,
  named,
  withMeta,
} from '../kernel/http/schemas.ts';
import { shakable } from '../kernel/shakable.ts';
import { type RegisterCode, registerCodes, registerExtractTypes } from './registry-port.ts';

/** Longest browse key, after trimming. */
export const MAX_BROWSE_KEY = 100;

/** A register's code, case-sensitive (`ra` is not `RA`): anything else is 400 `register_invalid`. */
const registerCode = /* @__PURE__ */ shakable(() =>
  coded(
    'register_invalid',
    z.enum(registerCodes as [RegisterCode, ...RegisterCode[]], {
      error: (issue) =>
        `${JSON.stringify(issue.input)} is not a register this service serves. Use one of ${registerCodes.join(', ')} (case-sensitive)`,
    }),
  ),
);

/** An entry number: one to nine digits, spaces ignored, leading zeros kept (the use case compacts it). */
const entryNumber = /* @__PURE__ */ shakable(() =>
  z
    .string()
    .check(
      z.regex(
        /^ *(?:\d *){1,9}$/,
        'number must be one to nine digits (spaces are ignored, leading zeros kept)',
      ),
    ),
);

export const registerPath = /* @__PURE__ */ shakable(() => z.strictObject({ register: registerCode }));
export const registerEntryPath = /* @__PURE__ */ shakable(() =>
  z.strictObject({ register: registerCode, number: entryNumber }),
);

export const browseQuery = /* @__PURE__ */ shakable(() =>
  z.strictObject({
    browse: coded(
      'browse_key_too_short',
      z
        .string({
          error: (issue) => (issue.input === undefined ? 'browse is required' : 'browse must be a string'),
        })
        .check(z.regex(/^\s*\S.*\S\s*$/, 'must hold at least two characters (after trimming spaces)')),
    ).register(z.globalRegistry, {
      description: `Where to start in the register's alphabetical order: 2 to ${MAX_BROWSE_KEY} characters after trimming spaces (400 \`browse_key_too_short\` below 2).`,
    }),
    limit: limitParam,
    cursor: cursorParam,
  }),
);

export const purchaseRegisterExtractBody = /* @__PURE__ */ shakable(() =>
  named(
    'PurchaseRegisterExtractRequest',
    z.strictObject({ history: z.optional(z.boolean({ error: 'history must be true or false' })) }),
  ),
);

// ---- responses ------------------------------------------------------------------------------

const partialAddressSchema = /* @__PURE__ */ shakable(() =>
  named(
    'RegisterAddress',
    z.union([
      named(
        'AustralianLocation',
        z.strictObject({
          locality: z.string(),
          state: z.nullable(z.string()),
          postcode: z.nullable(z.string()),
        }),
      ),
      named('OverseasLocation', z.strictObject({ locality: z.string(), country: z.string() })),
    ]),
    'Where a register entry is: locality, state and postcode in Australia; locality and country overseas.',
  ),
);

const principalSchema = /* @__PURE__ */ shakable(() =>
  named('Principal', z.object({ name: z.string(), licenceNumber: z.string() })),
);

const banFields = /* @__PURE__ */ shakable(() => ({
  type: z.nullable(codedSchema),
  from: isoDate,
  to: nullableDate,
  status: codedSchema,
  documentNumber: z.string(),
  legislation: z.nullable(codedSchema),
}));
const banSchema = /* @__PURE__ */ shakable(() => named('Ban', z.strictObject(banFields)));

const entryFields = /* @__PURE__ */ shakable(() => ({
  object: z.literal('registerEntry'),
  register: codedSchema,
  holder: partySchema,
  status: z.nullable(codedSchema),
  licenceStatus: z.nullable(codedSchema),
  from: nullableDate,
  to: nullableDate,
  principal: z.nullable(principalSchema),
  bans: z.nullable(z.array(banSchema)),
  address: z.nullable(partialAddressSchema),
}));

const NUMBER = /* @__PURE__ */ shakable(() => z.string().check(z.regex(/^\d{1,9}$/)));

/**
 * A register entry: exactly the identifier field of its register (one per family, two in the
 * professional one), told apart by `family` (the contract's discriminator) and, in the
 * professional family, by which number it has. `suffix` names the variants of the row (''), and
 * of the extract's entry with its sections ('Details').
 */
const entryUnion = <E extends z.core.$ZodLooseShape>(suffix: '' | 'Details', extra: E) => {
  const variant = <F extends z.core.$ZodLooseShape>(name: string, fields: F, description: string) =>
    named(`${name}Entry${suffix}`, z.object({ ...entryFields, ...extra, ...fields }), description);
  const professional = named(
    `ProfessionalEntry${suffix}`,
    z.union([
      variant(
        'RegisteredProfessional',
        { family: z.literal('professional'), registrationNumber: NUMBER },
        'An entry of a professional register numbered by registration (auditors, liquidators).',
      ),
      variant(
        'LicensedProfessional',
        { family: z.literal('professional'), licenceNumber: NUMBER },
        'An entry of a professional register numbered by licence.',
      ),
    ]),
    'An entry of a professional register: a registration number or a licence number, as its register has.',
  );
  const families = {
    professional,
    'authorised-representatives': variant(
      'AuthorisedRepresentative',
      { family: z.literal('authorised-representatives'), representativeNumber: NUMBER },
      'An authorised representative.',
    ),
    'banned-disqualified': variant(
      'BannedDisqualified',
      { family: z.literal('banned-disqualified'), asicIdentifier: NUMBER },
      'A banned or disqualified person or organisation.',
    ),
  };
  // `family` tells the variants apart (two professional ones share it, told apart by their
  // number): said as `oneOf` with a discriminator whose mapping names the component of each family.
  const mapping = Object.fromEntries(
    Object.entries(families).map(([family, schema]) => [
      family,
      `#/components/schemas/${z.globalRegistry.get(schema)?.id}`,
    ]),
  );
  return named(
    `RegisterEntry${suffix}`,
    z.union([families.professional, families['authorised-representatives'], families['banned-disqualified']]),
    undefined,
    {
      override: ({ jsonSchema }: { jsonSchema: Record<string, unknown> }) => {
        jsonSchema.oneOf = jsonSchema.anyOf;
        delete jsonSchema.anyOf;
        jsonSchema.discriminator = { propertyName: 'family', mapping };
      },
    },
  );
};

/** A browse row (and the subject of a register extract). */
export const registerEntrySchema = /* @__PURE__ */ shakable(() => entryUnion('', {}));
/** GET /v1/registers/{register}/entries/{number}: the row with `meta`. */
export const registerEntryResponseSchema = /* @__PURE__ */ shakable(() =>
  named('RegisterEntryResponse', withMeta(registerEntrySchema)),
);

export const registerEntryListSchema = /* @__PURE__ */ shakable(() =>
  listEnvelope('RegisterEntryList', registerEntrySchema),
);

export const registerSchema = /* @__PURE__ */ shakable(() =>
  named(
    'Register',
    z.object({
      object: z.literal('register'),
      code: z.string(),
      label: z.string(),
      family: z.enum(['professional', 'authorised-representatives', 'banned-disqualified']),
      identifierField: z.enum([
        'registrationNumber',
        'licenceNumber',
        'representativeNumber',
        'asicIdentifier',
      ]),
      feeCode: z.string(),
    }),
  ),
);

export const registerListSchema = /* @__PURE__ */ shakable(() =>
  listEnvelope('RegisterList', registerSchema),
);

/** A register extract's entry: the entry's fields (the holder with its birth, where the registry has it) and its sections. */
const entrySectionsSchema = /* @__PURE__ */ shakable(() =>
  entryUnion('Details', {
    // A register's address record has a company's shape (its types are register-address-types).
    addresses: z.array(addressRecordSchema),
    trading: z.nullable(
      z.array(
        named(
          'TradingName',
          z.object({ type: codedSchema, name: z.string(), number: z.nullable(z.string()) }),
        ),
      ),
    ),
    officers: z.nullable(
      z.array(
        named(
          'RegisterOfficer',
          z.object({
            role: codedSchema,
            status: codedSchema,
            appointedAt: nullableDate,
            ceasedAt: nullableDate,
            party: partySchema,
          }),
        ),
      ),
    ),
    authorities: z.nullable(
      z.array(
        named(
          'RegisterAuthority',
          z.object({
            type: codedSchema,
            principal: principalSchema,
            from: isoDate,
            to: nullableDate,
            status: codedSchema,
          }),
        ),
      ),
    ),
    suspensions: z.nullable(
      z.array(
        named(
          'RegisterSuspension',
          z.object({ reason: codedSchema, from: isoDate, to: nullableDate, status: codedSchema }),
        ),
      ),
    ),
    bans: z.nullable(
      z.array(named('BanDetails', z.strictObject({ ...banFields, comments: z.nullable(z.string()) }))),
    ),
    legislation: z.nullable(codedSchema),
  }),
);

const registerExtractFields = /* @__PURE__ */ shakable(() => ({
  object: z.literal('extract'),
  id: z.string().check(z.startsWith('ext_')),
  kind: z.literal('register'),
  type: z.enum(registerExtractTypes),
  subject: registerEntrySchema,
  purchasedAt: timestamp,
  asOf: timestamp,
  expiresAt: timestamp,
  clientReference: z.nullable(z.string().check(z.maxLength(30))),
  disclaimer: z.string(),
}));

/** A held register extract as the lists show it: without the entry's sections and documents. */
export const registerExtractSummarySchema = /* @__PURE__ */ shakable(() =>
  named('RegisterExtractSummary', z.object(registerExtractFields)),
);

export const registerExtractSchema = /* @__PURE__ */ shakable(() =>
  named(
    'RegisterExtract',
    z.object({
      ...registerExtractFields,
      entry: entrySectionsSchema,
      documents: z.array(documentSchema),
      meta: metaSchema,
    }),
  ),
);
