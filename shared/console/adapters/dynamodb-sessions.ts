/**
 * Console sign-in links and sessions in the keys table (shared/console/store-port.ts), by their
 * token's hash, each expiring by TTL (`expiresAtEpoch`; reads still compare times): a session at
 * its end, a link a week after it was made (written by dynamodb-links.ts; marked `usedAt` when
 * opened, so a used link is told from an unknown one). Records are nested under `link` / `session`, so their accountId and keyId
 * stay out of the byAccount index. Opening a link, and signing out, are transactions with their
 * audit record (shared/adapters/dynamodb/key-admin.ts); a member's first sign-in marks it active in the same transaction.
 * Nothing here deletes.
 */
import { marshall } from '@aws-sdk/util-dynamodb';
import { memberPk, sessionPk } from '../../adapters/dynamodb/api-keys.ts';
import { callDynamo, DynamoCallError } from '../../adapters/dynamodb/json-client.ts';
import { auditPut, readNested } from '../../adapters/dynamodb/key-admin.ts';
import type { KeyAuditRecord } from '../../kernel/key-admin.ts';
import type { ConsoleSessionRecord } from '../../kernel/sessions.ts';
import type { ConsoleSessionStore, SignInLinkRecord } from '../store-port.ts';
import { linkPk, putLink } from './dynamodb-links.ts';

const epoch = (iso: string) => Math.ceil(Date.parse(iso) / 1000);

export class DynamoConsoleSessions implements ConsoleSessionStore {
  constructor(private readonly tableName: string) {}

  createLink(linkHash: string, link: SignInLinkRecord): Promise<void> {
    return putLink(this.tableName, linkHash, link);
  }

  findLink(linkHash: string): Promise<SignInLinkRecord | undefined> {
    return readNested(this.tableName, linkPk(linkHash), 'link');
  }

  async openSession(input: {
    linkHash: string;
    sessionHash: string;
    session: ConsoleSessionRecord;
    audit: KeyAuditRecord;
    member?: { accountId: string; memberId: string; generation: number };
  }): Promise<'opened' | 'used'> {
    const member = input.member;
    try {
      await callDynamo('TransactWriteItems', {
        TransactItems: [
          {
            Update: {
              TableName: this.tableName,
              Key: { pk: { S: linkPk(input.linkHash) } },
              UpdateExpression: 'SET #l.usedAt = :at',
              ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(#l.usedAt)',
              ExpressionAttributeNames: { '#l': 'link' },
              ExpressionAttributeValues: { ':at': { S: input.session.createdAt } },
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
          ...(member
            ? [
                {
                  Update: {
                    TableName: this.tableName,
                    Key: { pk: { S: memberPk(member.accountId, member.memberId) } },
                    UpdateExpression:
                      'SET #m.#status = :active, #m.joinedAt = if_not_exists(#m.joinedAt, :at)',
                    ConditionExpression: '#m.generation = :g',
                    ExpressionAttributeNames: { '#m': 'member', '#status': 'status' },
                    ExpressionAttributeValues: marshall({
                      ':active': 'active',
                      ':at': input.session.createdAt,
                      ':g': member.generation,
                    }),
                  },
                },
              ]
            : []),
        ],
      });
      return 'opened';
    } catch (error) {
      if (error instanceof DynamoCallError && error.name === 'TransactionCanceledException') return 'used';
      throw error;
    }
  }

  async endSession(sessionHash: string, at: Date, audit: KeyAuditRecord): Promise<boolean> {
    try {
      await callDynamo('TransactWriteItems', {
        TransactItems: [
          {
            Update: {
              TableName: this.tableName,
              Key: { pk: { S: sessionPk(sessionHash) } },
              UpdateExpression: 'SET #s.revokedAt = :at',
              ConditionExpression: 'attribute_exists(pk) AND attribute_type(#s.revokedAt, :null)',
              ExpressionAttributeNames: { '#s': 'session' },
              ExpressionAttributeValues: marshall({ ':at': at.toISOString(), ':null': 'NULL' }),
            },
          },
          auditPut(this.tableName, audit),
        ],
      });
      return true;
    } catch (error) {
      if (error instanceof DynamoCallError && error.name === 'TransactionCanceledException') return false;
      throw error;
    }
  }
}
