/**
 * Spend caps in the main table (docs/usage.md, "Spend caps"; the record on spend caps):
 *
 * - caps: `pk SPENDCAP#<account>#<env>`, `sk ACCOUNT` or `KEY#<keyId>`;
 * - counters: `pk SPEND#<account>#<env>#<YYYY-MM>`, `sk ACCOUNT` or `KEY#<keyId>`, `spentCents`
 *   (settled fees plus open holds) and `alerted` (the thresholds alerted this month);
 * - holds: `pk SPENDHOLD#<sha256 of the purchase key>`, `sk HOLD`, `status` open or settled; an
 *   open hold is on gsi1 (`SPENDHOLD_OPEN#<shard>` / `<reservedAt>#<hash>`, shared/adapters/dynamodb/sharded-index.ts) for
 *   the sweeper, which settles holds a dead purchase left open (shared/spend-caps/sweep.ts).
 *
 * A hold and its counters are written in one transaction, each counter on condition that it stays
 * within its cap, so a burst of purchases cannot pass a cap. Concurrent transactions on one counter
 * conflict (`TransactionConflict`) and are retried here with jittered backoff.
 */
import { createHash } from 'node:crypto';
import {
  getItem,
  type Item,
  query,
  type TransactItem,
  transactWrite,
  updateItem,
} from '../../adapters/dynamodb/document.ts';
import { eventPuts } from '../../adapters/dynamodb/events.ts';
import type { DynamoKeyAdministration } from '../../adapters/dynamodb/key-admin.ts';
import { cancellationReasons, usagePk } from '../../adapters/dynamodb/ledger.ts';
import { queryEveryShard, shardKey } from '../../adapters/dynamodb/sharded-index.ts';
import type { Environment } from '../../kernel/api-keys.ts';
import { StoreUnavailable } from '../../kernel/store-unavailable.ts';
import type { EventRecord } from '../../webhooks/event-port.ts';
import type {
  BillingRecipients,
  CapScope,
  ReserveOutcome,
  SpendCap,
  SpendCapStore,
  SpendCounter,
  SpendHoldStore,
  SpendReservation,
} from '../store-port.ts';

const capsPk = (accountId: string, environment: Environment) => `SPENDCAP#${accountId}#${environment}`;
const counterPk = (accountId: string, environment: Environment, month: string) =>
  `SPEND#${accountId}#${environment}#${month}`;
const scopeSk = (scope: CapScope) => (scope.kind === 'account' ? 'ACCOUNT' : `KEY#${scope.keyId}`);
const holdHash = (key: string) => createHash('sha256').update(key).digest('hex');
const holdKey = (key: string) => ({ pk: `SPENDHOLD#${holdHash(key)}`, sk: 'HOLD' });
const OPEN_HOLDS = 'SPENDHOLD_OPEN';
const openHoldIndex = (reservation: SpendReservation) => {
  const hash = holdHash(reservation.key);
  return { gsi1pk: shardKey(OPEN_HOLDS, hash), gsi1sk: `${reservation.reservedAt}#${hash}` };
};

/** Counters and holds outlive their month by this long, then expire (TTL). */
const KEPT_AFTER_MONTH_MS = 62 * 24 * 3600_000;
const expiresAtEpoch = (month: string) =>
  Math.floor((Date.parse(`${month}-01T00:00:00Z`) + KEPT_AFTER_MONTH_MS) / 1000);

const CONFLICT_ATTEMPTS = 8;

/** A cap item cleared by `DELETE` keeps its place without an amount. */
const isCap = (item: Item | undefined): item is Item => item?.amountCents !== undefined;

const toCap = (item: Item): SpendCap => ({
  accountId: item.accountId,
  environment: item.environment,
  scope: item.keyId ? { kind: 'key', keyId: item.keyId } : { kind: 'account' },
  amountCents: item.amountCents,
  alertEmails: item.alertEmails ?? [],
  updatedAt: item.updatedAt,
});

const toReservation = (item: Item): SpendReservation => ({
  key: item.key,
  accountId: item.accountId,
  environment: item.environment,
  keyId: item.keyId ?? null,
  month: item.month,
  amountCents: item.amountCents,
  requestId: item.requestId,
  reservedAt: item.reservedAt,
});

const isConflict = (error: unknown) =>
  (error as { name?: string }).name === 'TransactionCanceledException' &&
  (cancellationReasons(error) ?? []).some((reason) => reason.Code === 'TransactionConflict');

/** A transaction retried while it only conflicted with a concurrent one on the same items. */
async function transactRetryingConflicts(items: readonly TransactItem[]): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await transactWrite(items);
    } catch (error) {
      if (!isConflict(error)) throw error;
      if (attempt >= CONFLICT_ATTEMPTS) throw new StoreUnavailable('TransactWriteItems', error);
      await new Promise((done) => setTimeout(done, Math.random() * 20 * 2 ** attempt));
    }
  }
}

