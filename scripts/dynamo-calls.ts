/**
 * Counts the DynamoDB calls this process makes (the local stack runs in the benchmark's process),
 * by operation, through the lean client every store and the idempotency records use (json-client.ts). Calls to the keys and limits tables (the three every
 * request makes for authentication and limits) are left out unless asked for.
 */

export type CallListener = (operation: string, input: Record<string, unknown>) => void;

/** The tables a call names, whatever its shape (single item, batch, transaction). */
export function tablesOf(input: Record<string, unknown>): string[] {
  if (typeof input.TableName === 'string') return [input.TableName];
  if (input.RequestItems && typeof input.RequestItems === 'object') return Object.keys(input.RequestItems);
  if (Array.isArray(input.TransactItems)) {
    return input.TransactItems.flatMap((item: Record<string, { TableName?: string }>) =>
      Object.values(item).flatMap((action) => (action?.TableName ? [action.TableName] : [])),
    );
  }
  return [];
}

let observed = false;
const listeners: CallListener[] = [];

/**
 * Calls `listener` with every call's operation (`GetItem`, `BatchWriteItem`…) and input. The
 * clients' modules are imported here, late: they build the logger, which must see the log level
 * the local stack sets.
 */
export async function onDynamoCall(
  listener: CallListener,
  options: { skipTables?: readonly string[] } = {},
): Promise<void> {
  const skip = new Set(options.skipTables ?? []);
  const filtered: CallListener = (operation, input) => {
    if (skip.size > 0 && tablesOf(input).every((table) => skip.has(table))) return;
    listener(operation, input);
  };
  listeners.push(filtered);
  if (!observed) {
    observed = true;
    const { observeDynamoCalls } = await import('../shared/adapters/dynamodb/json-client.ts');
    observeDynamoCalls((operation, input) => {
      for (const each of listeners) each(operation, input);
    });
  }
}
