import { type Environment, hashKey, keyIdForHash, newKeyRecord } from '../shared/kernel/api-keys.ts';
import { toTimestamp } from '../shared/kernel/clock.ts';
import type { ApiKeyRepository } from '../shared/kernel/ports/api-keys.ts';
import type { SpendCapStore } from '../shared/spend-caps/store-port.ts';

export interface SeedKey {
  accountId: string;
  environment: Environment;
  secret: string;
}

/** Keys the local stack creates when LOCAL_API_KEYS is not set (documented in the README). */
export const defaultLocalKeys: readonly SeedKey[] = [
  { accountId: 'acct_a', environment: 'test', secret: 'sk_test_localAccountA' },
  { accountId: 'acct_a', environment: 'live', secret: 'sk_live_localAccountA' },
  { accountId: 'acct_b', environment: 'test', secret: 'sk_test_localAccountB' },
  { accountId: 'acct_b', environment: 'live', secret: 'sk_live_localAccountB' },
];

/** `acct_a:test:sk_test_a1,acct_a:live:sk_live_a1` → seed keys; throws on a malformed entry. */
export function parseKeyList(text: string): SeedKey[] {
  return text
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      const [accountId, environment, secret, ...rest] = part.split(':');
      if (!accountId || !secret || rest.length > 0 || (environment !== 'test' && environment !== 'live')) {
        throw new Error(
          `LOCAL_API_KEYS entry '${part}' is not account:environment:key (environment test or live)`,
        );
      }
      if (!secret.startsWith(`sk_${environment}_`)) {
        throw new Error(
          `LOCAL_API_KEYS entry '${part}': a ${environment} key must start with sk_${environment}_`,
        );
      }
      return { accountId, environment, secret };
    });
}

/** Stores the keys that are not stored yet (hashed); existing ones are left as they are. */
export async function seedKeys(
  keys: readonly SeedKey[],
  now: Date,
  apiKeys: ApiKeyRepository,
): Promise<void> {
  for (const key of keys) {
    const { hash, record } = newKeyRecord(key.secret, key.accountId, now);
    if (await apiKeys.findByHash(hash)) continue;
    await apiKeys.create(hash, record);
  }
}

/** The cap `npm start` puts on the first seeded account (test keys), unless it has one (docs/sandbox.md). */
/** Its alerts go to the account's seeded billing and admin members (local/members.ts). */
export const LOCAL_SPEND_CAP = { amountCents: 50_000, alertEmails: [] as string[] } as const;

/**
 * Caps the account's spend in the key's environment at `LOCAL_SPEND_CAP` when it has no account cap,
 * so the console's Spend caps page, the refusal and the alerts show on a fresh stack.
 */
export async function seedSpendCap(spendCaps: SpendCapStore, key: SeedKey, now: Date): Promise<void> {
  const existing = await spendCaps.capsOf(key.accountId, key.environment, keyIdForHash(hashKey(key.secret)));
  if (existing.account) return;
  await spendCaps.putCap({
    accountId: key.accountId,
    environment: key.environment,
    scope: { kind: 'account' },
    ...LOCAL_SPEND_CAP,
    updatedAt: toTimestamp(now),
  });
}
