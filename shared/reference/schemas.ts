import * as z from 'zod/mini';
import { cursorParam, limitParam, listEnvelope, metaSchema, named } from '../kernel/http/schemas.ts';
import { formCategories } from './forms.ts';

export const codeTableSummarySchema = named(
  'CodeTableSummary',
  z.object({
    object: z.literal('codeTableSummary'),
    table: z.string(),
    title: z.string(),
    entryCount: z.int(),
    docsUrl: z.string(),
  }),
);

export const codeTableEntrySchema = named(
  'CodeTableEntry',
  z.object({
    code: z.string(),
    label: z.string(),
    registryCode: z.nullable(z.string()),
  }),
);

export const codeTableSchema = named(
  'CodeTable',
  z.object({
    object: z.literal('codeTable'),
    table: z.string(),
    title: z.string(),
    docsUrl: z.string(),
    entries: z.array(codeTableEntrySchema),
    meta: metaSchema,
  }),
);

export const codeTableListSchema = listEnvelope('CodeTableList', codeTableSummarySchema);

export const codeTablePath = z.strictObject({
  table: z.string().check(z.minLength(1)),
});

export const formSchema = named(
  'Form',
  z.object({
    object: z.literal('form'),
    formCode: z.string(),
    description: z.string(),
    category: z.enum(formCategories),
  }),
);

export const formListSchema = listEnvelope('FormList', formSchema);

export const formListQuery = z.strictObject({
  category: z.optional(
    z.enum(formCategories, { error: `category must be one of ${formCategories.join(', ')}` }),
  ),
  limit: limitParam,
  cursor: cursorParam,
});
