/** Company monitoring's request examples (OpenAPI), from the sandbox (docs/sandbox.md, "Monitoring"). */
import type { RequestExample } from '../kernel/http/request-example.ts';

/** The monitor id the examples show (the recorded responses have the issued one replaced by it). */
export const EXAMPLE_MONITOR_ID = 'mon_2b7c9e1d3f5a4c6b8d0e1f2a';

/** The import id the examples show. */
export const EXAMPLE_IMPORT_ID = 'mimp_5e0a7c3b9d1f2e4a6c8b0d2f';

export const monitoringExamples: Readonly<Record<string, RequestExample>> = {
  CreateMonitor: {
    summary: 'Watch the sandbox company BLUEGUM ORCHARDS PTY LTD for every company event',
    headers: { 'Idempotency-Key': 'demo-mon-1' },
    body: { company: '990000014' },
  },
  ImportMonitors: {
    summary: 'A dry run of three rows: one to create, one invalid ACN, one duplicate',
    headers: { 'Idempotency-Key': 'demo-import-1' },
    body: { dryRun: true, csv: 'company\n990000149\n123456789\n990000149\n' },
  },
  GetMonitorImport: {
    summary: 'A committed import: its status, totals and the rows not created',
    path: { importId: EXAMPLE_IMPORT_ID },
  },
  ListMonitors: { summary: 'The first 20 monitors of the environment', query: { limit: '20' } },
  GetMonitor: { summary: 'One monitor, with its baseline', path: { monitorId: EXAMPLE_MONITOR_ID } },
  UpdateMonitor: {
    summary: 'Only status changes and external administrations',
    path: { monitorId: EXAMPLE_MONITOR_ID },
    body: { eventTypes: ['company.status_changed', 'company.external_administration'] },
  },
  DeleteMonitor: { summary: 'Stop watching', path: { monitorId: EXAMPLE_MONITOR_ID } },
  CreateSandboxMonitorEvent: {
    summary: 'Fire a company.status_changed for a test-key monitor now',
    path: { monitorId: EXAMPLE_MONITOR_ID },
    headers: { 'Idempotency-Key': 'demo-sandbox-event-1' },
    body: { type: 'company.status_changed' },
  },
  ListMonitorEvents: { summary: 'The feed from its start, 50 events a page', query: { limit: '50' } },
};
