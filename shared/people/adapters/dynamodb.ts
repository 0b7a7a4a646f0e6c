/**
 * People searches in the main table.
 *
 *   PSR#<searchId>   SEARCH   the search: owner, criteria, dates and its people (JSON text)
 *   PRS#<personId>   PERSON   one person found, with the search's owner and expiry
 *
 * Both outlive the search's 30 days by the 12 months an extract of the person can be held: a
 * role read names the person by `prs_` id, and an expired search must answer 410, not 404.
 */

import { getItem, type Item, putAll } from '../../adapters/dynamodb/document.ts';
import type { PeopleSearch, PeopleSearchStore, SearchedPerson } from '../store-port.ts';

const RETENTION_SECONDS = 400 * 24 * 3600;

const searchKey = (id: string) => ({ pk: `PSR#${id}`, sk: 'SEARCH' });
const personKey = (id: string) => ({ pk: `PRS#${id}`, sk: 'PERSON' });

export class DynamoPeopleSearchStore implements PeopleSearchStore {
  constructor(private readonly tableName: string) {}

  async save(search: PeopleSearch): Promise<void> {
    const expiresAtEpoch = Math.floor(Date.parse(search.expiresAt) / 1000) + RETENTION_SECONDS;
    const owner = { accountId: search.accountId, environment: search.environment };
    const people: Item[] = search.people.map((person) => ({
      ...personKey(person.id),
      ...owner,
      searchId: search.id,
      searchExpiresAt: search.expiresAt,
      registryIdentifier: person.registryIdentifier,
      roleCount: person.roleCount,
      match: JSON.stringify(person.match),
      expiresAtEpoch,
    }));
    await putAll(this.tableName, people, 'the people of a search');
    await putAll(
      this.tableName,
      [{ ...searchKey(search.id), ...search, people: JSON.stringify(search.people), expiresAtEpoch }],
      'a people search',
    );
  }

  async get(searchId: string): Promise<PeopleSearch | undefined> {
    const item = await this.read(searchKey(searchId));
    if (!item) return undefined;
    const { pk: _pk, sk: _sk, expiresAtEpoch: _ttl, people, ...search } = item;
    return { ...search, people: JSON.parse(people) } as PeopleSearch;
  }

  async getPerson(personId: string): Promise<SearchedPerson | undefined> {
    const item = await this.read(personKey(personId));
    if (!item) return undefined;
    return {
      id: personId,
      registryIdentifier: item.registryIdentifier,
      roleCount: item.roleCount,
      match: JSON.parse(item.match),
      searchId: item.searchId,
      accountId: item.accountId,
      environment: item.environment,
      searchExpiresAt: item.searchExpiresAt,
    };
  }

  private async read(Key: { pk: string; sk: string }): Promise<Item | undefined> {
    return getItem(this.tableName, Key);
  }
}