/** The caps, counters and holds (the spend guard's store), without the key lookup. */
export class DynamoSpendHolds implements SpendHoldStore, BillingRecipients {
  constructor(readonly tableName: string) {}

  async capsOf(accountId: string, environment: Environment, keyId: string) {
    const [account, key] = await Promise.all([
      getItem(this.tableName, { pk: capsPk(accountId, environment), sk: 'ACCOUNT' }),
      getItem(this.tableName, { pk: capsPk(accountId, environment), sk: `KEY#${keyId}` }),
    ]);
    return {
      ...(isCap(account) ? { account: toCap(account) } : {}),
      ...(isCap(key) ? { key: toCap(key) } : {}),
    };
  }

  async listCaps(accountId: string, environment: Environment): Promise<SpendCap[]> {
    const caps: SpendCap[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const page = await query({
        TableName: this.tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': capsPk(accountId, environment) },
        ExclusiveStartKey: start,
      });
      caps.push(...page.Items.filter(isCap).map(toCap));
      start = page.LastEvaluatedKey;
    } while (start);
    // `ACCOUNT` sorts before `KEY#…`.
    return caps;
  }

  async putCap(cap: SpendCap, options: { onlyLowering?: boolean } = {}): Promise<boolean> {
    try {
      await this.writeCap(cap, options.onlyLowering === true);
      return true;
    } catch (error) {
      if (cancellationReasons(error)?.[0]?.Code === 'ConditionalCheckFailed') return false;
      throw error;
    }
  }

  private async writeCap(cap: SpendCap, onlyLowering: boolean): Promise<void> {
    await transactWrite([
      {
        Put: {
          TableName: this.tableName,
          Item: {
            pk: capsPk(cap.accountId, cap.environment),
            sk: scopeSk(cap.scope),
            accountId: cap.accountId,
            environment: cap.environment,
            keyId: cap.scope.kind === 'key' ? cap.scope.keyId : undefined,
            amountCents: cap.amountCents,
            alertEmails: cap.alertEmails.length > 0 ? [...cap.alertEmails] : undefined,
            updatedAt: cap.updatedAt,
          },
          ...(onlyLowering
            ? {
                ConditionExpression: 'attribute_not_exists(amountCents) OR amountCents >= :amount',
                ExpressionAttributeValues: { ':amount': cap.amountCents },
              }
            : {}),
        },
      },
    ]);
  }

  /** Cleared in place (no `DeleteItem` grant for it): an item without an amount is no cap. */
  async deleteCap(accountId: string, environment: Environment, scope: CapScope): Promise<void> {
    await updateItem({
      TableName: this.tableName,
      Key: { pk: capsPk(accountId, environment), sk: scopeSk(scope) },
      UpdateExpression: 'REMOVE amountCents, alertEmails',
      ConditionExpression: 'attribute_exists(pk)',
    }).catch((error: { name?: string }) => {
      if (error.name !== 'ConditionalCheckFailedException') throw error;
    });
  }

  async counter(
    accountId: string,
    environment: Environment,
    scope: CapScope,
    month: string,
  ): Promise<SpendCounter> {
    const item = await getItem(this.tableName, {
      pk: counterPk(accountId, environment, month),
      sk: scopeSk(scope),
    });
    return { spentCents: item?.spentCents ?? 0, alerted: [...(item?.alerted ?? [])].map(Number) };
  }

  private counterUpdate(
    reservation: SpendReservation,
    scope: CapScope,
    deltaCents: number,
    cap: number | undefined,
  ): TransactItem {
    return {
      Update: {
        TableName: this.tableName,
        Key: {
          pk: counterPk(reservation.accountId, reservation.environment, reservation.month),
          sk: scopeSk(scope),
        },
        UpdateExpression: 'ADD spentCents :delta SET expiresAtEpoch = :expires',
        ...(cap === undefined
          ? {}
          : { ConditionExpression: 'attribute_not_exists(spentCents) OR spentCents <= :room' }),
        ExpressionAttributeValues: {
          ':delta': deltaCents,
          ':expires': expiresAtEpoch(reservation.month),
          ...(cap === undefined ? {} : { ':room': cap - deltaCents }),
        },
      },
    };
  }

  /** The account's counter, then the key's (none for a charge of the account's own). */
  private counterUpdates(
    reservation: SpendReservation,
    deltaCents: number,
    limits: { account?: number; key?: number },
  ): TransactItem[] {
    const { keyId } = reservation;
    return [
      this.counterUpdate(reservation, { kind: 'account' }, deltaCents, limits.account),
      ...(keyId === null
        ? []
        : [this.counterUpdate(reservation, { kind: 'key', keyId }, deltaCents, limits.key)]),
    ];
  }

