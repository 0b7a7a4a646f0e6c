/**
 * Console members in the keys table (shared/console/store-port.ts): `MEMBER#<accountId>#<memberId>`
 * holds the member (nested under `member`; its top-level `accountId` and `keyId`, the member's id,
 * list it with the account's keys through the byAccount index, where key ids start `key_` and
 * member ids `mem_`). `EMAIL#<sha256 of the address>#<accountId>#<environment>` claims the address
 * in that account and environment (so it is a member there once), and is listed under the
 * byAccount partition `EMAIL#<sha256>`: where an address is a member, for its emailed sign-in link.
 * `SIGNIN#…` counts the requests for those links in an hour, per address and per source address.
 * Each change is one transaction with its audit record (shared/adapters/dynamodb/key-admin.ts).
 */
import { marshall } from '@aws-sdk/util-dynamodb';
import { memberPk } from '../../adapters/dynamodb/api-keys.ts';
import { callDynamo, DynamoCallError } from '../../adapters/dynamodb/json-client.ts';
import { auditPut, queryByAccount, readNested } from '../../adapters/dynamodb/key-admin.ts';
import { cancellationReasons } from '../../adapters/dynamodb/ledger.ts';
import type { Environment } from '../../kernel/api-keys.ts';
import { KEYS_TABLE_ITEMS } from '../../kernel/infra/tables.ts';
import type { KeyAuditRecord } from '../../kernel/key-admin.ts';
import { type ConsoleMemberRecord, type ConsoleRole, hashToken } from '../../kernel/sessions.ts';
import type {
  ConsoleMemberStore,
  MemberChange,
  MemberSignInLinks,
  Membership,
  SignInLinkRecord,
} from '../store-port.ts';
import { linkPut, putLink } from './dynamodb-links.ts';
import { passkeyPk, queryMemberPasskeys } from './dynamodb-passkeys.ts';

const MEMBER_ID_PREFIX = 'mem_';
const emailPartition = (email: string) => `${KEYS_TABLE_ITEMS.memberEmail}${hashToken(email)}`;
const emailPk = (email: string, accountId: string, environment: Environment) =>
  `${emailPartition(email)}#${accountId}#${environment}`;

export class DynamoConsoleMembers implements ConsoleMemberStore, MemberSignInLinks {
  constructor(private readonly tableName: string) {}

  private async write(items: Record<string, unknown>[]): Promise<boolean> {
    return (await this.change(items)) === 'done';
  }

  /**
   * A change whose first item is the member's own write: `gone` when that one's condition failed,
   * `contended` when only another item's did (the admin it keeps) or a concurrent transaction held
   * the same items.
   */
  private async change(items: Record<string, unknown>[]): Promise<MemberChange> {
    try {
      await callDynamo('TransactWriteItems', { TransactItems: items });
      return 'done';
    } catch (error) {
      if (!(error instanceof DynamoCallError && error.name === 'TransactionCanceledException')) throw error;
      return cancellationReasons(error)?.[0]?.Code === 'ConditionalCheckFailed' ? 'gone' : 'contended';
    }
  }

  /** The check that `memberId` is still an active admin of the account, for a change that needs one kept. */
  private adminCheck(accountId: string, memberId: string | undefined) {
    if (memberId === undefined) return [];
    return [
      {
        ConditionCheck: {
          TableName: this.tableName,
          Key: { pk: { S: memberPk(accountId, memberId) } },
          ConditionExpression: 'attribute_exists(pk) AND #m.#role = :admin AND #m.#status = :active',
          ExpressionAttributeNames: { '#m': 'member', '#role': 'role', '#status': 'status' },
          ExpressionAttributeValues: marshall({ ':admin': 'admin', ':active': 'active' }),
        },
      },
    ];
  }

  private queryAll(partition: string, prefix?: string): Promise<Record<string, unknown>[]> {
    return queryByAccount(this.tableName, partition, prefix);
  }

  async list(accountId: string, environment: Environment): Promise<ConsoleMemberRecord[]> {
    const items = await this.queryAll(accountId, MEMBER_ID_PREFIX);
    return items
      .map((item) => item.member as ConsoleMemberRecord)
      .filter((member) => member.environment === environment);
  }

  find(accountId: string, memberId: string): Promise<ConsoleMemberRecord | undefined> {
    return readNested(this.tableName, memberPk(accountId, memberId), 'member');
  }

