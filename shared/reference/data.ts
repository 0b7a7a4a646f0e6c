/**
 * The shapes of the reference data files in `shared/reference/data/` (docs/reference-data.md):
 * `code-tables.json` and `forms.json` hold every entry with its provenance, `sources.json` the
 * sources their provenance names. The service reads the first two through `code-tables.ts` and
 * `forms.ts`; `validate.ts` checks all three, and `markdown.ts` renders docs/reference-data.md from them.
 * Only the types here reach the service's bundles (`import type`); `sourcesFile` does not.
 */

import sources from './data/sources.json' with { type: 'json' };

/**
 * Where a value comes from:
 * - `spec`: the spec (document 1, section 2.9 for code tables; document 2, section 4.7 for forms),
 *   including labels built from the spec's own wording.
 * - `published`: the registry's published tables, pages or forms, or a public copy of them (named in
 *   `from`, `agreesWith` or the notes).
 * - `best-knowledge`: our reading, not confirmed by a source we could read.
 * - `placeholder`: a label that only names the code and adds no meaning of its own.
 */
export const provenanceBases = ['spec', 'published', 'best-knowledge', 'placeholder'] as const;
export type ProvenanceBasis = (typeof provenanceBases)[number];

/** An entry is `[code, label]`, or `[code, label, registryCode]` in the three registry-coded tables. */
export type CodeTableRow = readonly [code: string, label: string] | readonly [string, string, string];

export interface EntryProvenance {
  readonly codes?: ProvenanceBasis;
  readonly labels?: ProvenanceBasis;
  readonly registryCodes?: ProvenanceBasis;
  readonly note?: string;
}

export interface CodeTableProvenance {
  /** Basis of the table's codes (their existence, number and order). */
  readonly codes: ProvenanceBasis;
  readonly labels: ProvenanceBasis;
  /** Only in the tables that carry registry codes. */
  readonly registryCodes?: ProvenanceBasis;
  /** Sources (ids in sources.json) the values were taken from. */
  readonly from?: readonly string[];
  /** Sources (ids in sources.json) that agree with the values. */
  readonly agreesWith?: readonly string[];
  /** Statements about the table, in Markdown (inline code, bold and bare URLs only). */
  readonly notes?: readonly string[];
  /** Entries whose provenance differs from the table's, by code. */
  readonly entries?: Readonly<Record<string, EntryProvenance>>;
}

export interface CodeTableRecord {
  readonly table: string;
  readonly title: string;
  readonly provenance: CodeTableProvenance;
  readonly entries: readonly CodeTableRow[];
}

export interface CodeTablesFile {
  readonly about: string;
  readonly tables: readonly CodeTableRecord[];
}

export interface FormProvenance {
  /** Basis of the form number (that the form exists and what it is for). */
  readonly formCode: Exclude<ProvenanceBasis, 'placeholder'>;
  readonly description: Exclude<ProvenanceBasis, 'placeholder'>;
  readonly from?: readonly string[];
  readonly note?: string;
}

export interface FormRecord {
  readonly formCode: string;
  readonly description: string;
  readonly categories: readonly string[];
  readonly provenance: FormProvenance;
}

export interface FormCategoryRecord {
  readonly category: string;
  /** How forms were assigned to the category (the spec names categories, not their members). */
  readonly rule: string;
  readonly notes?: readonly string[];
}

export interface FormsFile {
  readonly about: string;
  /** Every category except `all`, in the spec's order. */
  readonly categories: readonly FormCategoryRecord[];
  readonly forms: readonly FormRecord[];
}

export interface SourceRecord {
  readonly id: string;
  /** Short name, for tables. */
  readonly name: string;
  /** The full reference, in Markdown. */
  readonly text: string;
}

export interface SourcesFile {
  readonly about: string;
  readonly sources: readonly SourceRecord[];
}

/** sources.json, read by the docs and the checks only (JSON types widen literals, hence the cast). */
export const sourcesFile = sources as unknown as SourcesFile;
