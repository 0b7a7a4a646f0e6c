/**
 * DynamoDB tables, described once. The CDK stack and the local stack both build their tables
 * from these descriptions, so key schemas, indexes and TTL attributes cannot drift apart.
 */

export interface KeyAttribute {
  readonly name: string;
  readonly type: 'S' | 'N';
}

export interface IndexDefinition {
  readonly indexName: string;
  readonly partitionKey: KeyAttribute;
  readonly sortKey?: KeyAttribute;
}

export interface TableDefinition {
  /** Stable logical name: CDK construct id suffix and local table name suffix. */
  readonly id: TableId;
  /** Environment variable through which functions learn the physical table name. */
  readonly envVar: string;
  readonly partitionKey: KeyAttribute;
  readonly sortKey?: KeyAttribute;
  readonly globalIndexes: readonly IndexDefinition[];
  /** Attribute holding an epoch-seconds expiry. DynamoDB deletes lazily; reads still compare times. */
  readonly ttlAttribute?: string;
}

export type TableId = 'keys' | 'limits' | 'main' | 'idempotency';

const s = (name: string): KeyAttribute => ({ name, type: 'S' });

export const tableDefinitions: Readonly<Record<TableId, TableDefinition>> = {
  /**
   * API keys, stored by the SHA-256 of the secret; the index lists an account's keys. Console
   * sign-in links and sessions live here too (by their token's hash, expiring: keys never carry
   * the TTL attribute), so the one strongly consistent read path every function has serves both.
   */
  keys: {
    id: 'keys',
    envVar: 'KEYS_TABLE',
    partitionKey: s('pk'),
    globalIndexes: [{ indexName: 'byAccount', partitionKey: s('accountId'), sortKey: s('keyId') }],
    ttlAttribute: 'expiresAtEpoch',
  },
  /** Per-key rate and concurrency state: one small, hot item per key, expiring when idle. */
  limits: {
    id: 'limits',
    envVar: 'LIMITS_TABLE',
    partitionKey: s('pk'),
    globalIndexes: [],
    ttlAttribute: 'expiresAtEpoch',
  },
  /** Everything the account buys or creates (extracts, searches, orders, ledger, webhooks). */
  main: {
    id: 'main',
    envVar: 'MAIN_TABLE',
    partitionKey: s('pk'),
    sortKey: s('sk'),
    globalIndexes: [{ indexName: 'gsi1', partitionKey: s('gsi1pk'), sortKey: s('gsi1sk') }],
    ttlAttribute: 'expiresAtEpoch',
  },
  /** Powertools idempotency records of purchase requests (its default attribute names), 24 hours. */
  idempotency: {
    id: 'idempotency',
    envVar: 'IDEMPOTENCY_TABLE',
    partitionKey: s('id'),
    globalIndexes: [],
    ttlAttribute: 'expiration',
  },
};

export const allTables: readonly TableDefinition[] = Object.values(tableDefinitions);

/**
 * The kinds of item in the keys table, by the prefix of their `pk`: what IAM conditions a writer
 * to (`dynamodb:LeadingKeys`, shared/app/port-grants.ts), so that only key administration writes key
 * items (beside every route's `lastUsedHour`, lib/api-area-stack.ts).
 */
export const KEYS_TABLE_ITEMS = {
  key: 'KEY#',
  link: 'LINK#',
  session: 'SESSION#',
  audit: 'AUDIT#',
  /** A console member, `MEMBER#<accountId>#<memberId>` (shared/console/members.ts). */
  member: 'MEMBER#',
  /** A member's address, `EMAIL#<sha256 of it>#<accountId>#<environment>`: one member per address there. */
  memberEmail: 'EMAIL#',
  /** A member's passkey, `PASSKEY#<sha256 of its credential id>` (shared/console/passkeys.ts). */
  passkey: 'PASSKEY#',
  /** A WebAuthn challenge, `CHALLENGE#<sha256 of it>`: single-use, minutes long, removed by TTL. */
  challenge: 'CHALLENGE#',
  /**
   * Requests for emailed sign-in links counted in one hour, `SIGNIN#<email|ip>#<sha256>#<hour>`
   * (shared/console/members.ts), expiring by TTL.
   */
  signInRequests: 'SIGNIN#',
} as const;
