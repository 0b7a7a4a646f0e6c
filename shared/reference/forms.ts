/**
 * The registry's form schedule (spec document 2, section 4.7), read from `data/forms.json`. Where
 * each form comes from, and the rule behind each category, is in `data/forms.provenance.json`
 * (docs/reference-data.md).
 *
 * The live schedule is refreshed from the registry daily and is authoritative (spec section 9);
 * this list is the fallback and seed data. Descriptions and category membership change over time,
 * so callers should store form codes, not descriptions. The data files are checked by
 * test/unit/reference/data.test.ts (`validate.ts`), and docs/reference-data.md is generated from
 * them (`npm run docs:reference`).
 */

import data from './data/forms.json' with { type: 'json' };
import type { FormsFile } from './data.ts';

/** The spec's categories, in its order. The data file's categories are checked against this list. */
export const formCategories = [
  'all',
  'internal-administration',
  'buy-backs',
  'debt',
  'deregistration',
  'disclosure-notices',
  'financial',
  'fundraising',
  'takeovers-short',
  'takeovers-all',
] as const;

export type FormCategory = (typeof formCategories)[number];

type MemberCategory = Exclude<FormCategory, 'all'>;

export interface FormDefinition {
  readonly formCode: string;
  readonly description: string;
  readonly categories: readonly MemberCategory[];
}

/**
 * The data file as written (docs and checks). JSON types widen literals, hence the cast;
 * `validate.ts` checks that every category is one of `formCategories`.
 */
export const formsFile = data as unknown as FormsFile;

/**
 * The form schedule in the registry's order (by form code as the registry lists them).
 * Codes are kept in ascending text order, so 2205 sorts before 280 and 5022 before 505.
 * The `@__PURE__` marks let esbuild drop the schedule (and forms.json) from functions that only
 * use `formCategories` (through the request schemas).
 */
export const forms: readonly FormDefinition[] = /* @__PURE__ */ Object.freeze(
  /* @__PURE__ */ formsFile.forms.map(({ formCode, description, categories }) =>
    Object.freeze({ formCode, description, categories: Object.freeze([...categories] as MemberCategory[]) }),
  ),
);

const formsByCategory: ReadonlyMap<FormCategory, readonly FormDefinition[]> = /* @__PURE__ */ new Map<
  FormCategory,
  readonly FormDefinition[]
>(
  /* @__PURE__ */ formCategories.map((category) => [
    category,
    category === 'all'
      ? forms
      : Object.freeze(forms.filter((definition) => definition.categories.includes(category))),
  ]),
);

/** Forms in a category, schedule order kept; 'all' returns every form. */
export function formsInCategory(category: FormCategory): readonly FormDefinition[] {
  return formsByCategory.get(category) ?? [];
}

/** The API's `form` resource; `category` is the category the client asked for. */
export const presentForm = (form: FormDefinition, category: FormCategory) => ({
  object: 'form' as const,
  formCode: form.formCode,
  description: form.description,
  category,
});
