import type { ApiKeyRecord } from '../api-keys.ts';
import type { ConsoleMemberRecord, ConsoleSessionRecord } from '../sessions.ts';

export interface ApiKeyRepository {
  findByHash(hash: string): Promise<ApiKeyRecord | undefined>;
  /** Stores a new key; fails when a key with the same hash exists. */
  create(hash: string, record: ApiKeyRecord): Promise<void>;
  /** Marks a key revoked; returns false when no such key exists. */
  revoke(keyId: string, accountId: string, at: Date): Promise<boolean>;
  listByAccount(accountId: string): Promise<ApiKeyRecord[]>;
  /**
   * Records that the key was used in `hour`, if it has no later hour recorded. The request path
   * calls it only when the key it read shows another hour: at most one write per key per hour.
   */
  recordUse(hash: string, hour: string): Promise<void>;
  /** A console session by its token's hash (shared/kernel/sessions.ts), read strongly consistent. */
  findSession(tokenHash: string): Promise<ConsoleSessionRecord | undefined>;
  /** A console member (what a member's session stands for), read strongly consistent. */
  findMember(accountId: string, memberId: string): Promise<ConsoleMemberRecord | undefined>;
}
