/** The weekly-summaries capability over HTTP: the purchase (first page) and the free continuation pages. */

import type { RegistryCall } from '../../adapters/registry-http/transport.ts';
import type { WeeklySummaryRegistry } from '../registry-port.ts';
import type { weeklySummaryRegistryProtocol } from '../registry-protocol.ts';

export const httpWeeklySummaries = (
  call: RegistryCall<typeof weeklySummaryRegistryProtocol>,
): WeeklySummaryRegistry => ({
  purchaseWeeklySummary: ({ type, weekStarting }, caller, clientKey) =>
    call('weekly.summary', { type, weekStarting, clientKey }, caller),
  weeklySummaryItems: (continuation, caller) => call('weekly.summary.items', { continuation }, caller),
});
