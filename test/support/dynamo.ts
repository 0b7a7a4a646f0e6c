import { randomUUID } from 'node:crypto';
import { DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import { inject } from 'vitest';
import { ensureTables, localClient } from '../../local/dynamodb.ts';
import { localTableName } from '../../local/stack.ts';
import type { TableDefinition } from '../../shared/kernel/infra/tables.ts';

/**
 * A unit file's tables in the run's one DynamoDB Local (test/support/shared-dynamo.ts): the local
 * stack's names after a prefix of the file's own, so no two files see each other's items.
 */
export interface FileTables {
  /** The name of this file's copy of a table. */
  name(table: TableDefinition): string;
  /**
   * Creates this file's tables (in `beforeAll`), points the stores' client at DynamoDB Local
   * (`DYNAMODB_ENDPOINT`, read at a store's first call) and returns its endpoint.
   */
  create(): Promise<string>;
  /** Deletes them (in `afterAll`), so the one DynamoDB Local does not keep every file's items. */
  remove(): Promise<void>;
}

export function fileTables(definitions: readonly TableDefinition[]): FileTables {
  const prefix = `t${randomUUID().slice(0, 8)}-`;
  const name = (table: TableDefinition) => `${prefix}${localTableName(table)}`;
  let endpoint: string | undefined;
  return {
    name,
    async create() {
      const response = await fetch(inject('sharedDynamo'));
      if (!response.ok) throw new Error(`no DynamoDB Local: ${await response.text()}`);
      endpoint = await response.text();
      await ensureTables(endpoint, definitions, name);
      process.env.DYNAMODB_ENDPOINT = endpoint;
      return endpoint;
    },
    async remove() {
      if (!endpoint) return;
      const client = localClient(endpoint);
      try {
        for (const table of definitions)
          await client.send(new DeleteTableCommand({ TableName: name(table) }));
      } finally {
        client.destroy();
      }
    },
  };
}

/** A `beforeAll` that creates a file's tables may wait this long for the shared DynamoDB Local to start. */
export const SHARED_DYNAMO_WAIT_MS = 300_000;
