/**
 * The usage ledger's items and DynamoDB's transaction refusals, shared by the extract store and
 * the order store. Kept apart from both, so that a module
 * writing fee entries through the lean JSON client does not bundle the SDK with them.
 */
import type { NativeAttributeValue } from '@aws-sdk/util-dynamodb';
import type { Environment } from '../../kernel/api-keys.ts';
import type { FeeEntry } from '../../kernel/ports/fee-ledger.ts';

type Item = Record<string, NativeAttributeValue>;

export const usagePk = (accountId: string, env: Environment) => `USAGE#${accountId}#${env}`;

// Times have whole seconds; wall-clock milliseconds keep same-second entries in order.
export const entryOrder = (ms = Date.now()): string => String(ms).padStart(15, '0');

/** A fee entry as the ledger item `entries` reads (`order` from `entryOrder`). */
export const feeEntryItem = (fee: FeeEntry, order: string): Item => ({
  pk: usagePk(fee.accountId, fee.environment),
  sk: `${fee.at}#${order}#${fee.requestId}`,
  ...fee,
});

/** Why each item of a cancelled transaction was refused, in order (the SDK's and the JSON client's errors). */
export const cancellationReasons = (error: unknown): { Code?: string }[] | undefined =>
  (error as { CancellationReasons?: { Code?: string }[] }).CancellationReasons;

export const cancelledByCondition = (error: unknown): boolean =>
  cancellationReasons(error)?.some((reason) => reason.Code === 'ConditionalCheckFailed') ?? false;
