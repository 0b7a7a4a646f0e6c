import * as z from 'zod';
import { identifierHints, identifierTypes } from '../domain/identifiers.ts';
import { metaSchema } from './common.ts';

export const validateIdentifierPath = z.strictObject({
  value: z.string().min(1, 'value must not be empty').max(64, 'value must be at most 64 characters'),
});

export const validateIdentifierQuery = z.strictObject({
  hint: z.enum(identifierHints, { error: `hint must be one of ${identifierHints.join(', ')}` }).optional(),
});

export const identifierSchema = z.object({
  object: z.literal('identifier'),
  input: z.string(),
  type: z.enum(identifierTypes),
  valid: z.boolean(),
  normalized: z.string().nullable(),
  formatted: z.string().nullable(),
  acnFromAbn: z.string().nullable(),
  meta: metaSchema,
});
