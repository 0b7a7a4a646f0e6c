/**
 * The shapes of the reference data files in `shared/reference/data/` (docs/reference-data.md).
 *
 * - `code-tables.json` and `forms.json` hold the entries the service serves. `code-tables.ts` and
 *   `forms.ts` read them, and esbuild inlines them into every function that uses reference data.
 * - `code-tables.provenance.json` and `forms.provenance.json` say where each value comes from, by
 *   table slug and form code; `sources.json` holds the sources they name. `provenance.ts` reads
 *   them for the docs, the checks and the local docs page only, so they never reach a bundle.
 *
 * `validate.ts` checks the five files together; `markdown.ts` renders docs/reference-data.md.
 */

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

export interface CodeTableRecord {
  readonly table: string;
  readonly title: string;
  readonly entries: readonly CodeTableRow[];
}

/** code-tables.json */
export interface CodeTablesFile {
  readonly about: string;
  readonly tables: readonly CodeTableRecord[];
}

export interface FormRecord {
  readonly formCode: string;
  readonly description: string;
  readonly categories: readonly string[];
}

/** forms.json */
export interface FormsFile {
  readonly about: string;
  readonly forms: readonly FormRecord[];
}

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
  /** Entries whose provenance differs from the table's, or that need a note, by code. */
  readonly entries?: Readonly<Record<string, EntryProvenance>>;
}

/** code-tables.provenance.json: one record per table, by slug, in the order of code-tables.json. */
export interface CodeTablesProvenanceFile {
  readonly about: string;
  readonly tables: Readonly<Record<string, CodeTableProvenance>>;
}

export interface FormProvenance {
  readonly formCode: string;
  /** Basis of the form number (that the form exists and what it is for). */
  readonly number: Exclude<ProvenanceBasis, 'placeholder'>;
  /** Basis of the form's description. */
  readonly title: Exclude<ProvenanceBasis, 'placeholder'>;
  readonly from?: readonly string[];
  readonly note?: string;
}

export interface FormCategoryRecord {
  readonly category: string;
  /** How forms were assigned to the category (the spec names categories, not their members). */
  readonly rule: string;
  readonly notes?: readonly string[];
}

/** forms.provenance.json */
export interface FormsProvenanceFile {
  readonly about: string;
  /** Every category except `all`, in the spec's order. */
  readonly categories: readonly FormCategoryRecord[];
  /** One record per form, in the order of forms.json. */
  readonly forms: readonly FormProvenance[];
}

export interface SourceRecord {
  readonly id: string;
  /** Short name, for tables. */
  readonly name: string;
  /** The full reference, in Markdown. */
  readonly text: string;
}

/** sources.json */
export interface SourcesFile {
  readonly about: string;
  readonly sources: readonly SourceRecord[];
}
