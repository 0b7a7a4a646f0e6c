import { DynamoExtractStore } from './adapters/dynamodb/extracts.ts';
import { DynamoPeopleSearchStore } from './adapters/dynamodb/people.ts';
import type { ExtractStore, UsageLedger } from './ports/extracts.ts';
import type { PeopleSearchStore } from './ports/people.ts';
import { getServices } from './runtime.ts';

/**
 * The stores of purchased data, built on first use. They are kept apart from `Services` (which
 * every handler loads for authentication and limits) so that the free endpoints' bundles carry
 * neither these adapters nor the AWS SDK client they are written with.
 */
let extracts: (ExtractStore & UsageLedger) | undefined;
let decoratedExtracts: ExtractStore | undefined;
let peopleSearches: PeopleSearchStore | undefined;
let decorate: ((store: ExtractStore) => ExtractStore) | undefined;

const ledger = (): ExtractStore & UsageLedger => {
  extracts ??= new DynamoExtractStore(getServices().config.mainTable);
  return extracts;
};

/** Held extracts: bought, read back free for 12 months. */
export const extractStore = (): ExtractStore => {
  decoratedExtracts ??= decorate ? decorate(ledger()) : ledger();
  return decoratedExtracts;
};

/** Billing events, for the usage report. */
export const usageLedger = (): UsageLedger => ledger();

export const peopleSearchStore = (): PeopleSearchStore => {
  peopleSearches ??= new DynamoPeopleSearchStore(getServices().config.mainTable);
  return peopleSearches;
};

/** Local stack only: wraps the extract store, for example to inject storage faults. */
export function decorateExtractStore(decorator: (store: ExtractStore) => ExtractStore): void {
  decorate = decorator;
  decoratedExtracts = undefined;
}
