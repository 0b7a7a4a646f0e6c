/**
 * The registry over HTTP: live keys call the national register (or, locally and in tests, the
 * registry simulator in local/registry-simulator.ts) through this adapter.
 *
 * The protocol is one table (protocol.ts: the rows each capability declares in its
 * `registry-protocol.ts`, documented in docs/registry-protocol.md); the policy every call shares
 * (retries, client keys, deadlines, error mapping) is the transport
 * (shared/adapters/registry-http/transport.ts); each capability's methods are a part of their own
 * (`shared/<capability>/adapters/registry-http.ts`), composed here.
 */

import { type HttpRegistryOptions, RegistryTransport } from '../../adapters/registry-http/transport.ts';
import { registryClass } from '../../app/registry.ts';
import { httpCompanies } from '../../companies/adapters/registry-http.ts';
import { companyRegistryProtocol } from '../../companies/registry-protocol.ts';
import { httpPurchases } from '../../extracts/adapters/registry-http.ts';
import { purchaseRegistryProtocol } from '../../extracts/registry-protocol.ts';
import { httpOrders } from '../../orders/adapters/registry-http.ts';
import { ordersRegistryProtocol } from '../../orders/registry-protocol.ts';
import { httpPeople } from '../../people/adapters/registry-http.ts';
import { peopleRegistryProtocol } from '../../people/registry-protocol.ts';
import { httpRecords } from '../../records/adapters/registry-http.ts';
import { recordsRegistryProtocol } from '../../records/registry-protocol.ts';
import { httpReference } from '../../reference/adapters/registry-http.ts';
import { referenceRegistryProtocol } from '../../reference/registry-protocol.ts';
import { httpRegisters } from '../../registers/adapters/registry-http.ts';
import { registerRegistryProtocol } from '../../registers/registry-protocol.ts';
import { httpWeeklySummaries } from '../../weekly-summaries/adapters/registry-http.ts';
import { weeklySummaryRegistryProtocol } from '../../weekly-summaries/registry-protocol.ts';
import { registryProtocolTable } from './protocol.ts';

export {
  DEFAULT_RETRY_DELAY_MS,
  DEFAULT_TIMEOUTS,
  type HttpRegistryOptions,
  MIN_ATTEMPT_MS,
  RegistryUnreachable,
  type RegistryUnreachableReason,
} from '../../adapters/registry-http/transport.ts';

export const HttpRegistry = registryClass('HttpRegistry', (options: HttpRegistryOptions) => {
  const transport = new RegistryTransport(options, registryProtocolTable);
  return {
    companies: httpCompanies(transport.callFor(companyRegistryProtocol)),
    people: httpPeople(transport.callFor(peopleRegistryProtocol)),
    orders: httpOrders(transport.callFor(ordersRegistryProtocol)),
    purchases: httpPurchases(transport.callFor(purchaseRegistryProtocol)),
    weeklySummaries: httpWeeklySummaries(transport.callFor(weeklySummaryRegistryProtocol)),
    records: httpRecords(transport.callFor(recordsRegistryProtocol)),
    registers: httpRegisters(transport.callFor(registerRegistryProtocol)),
    reference: httpReference(transport.callFor(referenceRegistryProtocol)),
  };
});
export type HttpRegistry = InstanceType<typeof HttpRegistry>;
