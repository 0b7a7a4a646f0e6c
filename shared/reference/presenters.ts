import type { CodeTableDefinition } from './code-tables.ts';

const tableDocsUrl = (docsUrl: string, table: string) =>
  `${docsUrl.replace(/\/+$/, '')}/reference/code-tables#${table}`;

export const codeTableSummaries = (tables: readonly CodeTableDefinition[], docsUrl: string) =>
  tables.map((table) => ({
    object: 'codeTableSummary' as const,
    table: table.table,
    title: table.title,
    entryCount: table.entries.length,
    docsUrl: tableDocsUrl(docsUrl, table.table),
  }));

export const presentCodeTable = (table: CodeTableDefinition, docsUrl: string) => ({
  object: 'codeTable' as const,
  table: table.table,
  title: table.title,
  docsUrl: tableDocsUrl(docsUrl, table.table),
  entries: table.entries.map(({ code, label, registryCode }) => ({ code, label, registryCode })),
});
