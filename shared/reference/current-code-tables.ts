/** The code tables `GET /v1/reference/code-tables[/{table}]` serve: the stored copy, else the bundled one (current.ts). */
import type { Clock } from '../domain/clock.ts';
import { type CodeTableDefinition, codeTables } from './code-tables.ts';
import { type CurrentReference, currentCopy } from './current.ts';
import type { ReferenceStore } from './store-port.ts';

export interface CodeTableSet {
  all: readonly CodeTableDefinition[];
  find(slug: string): CodeTableDefinition | undefined;
}

const tableSetOf = (all: readonly CodeTableDefinition[]): CodeTableSet => {
  const bySlug = new Map(all.map((table) => [table.table, table]));
  return { all, find: (slug) => bySlug.get(slug) };
};

export type CurrentCodeTables = () => Promise<CurrentReference<CodeTableSet>>;

export const currentCodeTables = (store: ReferenceStore, clock: Clock): CurrentCodeTables =>
  currentCopy('code-tables', store, clock, codeTables, tableSetOf);
