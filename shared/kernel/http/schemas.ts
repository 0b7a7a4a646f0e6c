/**
 * Schemas are written with `zod/mini`: the same engine as zod, with a functional API that
 * esbuild can tree-shake (about 16 KB in a bundle instead of about 90 KB).
 */
import * as z from 'zod/mini';
import { EMPTY_CURSOR } from '../cursor.ts';
import type { ErrorCode } from '../errors/catalogue.ts';
import { shakable } from '../shakable.ts';
import { calendarDate } from '../time-params.ts';

export const PAGE_SIZE = { min: 1, max: 100, default: 20 } as const;

/**
 * Names a schema in the published contract: `named('Company', schema)` makes it
 * `components.schemas.Company` in docs/openapi.json, so a generated client has a `Company` type,
 * and every place that uses the schema refers to it. The one way a zod schema gets a component
 * name: PascalCase, unique (zod's registry refuses a second schema with the same id), and stable
 * across regenerations because it is written here, not numbered. A schema derived from a named one
 * (`z.extend`, `.check`) does not inherit the name; name it too where a reader would want one.
 */
export const named = <T extends z.core.$ZodType>(
  name: string,
  schema: T,
  description?: string,
  meta: Omit<z.core.GlobalMeta, 'id' | 'description'> = {},
): T => {
  z.globalRegistry.add(schema, {
    // What a helper such as `exactlyOneOf` registered first stays.
    ...z.globalRegistry.get(schema),
    ...meta,
    id: name,
    ...(description === undefined ? {} : { description }),
  });
  return schema;
};

/** The API's two time formats, shared by every area's schemas. */
export const isoDate = /* @__PURE__ */ shakable(() =>
  named('CalendarDate', z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/)), 'A calendar date, `YYYY-MM-DD`.'),
);
export const timestamp = /* @__PURE__ */ shakable(() =>
  named(
    'Timestamp',
    z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/)),
    'An instant in UTC to the second, `YYYY-MM-DDThh:mm:ssZ`.',
  ),
);

/**
 * A body that takes exactly one of two fields (a monitor's `company` or `person`): the rule
 * checked, and said in the contract as `oneOf` of the two `required` lists. Either field missing
 * or both given is `validation_error` on the first field, with the message for that case (each
 * begins with the field's name, as the error's `message` does).
 */
export const exactlyOneOf = <T extends z.ZodMiniObject>(
  schema: T,
  fields: readonly [string, string],
  messages: { none: string; both: string },
): T => {
  const checked = schema.check(
    z.superRefine((value: Record<string, unknown>, context) => {
      const given = fields.filter((field) => value[field] !== undefined).length;
      if (given === 1) return;
      context.issues.push({
        code: 'custom',
        path: [fields[0]],
        message: given === 0 ? messages.none : messages.both,
        input: value,
      });
    }),
  ) as T;
  z.globalRegistry.add(checked, { oneOf: fields.map((field) => ({ required: [field] })) });
  return checked;
};

/** The body of a POST that takes no fields. */
export const noBody = /* @__PURE__ */ shakable(() =>
  named('EmptyRequest', z.strictObject({}), 'No fields: send `{}` or no body.'),
);

/** Request fields whose refusal has an error code of its own (spec 7), set by `coded`. */
export const fieldCodes = /* @__PURE__ */ shakable(() =>
  z.registry<{ code: ErrorCode; missing: boolean | ErrorCode }>(),
);

/**
 * A request field (or body part) that the spec refuses with its own code rather than
 * `validation_error`: `coded('summary_type_invalid', z.enum(weeklySummaryTypes))`. The schema is
 * the field's whole rule, in the contract as in the pipeline; any problem inside it (a missing
 * part, a wrong type, a value outside the enum, an unknown key) is answered with `code` and its
 * catalogue status, `param` naming the exact place (`delivery.postcode`). The field missing
 * altogether is `validation_error` ("type is required"), unless `missing` says it is `code` too
 * (a missing `delivery` is `delivery_invalid`), or names the code it is (a missing `familyName` is
 * `name_required`).
 */
export const coded = <T extends z.core.$ZodType>(
  code: ErrorCode,
  schema: T,
  { missing = false }: { missing?: boolean | ErrorCode } = {},
): T => {
  fieldCodes.add(schema, { code, missing });
  return schema;
};

/**
 * A string `pattern` whose refusal has an error code of its own (`name_invalid_characters`),
 * checked and said in the contract as `pattern`: `coded` gives a whole field one code, this one
 * rule of it.
 */
export const codedPattern = <T extends z.ZodMiniString>(
  schema: T,
  regex: RegExp,
  code: ErrorCode,
  message: string,
): T => {
  const checked = schema.check(
    z.refine((value: string) => regex.test(value), { error: message, params: { code } }),
  ) as T;
  z.globalRegistry.add(checked, { ...z.globalRegistry.get(schema), pattern: regex.source });
  return checked;
};

