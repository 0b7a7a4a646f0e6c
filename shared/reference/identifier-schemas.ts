import * as z from 'zod/mini';
import { metaSchema, named } from '../kernel/http/schemas.ts';
import { identifierHints, identifierTypes } from '../kernel/identifiers.ts';
import { shakable } from '../kernel/shakable.ts';

export const validateIdentifierPath = /* @__PURE__ */ shakable(() =>
  z.strictObject({
    value: z
      .string()
      .check(
        z.minLength(1, 'value must not be empty'),
        z.maxLength(64, 'value must be at most 64 characters'),
      ),
  }),
);

export const validateIdentifierQuery = /* @__PURE__ */ shakable(() =>
  z.strictObject({
    hint: z.optional(z.enum(identifierHints, { error: `hint must be one of ${identifierHints.join(', ')}` })),
  }),
);

export const identifierSchema = /* @__PURE__ */ shakable(() =>
  named(
    'Identifier',
    z.object({
      object: z.literal('identifier'),
      input: z.string(),
      type: z.enum(identifierTypes),
      valid: z.boolean(),
      normalized: z.nullable(z.string()),
      formatted: z.nullable(z.string()),
      acnFromAbn: z.nullable(z.string()),
      meta: metaSchema,
    }),
  ),
);
