/** Company monitoring (`/v1/monitors…`): watchlists, their change events and the feed (docs/monitoring.md). */
import { defineRoute, NO_RESPONSE } from '../kernel/http/route.ts';
import { noPath, noQuery } from '../kernel/http/schemas.ts';
import { DEVELOPER_ROLES } from '../kernel/sessions.ts';
import { shakable } from '../kernel/shakable.ts';
import { MONITOR_CSV_DESCRIPTION } from './csv.ts';
import {
  createMonitorBody,
  deletedMonitorSchema,
  importMonitorsBody,
  monitorFeedQuery,
  monitorFeedSchema,
  monitorImportPath,
  monitorImportSchema,
  monitorListQuery,
  monitorListSchema,
  monitorPath,
  monitorResponseSchema,
  sandboxEventBody,
  sandboxEventSchema,
  updateMonitorBody,
} from './schemas.ts';

const free = { status: 200, billable: false, product: null } as const;
const identifierErrors = ['acn_invalid', 'abn_invalid', 'abn_not_acn_based'] as const;

export const importMonitors = /* @__PURE__ */ shakable(() =>
  defineRoute({
    name: 'ImportMonitors',
    consoleRoles: DEVELOPER_ROLES,
    method: 'POST',
    path: '/v1/monitors/imports',
    handler: 'monitoring/import',
    summary:
      'Create up to 100,000 monitors from JSON rows or CSV; dryRun reports every row without creating anything. A commit of up to 1,000 rows answers its outcome (200); a larger one answers 202 `processing` and GET /v1/monitors/imports/{importId} follows it',
    request: { path: noPath, query: noQuery, body: importMonitorsBody },
    response: process.env.ROUTE_RESPONSES_OMITTED ? NO_RESPONSE : monitorImportSchema,
    ...free,
    accepted:
      'Accepted: a commit of more than 1,000 rows, `status` `processing`; its rows are created by the worker, 500 at a time, and GET /v1/monitors/imports/{importId} shows its progress and outcome.',
    idempotent: true,
    longRunning: true,
    ports: ['monitors', 'idempotency', 'monitoringQueue'],
    errors: [],
  }),
);

export const getMonitorImport = /* @__PURE__ */ shakable(() =>
  defineRoute({
    name: 'GetMonitorImport',
    consoleRoles: DEVELOPER_ROLES,
    method: 'GET',
    path: '/v1/monitors/imports/{importId}',
    handler: 'monitoring/get-import',
    summary: "A committed import's status, totals and every processed row not created (kept 30 days)",
    request: { path: monitorImportPath, query: noQuery },
    response: process.env.ROUTE_RESPONSES_OMITTED ? NO_RESPONSE : monitorImportSchema,
    ...free,
    ports: ['monitors'],
    readOnly: true,
    errors: ['monitor_import_not_found', 'monitor_import_owner_mismatch'],
  }),
);

export const createMonitor = /* @__PURE__ */ shakable(() =>
  defineRoute({
    name: 'CreateMonitor',
    consoleRoles: DEVELOPER_ROLES,
    method: 'POST',
    path: '/v1/monitors',
    handler: 'monitoring/create',
    summary:
      'Watch a company (ACN, ARBN, ARSN or an ABN that embeds one) or a person; records the baseline from free registry reads',
    request: { path: noPath, query: noQuery, body: createMonitorBody },
    response: process.env.ROUTE_RESPONSES_OMITTED ? NO_RESPONSE : monitorResponseSchema,
    ...free,
    status: 201,
    idempotent: true,
    ports: ['monitors', 'idempotency', 'registryFor'],
    errors: [
      ...identifierErrors,
      'company_not_found',
      'abn_not_found',
      'name_invalid_characters',
      'monitor_already_exists',
      'monitor_limit_reached',
    ],
  }),
);

export const listMonitors = /* @__PURE__ */ shakable(() =>
  defineRoute({
    name: 'ListMonitors',
    consoleRoles: DEVELOPER_ROLES,
    method: 'GET',
    path: '/v1/monitors',
    handler: 'monitoring/list',
    summary:
      "List the environment's monitors, newest first, or the one of a company; as JSON, or as CSV with Accept: text/csv",
    request: { path: noPath, query: monitorListQuery },
    response: process.env.ROUTE_RESPONSES_OMITTED ? NO_RESPONSE : monitorListSchema,
    ...free,
    csv: MONITOR_CSV_DESCRIPTION,
    ports: ['monitors'],
    readOnly: true,
    errors: [...identifierErrors],
  }),
);

