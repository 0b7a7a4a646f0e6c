import { DynamoPeopleSearchStore } from '../../adapters/dynamodb/people.ts';
import type { CapabilityFactory } from './root.ts';

export const peopleSearches: CapabilityFactory<'peopleSearches'> = (root) =>
  new DynamoPeopleSearchStore(root.config.mainTable);
