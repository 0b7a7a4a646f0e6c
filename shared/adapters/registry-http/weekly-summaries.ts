/** The weekly-summaries capability over HTTP: the purchase (first page) and the free continuation pages. */
import type { WeeklySummaryRegistry } from '../../weekly-summaries/registry-port.ts';
import type { RegistryCall } from './transport.ts';

export const httpWeeklySummaries = (call: RegistryCall): WeeklySummaryRegistry => ({
  purchaseWeeklySummary: ({ type, weekStarting }, caller, clientKey) =>
    call('weekly.summary', { type, weekStarting, clientKey }, caller),
  weeklySummaryItems: (continuation, caller) => call('weekly.summary.items', { continuation }, caller),
});