export const getMonitor = /* @__PURE__ */ shakable(() =>
  defineRoute({
    name: 'GetMonitor',
    consoleRoles: DEVELOPER_ROLES,
    method: 'GET',
    path: '/v1/monitors/{monitorId}',
    handler: 'monitoring/get',
    summary: 'Read a monitor with its baseline and the sequence number of its last event',
    request: { path: monitorPath, query: noQuery },
    response: process.env.ROUTE_RESPONSES_OMITTED ? NO_RESPONSE : monitorResponseSchema,
    ...free,
    ports: ['monitors'],
    readOnly: true,
    errors: ['monitor_not_found', 'monitor_owner_mismatch'],
  }),
);

export const updateMonitor = /* @__PURE__ */ shakable(() =>
  defineRoute({
    name: 'UpdateMonitor',
    consoleRoles: DEVELOPER_ROLES,
    method: 'PATCH',
    path: '/v1/monitors/{monitorId}',
    handler: 'monitoring/update',
    summary: 'Change the event types a monitor wants',
    request: { path: monitorPath, query: noQuery, body: updateMonitorBody },
    response: process.env.ROUTE_RESPONSES_OMITTED ? NO_RESPONSE : monitorResponseSchema,
    ...free,
    ports: ['monitors'],
    errors: ['monitor_not_found', 'monitor_owner_mismatch'],
  }),
);

export const deleteMonitor = /* @__PURE__ */ shakable(() =>
  defineRoute({
    name: 'DeleteMonitor',
    consoleRoles: DEVELOPER_ROLES,
    method: 'DELETE',
    path: '/v1/monitors/{monitorId}',
    handler: 'monitoring/delete',
    summary: 'Stop watching (events already emitted stay in the feed)',
    request: { path: monitorPath, query: noQuery },
    response: process.env.ROUTE_RESPONSES_OMITTED ? NO_RESPONSE : deletedMonitorSchema,
    ...free,
    ports: ['monitors'],
    deletes: ['main'],
    errors: ['monitor_not_found', 'monitor_owner_mismatch'],
  }),
);

export const createSandboxMonitorEvent = /* @__PURE__ */ shakable(() =>
  defineRoute({
    name: 'CreateSandboxMonitorEvent',
    consoleRoles: DEVELOPER_ROLES,
    method: 'POST',
    path: '/v1/sandbox/monitors/{monitorId}/events',
    handler: 'monitoring/sandbox-event',
    summary:
      'Test keys: fire an event of any type the monitor wants now (source.kind sandbox); it reaches the feed and webhooks within seconds',
    request: { path: monitorPath, query: noQuery, body: sandboxEventBody },
    response: process.env.ROUTE_RESPONSES_OMITTED ? NO_RESPONSE : sandboxEventSchema,
    ...free,
    status: 202,
    idempotent: true,
    ports: ['monitors', 'idempotency', 'monitoringQueue'],
    errors: ['monitoring_sandbox_only', 'monitor_not_found', 'monitor_owner_mismatch'],
  }),
);

export const listMonitorEvents = /* @__PURE__ */ shakable(() =>
  defineRoute({
    name: 'ListMonitorEvents',
    consoleRoles: DEVELOPER_ROLES,
    method: 'GET',
    path: '/v1/monitors/events',
    handler: 'monitoring/feed',
    summary:
      'The monitoring feed: every monitoring event of the environment, oldest first, from a position that never expires (events kept 90 days)',
    request: { path: noPath, query: monitorFeedQuery },
    response: process.env.ROUTE_RESPONSES_OMITTED ? NO_RESPONSE : monitorFeedSchema,
    ...free,
    ports: ['monitors'],
    readOnly: true,
    errors: [...identifierErrors],
  }),
);

/** The area's routes, by name. */
export const monitoringRoutes = {
  importMonitors,
  getMonitorImport,
  createMonitor,
  listMonitors,
  getMonitor,
  updateMonitor,
  deleteMonitor,
  createSandboxMonitorEvent,
  listMonitorEvents,
};
