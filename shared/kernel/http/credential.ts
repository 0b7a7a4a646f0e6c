import { type ApiKeyRecord, hashKey, isKeyUsable, keyIdForHash } from '../api-keys.ts';
import type { ApiKeyRepository } from '../ports/api-keys.ts';
import { type ConsoleSessionRecord, memberStillHolds } from '../sessions.ts';

/**
 * What a request's credential stands for, if it still works: the bearer key, or the session's key,
 * usable; or the session's member, as it was when the session opened (not removed, same role).
 * Limits count per key, and a member's session counts as its member (`keyId` is the member's id).
 */
export async function credentialOf(
  apiKeys: Pick<ApiKeyRepository, 'findByHash' | 'findMember'>,
  secret: string | undefined,
  session: ConsoleSessionRecord | undefined,
  now: Date,
): Promise<
  | {
      accountId: string;
      environment: ApiKeyRecord['environment'];
      keyId: string;
      record?: ApiKeyRecord;
      hash?: string;
    }
  | undefined
> {
  if (session?.member) {
    const member = await apiKeys.findMember(session.accountId, session.member.memberId);
    if (!memberStillHolds(member, session.member)) return undefined;
    return { accountId: session.accountId, environment: session.environment, keyId: session.member.memberId };
  }
  const hash = secret ? hashKey(secret) : session?.keyHash;
  if (hash === undefined) return undefined;
  const record = await apiKeys.findByHash(hash);
  if (!record || !isKeyUsable(record, now)) return undefined;
  return {
    accountId: record.accountId,
    environment: record.environment,
    keyId: keyIdForHash(hash),
    record,
    hash,
  };
}