/**
 * An array whose items may not repeat: checked (the second occurrence is refused with `code`,
 * `param` naming it) and said in the contract as `uniqueItems`.
 */
export const uniqueItems = <T extends z.ZodMiniArray>(
  schema: T,
  code: ErrorCode,
  message: (item: unknown) => string,
): T => {
  const checked = schema.check(
    z.superRefine((items: unknown[], context) => {
      const seen = new Set<string>();
      items.forEach((item, index) => {
        const key = JSON.stringify(item);
        if (seen.has(key))
          context.issues.push({
            code: 'custom',
            path: [index],
            message: message(item),
            input: item,
            params: { code },
          });
        seen.add(key);
      });
    }),
  ) as T;
  z.globalRegistry.add(checked, { ...z.globalRegistry.get(schema), uniqueItems: true });
  return checked;
};

export const metaSchema = /* @__PURE__ */ shakable(() =>
  named(
    'Meta',
    z.object({
      billable: z.boolean(),
      product: z.nullable(z.string()),
      requestId: z.string().check(z.startsWith('req_')),
      quantity: z.optional(z.int()),
    }),
    'What every answer carries besides its data: whether it incurred a registry fee, the product, the request id.',
  ),
);

const withMetaSchema = /* @__PURE__ */ shakable(() =>
  named('WithMeta', z.object({ meta: metaSchema }), 'What an answer about one resource adds to it: `meta`.'),
);

/**
 * The answer about one resource: the resource and `meta`, said in the contract as `allOf` of the
 * two (`CompanyResponse` is a `Company` with `meta` in a generated client, not a second type).
 */
export const withMeta = <T extends z.core.$ZodType>(resource: T) => z.intersection(resource, withMetaSchema);

/** No query parameters at all: any parameter is reported by name. */
export const noQuery = /* @__PURE__ */ shakable(() => z.strictObject({}));
export const noPath = /* @__PURE__ */ shakable(() => z.strictObject({}));

const limitMessage = /* @__PURE__ */ shakable(
  () => `limit must be an integer from ${PAGE_SIZE.min} to ${PAGE_SIZE.max}`,
);

/**
 * `limit`: on the wire a whole number 1–100 in decimal digits (at most four, so `0020` is 20). The
 * contract declares it an integer from 1 to 100 with the default 20, which is how query parameters
 * are typed in OpenAPI (a generated client takes a number and writes it in decimal).
 */
export const limitParam = /* @__PURE__ */ shakable(() =>
  z.optional(
    named(
      'Limit',
      z.pipe(
        z.string().check(z.regex(/^\d{1,4}$/, limitMessage)),
        z.pipe(
          z.transform(Number),
          z.int().check(z.minimum(PAGE_SIZE.min, limitMessage), z.maximum(PAGE_SIZE.max, limitMessage)),
        ),
      ),
      `Page size, from ${PAGE_SIZE.min} to ${PAGE_SIZE.max}; ${PAGE_SIZE.default} when not given.`,
      {
        override: ({ jsonSchema }: { jsonSchema: Record<string, unknown> }) => {
          for (const key of Object.keys(jsonSchema)) if (key !== 'description') delete jsonSchema[key];
          Object.assign(jsonSchema, {
            type: 'integer',
            minimum: PAGE_SIZE.min,
            maximum: PAGE_SIZE.max,
            default: PAGE_SIZE.default,
          });
        },
      },
    ),
  ),
);

/**
 * Any non-empty string: the codec refuses a bad cursor with 400 on `cursor` (spec 7.7). The
 * empty one is refused here, before the handler runs, with the same 400 (the issue's `status`).
 */
export const cursorParam = /* @__PURE__ */ shakable(() =>
  z.optional(
    named(
      'Cursor',
      z.string().check(z.refine((cursor) => cursor !== '', { error: EMPTY_CURSOR, params: { status: 400 } })),
      "The previous page's `nextCursor`, unchanged; valid 30 minutes, for the same list, filters and account.",
      // The refinement above, as JSON Schema says it.
      { override: { minLength: 1 } },
    ),
  ),
);

/** The list envelope of spec 1.4 around `item`, named `name` in the contract (`OrderList`…). */
export const listEnvelope = <T extends z.core.$ZodType>(name: string, item: T) =>
  named(name, listFields(item));

/** The list envelope's fields, for a list that adds its own (`z.extend(listFields(item), {…})`). */
export const listFields = <T extends z.core.$ZodType>(item: T) =>
  z.object({
    object: z.literal('list'),
    data: z.array(item),
    hasMore: z.boolean(),
    nextCursor: z.nullable(z.string()),
    totalCount: z.nullable(z.int()),
    meta: metaSchema,
  });

/** An optional query or body date `YYYY-MM-DD` that must be a real calendar date (not 2025-02-30). */
export const dateParam = (name: string) => z.optional(calendarDate(name));
