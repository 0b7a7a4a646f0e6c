/**
 * The weekly summaries capability's operations of the registry protocol (docs/registry-protocol.md; the row's fields:
 * shared/kernel/registry-protocol.ts).
 */
import { isObject, ownClientKey, registryOperation } from '../kernel/registry-protocol.ts';
import type { WeeklySummaryRegistry, WeeklySummaryType } from './registry-port.ts';

const operation = registryOperation<WeeklySummaryRegistry>('weeklySummaries');

export const weeklySummaryRegistryProtocol = {
  'weekly.summary': operation({
    method: 'purchaseWeeklySummary',
    billable: true,
    clientKey: ownClientKey,
    timeout: 'long',
    args: { type: 'string', weekStarting: 'string', clientKey: 'string' },
    toPort: (a, caller) => [
      { type: a.type as WeeklySummaryType, weekStarting: a.weekStarting },
      caller,
      a.clientKey,
    ],
    isResult: (v) =>
      isObject(v) &&
      typeof v.weekStarting === 'string' &&
      typeof v.totalCount === 'number' &&
      Array.isArray(v.items),
    doc: {
      args: '`type` (slug), `weekStarting` (a Monday), `clientKey`',
      result: '`RegistryWeeklySummary` (header, first page, `continuation`)',
    },
  }),
  'weekly.summary.items': operation({
    method: 'weeklySummaryItems',
    billable: false,
    timeout: 'lookup',
    args: { continuation: 'string' },
    toPort: (a, caller) => [a.continuation, caller],
    isResult: (v) =>
      isObject(v) &&
      Array.isArray(v.items) &&
      (v.continuation === null || typeof v.continuation === 'string'),
    doc: { args: '`continuation`', result: '`{items, continuation}`' },
  }),
};
