/**
 * The registry's 36 code tables (spec document 1, section 2.9), read from `data/code-tables.json`.
 * Where each value comes from is in `data/code-tables.provenance.json` (docs/reference-data.md).
 *
 * Code sets are open (spec section 9): the registry can add codes at any time, so callers must
 * compare on `code`, never on `label`, and must not reject a record carrying a code that is missing
 * here. `labelFor` returns the code itself for anything unknown.
 *
 * The data files are checked by test/unit/reference/data.test.ts (`validate.ts`), and
 * docs/reference-data.md is generated from them (`npm run docs:reference`). Esbuild inlines the
 * data file into each bundle; the provenance stays out of it.
 */

import data from './data/code-tables.json' with { type: 'json' };
import type { CodeTablesFile } from './data.ts';

export interface CodeTableEntry {
  readonly code: string;
  readonly label: string;
  readonly registryCode: string | null;
}

export interface CodeTableDefinition {
  readonly table: string;
  readonly title: string;
  readonly entries: readonly CodeTableEntry[];
}

/**
 * The data file as written (docs, checks and the local docs page). JSON types widen tuples, hence
 * the cast; `validate.ts` checks the shape in the unit tests.
 */
export const codeTablesFile = data as unknown as CodeTablesFile;

/** All 36 tables, in the order the spec's section 2.9 lists the slugs. */
export const codeTables: readonly CodeTableDefinition[] = Object.freeze(
  codeTablesFile.tables.map(({ table, title, entries }) =>
    Object.freeze({
      table,
      title,
      entries: Object.freeze(
        entries.map(([code, label, registryCode]) =>
          Object.freeze({ code, label, registryCode: registryCode ?? null }),
        ),
      ),
    }),
  ),
);

const tablesBySlug: ReadonlyMap<string, CodeTableDefinition> = new Map(
  codeTables.map((definition) => [definition.table, definition]),
);

const labelsBySlug: ReadonlyMap<string, ReadonlyMap<string, string>> = new Map(
  codeTables.map((definition) => [
    definition.table,
    new Map(definition.entries.map((entry) => [entry.code, entry.label])),
  ]),
);

export function findCodeTable(slug: string): CodeTableDefinition | undefined {
  return tablesBySlug.get(slug);
}

/** Label for a code in a table; an unknown code (or unknown table) returns the code itself (open code sets). */
export function labelFor(table: string, code: string): string {
  return labelsBySlug.get(table)?.get(code) ?? code;
}
