import * as z from 'zod/mini';
import { cursorParam, limitParam, listEnvelope, metaSchema, named } from '../kernel/http/schemas.ts';
import { shakable } from '../kernel/shakable.ts';
import { formCategories } from './forms.ts';

export const codeTableSummarySchema = /* @__PURE__ */ shakable(() =>
  named(
    'CodeTableSummary',
    z.object({
      object: z.literal('codeTableSummary'),
      table: z.string(),
      title: z.string(),
      entryCount: z.int(),
      docsUrl: z.string(),
    }),
  ),
);

export const codeTableEntrySchema = /* @__PURE__ */ shakable(() =>
  named(
    'CodeTableEntry',
    z.object({
      code: z.string(),
      label: z.string(),
      registryCode: z.nullable(z.string()),
    }),
  ),
);

export const codeTableSchema = /* @__PURE__ */ shakable(() =>
  named(
    'CodeTable',
    z.object({
      object: z.literal('codeTable'),
      table: z.string(),
      title: z.string(),
      docsUrl: z.string(),
      entries: z.array(codeTableEntrySchema),
      meta: metaSchema,
    }),
  ),
);

export const codeTableListSchema = /* @__PURE__ */ shakable(() =>
  listEnvelope('CodeTableList', codeTableSummarySchema),
);

export const codeTablePath = /* @__PURE__ */ shakable(() =>
  z.strictObject({
    table: z.string().check(z.minLength(1)),
  }),
);

export const formSchema = /* @__PURE__ */ shakable(() =>
  named(
    'Form',
    z.object({
      object: z.literal('form'),
      formCode: z.string(),
      description: z.string(),
      category: z.enum(formCategories),
    }),
  ),
);

export const formListSchema = /* @__PURE__ */ shakable(() => listEnvelope('FormList', formSchema));

export const formListQuery = /* @__PURE__ */ shakable(() =>
  z.strictObject({
    category: z.optional(
      z.enum(formCategories, { error: `category must be one of ${formCategories.join(', ')}` }),
    ),
    limit: limitParam,
    cursor: cursorParam,
  }),
);
