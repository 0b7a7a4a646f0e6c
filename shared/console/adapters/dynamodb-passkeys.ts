/**
 * Members' passkeys and WebAuthn challenges in the keys table (shared/console/store-port.ts).
 *
 * - `PASSKEY#<sha256 of the credential id>` holds a passkey (nested under `passkey`), found by the
 *   credential id an authenticator answers with; its top-level `accountId` is
 *   `PASSKEY#<accountId>#<memberId>` and `keyId` the passkey's id, so the byAccount index lists a
 *   member's passkeys (and the member store deletes them with the member).
 * - `CHALLENGE#<sha256 of the challenge>` holds a challenge until its TTL; answering it sets
 *   `usedAt`, in the transaction that stores the passkey or opens the session, on the condition
 *   that it was not set: a challenge is spent once.
 */
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import { memberPk, sessionPk } from '../../adapters/dynamodb/api-keys.ts';
import { callDynamo, type Item } from '../../adapters/dynamodb/json-client.ts';
import { auditPut, readNested, transactOrRefuse } from '../../adapters/dynamodb/key-admin.ts';
import { KEYS_TABLE_ITEMS } from '../../kernel/infra/tables.ts';
import type { KeyAuditRecord } from '../../kernel/key-admin.ts';
import { type ConsoleMemberRecord, type ConsoleSessionRecord, hashToken } from '../../kernel/sessions.ts';
import type { PasskeyChallengeRecord, PasskeyRecord, PasskeyStore } from '../store-port.ts';

export const passkeyPk = (credentialId: string) => `${KEYS_TABLE_ITEMS.passkey}${hashToken(credentialId)}`;
/** The byAccount partition listing a member's passkeys. */
export const memberPasskeysPartition = (accountId: string, memberId: string) =>
  `${KEYS_TABLE_ITEMS.passkey}${accountId}#${memberId}`;
const challengePk = (hash: string) => `${KEYS_TABLE_ITEMS.challenge}${hash}`;
const epoch = (iso: string) => Math.ceil(Date.parse(iso) / 1000);

/** Every passkey of a member, from the byAccount index (the member store's removal uses it too). */
export async function queryMemberPasskeys(
  tableName: string,
  accountId: string,
  memberId: string,
): Promise<PasskeyRecord[]> {
  const items: Item[] = [];
  let start: Item | undefined;
  do {
    const page: { Items: Item[]; LastEvaluatedKey?: Item } = await callDynamo('Query', {
      TableName: tableName,
      IndexName: 'byAccount',
      KeyConditionExpression: 'accountId = :a',
      ExpressionAttributeValues: marshall({ ':a': memberPasskeysPartition(accountId, memberId) }),
      ...(start ? { ExclusiveStartKey: start } : {}),
    });
    items.push(...page.Items);
    start = page.LastEvaluatedKey;
  } while (start);
  return items.map((item) => (unmarshall(item) as { passkey: PasskeyRecord }).passkey);
}

type MemberAsRead = Pick<ConsoleMemberRecord, 'accountId' | 'memberId' | 'generation'>;

export class DynamoConsolePasskeys implements PasskeyStore {
  constructor(private readonly tableName: string) {}

  private spendChallenge(challengeHash: string, at: string) {
    return {
      Update: {
        TableName: this.tableName,
        Key: { pk: { S: challengePk(challengeHash) } },
        UpdateExpression: 'SET #c.usedAt = :at',
        ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(#c.usedAt)',
        ExpressionAttributeNames: { '#c': 'challenge' },
        ExpressionAttributeValues: { ':at': { S: at } },
      },
    };
  }

  private memberStill(member: MemberAsRead) {
    return {
      ConditionCheck: {
        TableName: this.tableName,
        Key: { pk: { S: memberPk(member.accountId, member.memberId) } },
        ConditionExpression: '#m.generation = :g',
        ExpressionAttributeNames: { '#m': 'member' },
        ExpressionAttributeValues: { ':g': { N: String(member.generation) } },
      },
    };
  }

  async createChallenge(challengeHash: string, challenge: PasskeyChallengeRecord): Promise<void> {
    await callDynamo('PutItem', {
      TableName: this.tableName,
      Item: marshall(
        { pk: challengePk(challengeHash), challenge, expiresAtEpoch: epoch(challenge.expiresAt) },
        { removeUndefinedValues: true },
      ),
      ConditionExpression: 'attribute_not_exists(pk)',
    });
  }

  findChallenge(challengeHash: string): Promise<PasskeyChallengeRecord | undefined> {
    return readNested(this.tableName, challengePk(challengeHash), 'challenge');
  }

  list(accountId: string, memberId: string): Promise<PasskeyRecord[]> {
    return queryMemberPasskeys(this.tableName, accountId, memberId);
  }

  findByCredentialId(credentialId: string): Promise<PasskeyRecord | undefined> {
    return readNested(this.tableName, passkeyPk(credentialId), 'passkey');
  }

  async register(input: {
    challengeHash: string;
    usedAt: string;
    passkey: PasskeyRecord;
    member: MemberAsRead;
    audit: KeyAuditRecord;
  }): Promise<'registered' | 'refused'> {
    const { passkey } = input;
    const done = await transactOrRefuse([
      this.spendChallenge(input.challengeHash, input.usedAt),
      this.memberStill(input.member),
      {
        Put: {
          TableName: this.tableName,
          Item: marshall({
            pk: passkeyPk(passkey.credentialId),
            accountId: memberPasskeysPartition(passkey.accountId, passkey.memberId),
            keyId: passkey.passkeyId,
            passkey,
          }),
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      auditPut(this.tableName, input.audit),
    ]);
    return done ? 'registered' : 'refused';
  }

  async openSession(input: {
    challengeHash: string;
    passkey: PasskeyRecord;
    counter: number;
    sessionHash: string;
    session: ConsoleSessionRecord;
    member: MemberAsRead;
    audit: KeyAuditRecord;
  }): Promise<'opened' | 'refused'> {
    const done = await transactOrRefuse([
      this.spendChallenge(input.challengeHash, input.session.createdAt),
      this.memberStill(input.member),
      {
        Update: {
          TableName: this.tableName,
          Key: { pk: { S: passkeyPk(input.passkey.credentialId) } },
          UpdateExpression: 'SET #p.#counter = :next, #p.lastUsedAt = :at',
          ConditionExpression: '#p.#counter = :read',
          ExpressionAttributeNames: { '#p': 'passkey', '#counter': 'counter' },
          ExpressionAttributeValues: marshall({
            ':next': input.counter,
            ':read': input.passkey.counter,
            ':at': input.session.createdAt,
          }),
        },
      },
      {
        Put: {
          TableName: this.tableName,
          Item: marshall({
            pk: sessionPk(input.sessionHash),
            session: input.session,
            expiresAtEpoch: epoch(input.session.expiresAt),
          }),
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      auditPut(this.tableName, input.audit),
    ]);
    return done ? 'opened' : 'refused';
  }

  async remove(input: { passkey: PasskeyRecord; audit: KeyAuditRecord }): Promise<boolean> {
    return transactOrRefuse([
      {
        Delete: {
          TableName: this.tableName,
          Key: { pk: { S: passkeyPk(input.passkey.credentialId) } },
          ConditionExpression: 'attribute_exists(pk)',
        },
      },
      auditPut(this.tableName, input.audit),
    ]);
  }
}