  async membershipsOf(email: string): Promise<Membership[]> {
    const items = await this.queryAll(emailPartition(email));
    return items.map((item) => item.membership as Membership);
  }

  async invite(input: {
    member: ConsoleMemberRecord;
    linkHash: string;
    link: SignInLinkRecord;
    audit: KeyAuditRecord;
  }): Promise<'invited' | 'exists'> {
    const { member } = input;
    const membership: Membership = {
      accountId: member.accountId,
      environment: member.environment,
      memberId: member.memberId,
    };
    const done = await this.write([
      {
        Put: {
          TableName: this.tableName,
          Item: marshall({
            pk: emailPk(member.email, member.accountId, member.environment),
            accountId: emailPartition(member.email),
            keyId: `${member.accountId}#${member.environment}`,
            membership,
          }),
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      {
        Put: {
          TableName: this.tableName,
          Item: marshall({
            pk: memberPk(member.accountId, member.memberId),
            accountId: member.accountId,
            keyId: member.memberId,
            member,
          }),
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      { Put: linkPut(this.tableName, input.linkHash, input.link) },
      auditPut(this.tableName, input.audit),
    ]);
    return done ? 'invited' : 'exists';
  }

  createLink(linkHash: string, link: SignInLinkRecord): Promise<void> {
    return putLink(this.tableName, linkHash, link);
  }

  async countLinkRequest(subject: string, windowEnd: Date, limit: number): Promise<boolean> {
    try {
      await callDynamo('UpdateItem', {
        TableName: this.tableName,
        Key: { pk: { S: `${KEYS_TABLE_ITEMS.signInRequests}${subject}#${windowEnd.toISOString()}` } },
        UpdateExpression: 'ADD requests :one SET expiresAtEpoch = :ttl',
        ConditionExpression: 'attribute_not_exists(requests) OR requests < :limit',
        ExpressionAttributeValues: marshall({
          ':one': 1,
          ':limit': limit,
          ':ttl': Math.ceil(windowEnd.getTime() / 1000) + 3600,
        }),
      });
      return true;
    } catch (error) {
      if (error instanceof DynamoCallError && error.name === 'ConditionalCheckFailedException') return false;
      throw error;
    }
  }

  async changeRole(input: {
    member: ConsoleMemberRecord;
    role: ConsoleRole;
    audit: KeyAuditRecord;
    keepingAdmin?: string;
  }): Promise<MemberChange> {
    return this.change([
      {
        Update: {
          TableName: this.tableName,
          Key: { pk: { S: memberPk(input.member.accountId, input.member.memberId) } },
          UpdateExpression: 'SET #m.#role = :role, #m.generation = :next',
          ConditionExpression: '#m.generation = :g',
          ExpressionAttributeNames: { '#m': 'member', '#role': 'role' },
          ExpressionAttributeValues: marshall({
            ':role': input.role,
            ':g': input.member.generation,
            ':next': input.member.generation + 1,
          }),
        },
      },
      auditPut(this.tableName, input.audit),
      ...this.adminCheck(input.member.accountId, input.keepingAdmin),
    ]);
  }

  /**
   * With the member go its passkeys (read from the index, so one registered in the same instant may
   * stay behind: it signs in no one, since sign-in reads the member, and a member invited again is
   * another member). The member's own delete comes first: `change` reads its outcome from it.
   */
  async remove(input: {
    member: ConsoleMemberRecord;
    audit: KeyAuditRecord;
    keepingAdmin?: string;
  }): Promise<MemberChange> {
    const { member } = input;
    const passkeys = await queryMemberPasskeys(this.tableName, member.accountId, member.memberId);
    return this.change([
      {
        Delete: {
          TableName: this.tableName,
          Key: { pk: { S: memberPk(member.accountId, member.memberId) } },
          ConditionExpression: 'attribute_exists(pk)',
        },
      },
      {
        Delete: {
          TableName: this.tableName,
          Key: { pk: { S: emailPk(member.email, member.accountId, member.environment) } },
        },
      },
      auditPut(this.tableName, input.audit),
      ...this.adminCheck(member.accountId, input.keepingAdmin),
      ...passkeys.map((passkey) => ({
        Delete: { TableName: this.tableName, Key: { pk: { S: passkeyPk(passkey.credentialId) } } },
      })),
    ]);
  }
}