  async reserve(
    reservation: SpendReservation,
    limits: { account?: number; key?: number },
  ): Promise<ReserveOutcome> {
    const hold = holdKey(reservation.key);
    try {
      await transactRetryingConflicts([
        {
          Put: {
            TableName: this.tableName,
            Item: {
              ...hold,
              ...reservation,
              ...openHoldIndex(reservation),
              status: 'open',
              expiresAtEpoch: expiresAtEpoch(reservation.month),
            },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        ...this.counterUpdates(reservation, reservation.amountCents, limits),
      ]);
      return { outcome: 'held' };
    } catch (error) {
      const reasons = cancellationReasons(error);
      if ((error as { name?: string }).name !== 'TransactionCanceledException' || !reasons) throw error;
      const failed = (index: number) => reasons[index]?.Code === 'ConditionalCheckFailed';
      if (failed(0)) {
        const held = await this.reservation(reservation.key);
        if (held) return { outcome: 'held_before', reservation: held };
      }
      if (failed(1)) return { outcome: 'refused', scope: 'account' };
      if (failed(2)) return { outcome: 'refused', scope: 'key' };
      throw error;
    }
  }

  async settle(reservation: SpendReservation, actualCents: number): Promise<boolean> {
    const delta = actualCents - reservation.amountCents;
    const closeHold = {
      TableName: this.tableName,
      Key: holdKey(reservation.key),
      UpdateExpression: 'SET #status = :settled, settledCents = :actual REMOVE gsi1pk, gsi1sk',
      ConditionExpression: '#status = :open',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':settled': 'settled', ':open': 'open', ':actual': actualCents },
    };
    try {
      // Charged what it reserved (the common case): the counters are right, the hold only closes.
      if (delta === 0) await transactWrite([{ Update: closeHold }]);
      else
        await transactRetryingConflicts([
          { Update: closeHold },
          ...this.counterUpdates(reservation, delta, {}),
        ]);
      return true;
    } catch (error) {
      // Settled already (a retry of a settled purchase, or a sweep that came first): it counts as it was settled.
      if (cancellationReasons(error)?.[0]?.Code === 'ConditionalCheckFailed') return false;
      throw error;
    }
  }

  async openHolds(reservedBefore: string, limit: number): Promise<SpendReservation[]> {
    const items = await queryEveryShard({
      tableName: this.tableName,
      base: OPEN_HOLDS,
      below: { bound: reservedBefore },
      limit,
    });
    return items.map(toReservation);
  }

  async reservation(key: string): Promise<SpendReservation | undefined> {
    const item = await getItem(this.tableName, holdKey(key));
    return item && toReservation(item);
  }

  async feesOfRequest(
    accountId: string,
    environment: Environment,
    requestId: string,
    since: string,
  ): Promise<number | null> {
    let total: number | null = null;
    let start: Record<string, unknown> | undefined;
    do {
      const page = await query({
        TableName: this.tableName,
        KeyConditionExpression: 'pk = :pk AND sk >= :since',
        FilterExpression: 'requestId = :request',
        ExpressionAttributeValues: {
          ':pk': usagePk(accountId, environment),
          ':since': since,
          ':request': requestId,
        },
        ExclusiveStartKey: start,
      });
      for (const entry of page.Items) {
        total = (total ?? 0) + (entry.unitAmountCents ?? 0) * (entry.quantity ?? 1);
      }
      start = page.LastEvaluatedKey;
    } while (start);
    return total;
  }

  async alert(
    ref: { accountId: string; environment: Environment; scope: CapScope; month: string },
    threshold: number,
    event: EventRecord,
  ): Promise<boolean> {
    try {
      await transactRetryingConflicts([
        {
          Update: {
            TableName: this.tableName,
            Key: { pk: counterPk(ref.accountId, ref.environment, ref.month), sk: scopeSk(ref.scope) },
            UpdateExpression: 'ADD alerted :threshold',
            ConditionExpression: 'attribute_not_exists(alerted) OR NOT contains(alerted, :one)',
            ExpressionAttributeValues: { ':threshold': new Set([threshold]), ':one': threshold },
          },
        },
        ...eventPuts(this.tableName, event),
      ]);
      return true;
    } catch (error) {
      if (cancellationReasons(error)?.[0]?.Code === 'ConditionalCheckFailed') return false;
      throw error;
    }
  }

  /** The account cap's alert emails (the members are added by `billingRecipientsOf`, spend-caps/alerts.ts). */
  async recipientsOf(accountId: string, environment: Environment): Promise<string[]> {
    const item = await getItem(this.tableName, { pk: capsPk(accountId, environment), sk: 'ACCOUNT' });
    return isCap(item) ? [...(item.alertEmails ?? [])] : [];
  }
}

/** With the key lookup that setting a key's cap needs (the cap routes' store). */
export class DynamoSpendCaps extends DynamoSpendHolds implements SpendCapStore {
  constructor(
    tableName: string,
    readonly keys: Pick<DynamoKeyAdministration, 'find'>,
  ) {
    super(tableName);
  }

  async hasKey(accountId: string, environment: Environment, keyId: string): Promise<boolean> {
    const key = await this.keys.find(accountId, keyId);
    return key !== undefined && key.environment === environment;
  }
}
