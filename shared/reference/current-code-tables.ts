/** The code tables `GET /v1/reference/code-tables[/{table}]` serve: the stored copy, else the bundled one (current.ts). */
import type { Clock } from '../kernel/clock.ts';
import { type CodeTableDefinition, codeTables } from './code-tables.ts';
import { currentCopy } from './current.ts';
import type { CodeTableSet, CurrentCodeTables } from './current-port.ts';
import type { ReferenceStore } from './store-port.ts';

const tableSetOf = (all: readonly CodeTableDefinition[]): CodeTableSet => {
  const bySlug = new Map(all.map((table) => [table.table, table]));
  return { all, find: (slug) => bySlug.get(slug) };
};

export const currentCodeTables = (store: ReferenceStore, clock: Clock): CurrentCodeTables =>
  currentCopy('code-tables', store, clock, codeTables, tableSetOf);
