/**
 * Console sign-in links in the keys table, by their token's hash: the one writer of `LINK#` items,
 * for the key-exchange link (dynamodb-sessions.ts) and a member's invitation or emailed link
 * (dynamodb-members.ts). The record is nested under `link`, so its accountId stays out of the
 * byAccount index; the item expires by TTL a week after it was made (`LINK_RECORD_LIFETIME_MS`), so
 * that a used link is told from an unknown one until then.
 */
import { marshall } from '@aws-sdk/util-dynamodb';
import { callDynamo } from '../../adapters/dynamodb/json-client.ts';
import { KEYS_TABLE_ITEMS } from '../../kernel/infra/tables.ts';
import { LINK_RECORD_LIFETIME_MS } from '../../kernel/sessions.ts';
import type { SignInLinkRecord } from '../store-port.ts';

export const linkPk = (hash: string) => `${KEYS_TABLE_ITEMS.link}${hash}`;

/** The Put of a new link (refused if the hash is stored already), alone or in a transaction. */
export const linkPut = (tableName: string, linkHash: string, link: SignInLinkRecord) => ({
  TableName: tableName,
  Item: marshall({
    pk: linkPk(linkHash),
    link,
    expiresAtEpoch: Math.ceil((Date.parse(link.createdAt) + LINK_RECORD_LIFETIME_MS) / 1000),
  }),
  ConditionExpression: 'attribute_not_exists(pk)',
});

export async function putLink(tableName: string, linkHash: string, link: SignInLinkRecord): Promise<void> {
  await callDynamo('PutItem', linkPut(tableName, linkHash, link));
}
