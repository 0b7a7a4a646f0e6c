/**
 * The registry over HTTP: live keys call the national register (or, locally and in tests, the
 * registry simulator in local/registry-simulator.ts) through this adapter.
 *
 * The protocol is one table (protocol.ts, documented in docs/registry-protocol.md); the policy
 * every call shares (retries, client keys, deadlines, error mapping) is the transport
 * (transport.ts); each capability's methods are a part of their own (companies.ts, people.ts,
 * orders.ts, purchases.ts), composed here.
 */
import { registryClass } from '../../ports/registry.ts';
import { httpCompanies } from './companies.ts';
import { httpOrders } from './orders.ts';
import { httpPeople } from './people.ts';
import { httpPurchases } from './purchases.ts';
import { httpRecords } from './records.ts';
import { httpReference } from './reference.ts';
import { httpRegisters } from './registers.ts';
import { type HttpRegistryOptions, RegistryTransport } from './transport.ts';
import { httpWeeklySummaries } from './weekly-summaries.ts';

export {
  DEFAULT_RETRY_DELAY_MS,
  DEFAULT_TIMEOUTS,
  type HttpRegistryOptions,
  MIN_ATTEMPT_MS,
  RegistryUnreachable,
  type RegistryUnreachableReason,
} from './transport.ts';

export const HttpRegistry = registryClass('HttpRegistry', (options: HttpRegistryOptions) => {
  const { call } = new RegistryTransport(options);
  return {
    companies: httpCompanies(call),
    people: httpPeople(call),
    orders: httpOrders(call),
    purchases: httpPurchases(call),
    weeklySummaries: httpWeeklySummaries(call),
    records: httpRecords(call),
    registers: httpRegisters(call),
    reference: httpReference(call),
  };
});
export type HttpRegistry = InstanceType<typeof HttpRegistry>;
