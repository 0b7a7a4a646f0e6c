/**
 * The registry's 36 code tables (spec document 1, section 2.9), read from
 * `data/code-tables.json`, which also records each table's provenance.
 *
 * Code sets are open (spec section 9): the registry can add codes at any time, so callers must
 * compare on `code`, never on `label`, and must not reject a record carrying a code that is missing
 * here. `labelFor` returns the code itself for anything unknown.
 *
 * The data file is checked by test/unit/reference/data.test.ts (`validate.ts`), and
 * docs/reference-data.md is generated from it (`npm run docs:reference`). Esbuild inlines the
 * file into each bundle, so keep its provenance to statements, not essays.
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
 * The data file as written, provenance included (docs, checks and the local docs page). JSON types
 * widen tuples and literals, hence the cast; `validate.ts` checks the shape in the unit tests.
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
