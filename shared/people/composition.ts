/**
 * People's composition: the factory of its port (shared/kernel/capability-ports.ts), the same on
 * Lambda (its functions give it `awsRoutePorts`) and on the local stack (`localPorts`).
 */

import type { PortFactory } from '../kernel/capability-ports.ts';
import { DynamoPeopleSearchStore } from './adapters/dynamodb.ts';

export const peopleSearches: PortFactory<'peopleSearches'> = (root) =>
  new DynamoPeopleSearchStore(root.config.mainTable);

export const localPorts = { peopleSearches };
