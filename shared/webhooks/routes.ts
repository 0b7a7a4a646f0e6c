/** Events (`GET /v1/events…`) and webhook endpoints (`/v1/webhook-endpoints…`): spec 6, docs/webhooks.md. */

import { defineRoute, NO_RESPONSE } from '../kernel/http/route.ts';
import { noPath, noQuery } from '../kernel/http/schemas.ts';
import { DEVELOPER_ROLES } from '../kernel/sessions.ts';
import { shakable } from '../kernel/shakable.ts';
import {
  createEndpointBody,
  deletedEndpointSchema,
  deliveryListQuery,
  deliveryListSchema,
  endpointListQuery,
  endpointListSchema,
  endpointPath,
  endpointResponseSchema,
  eventListQuery,
  eventListSchema,
  eventPath,
  eventResponseSchema,
  noBody,
  recoverBody,
  recoverySchema,
  resendBody,
  updateEndpointBody,
} from './schemas.ts';

const free = { status: 200, billable: false, product: null } as const;

export const listEvents = /* @__PURE__ */ shakable(() =>
  defineRoute({
    name: 'ListEvents',
    consoleRoles: DEVELOPER_ROLES,
    errors: [],
    method: 'GET',
    path: '/v1/events',
    handler: 'webhooks/events/list',
    summary: 'List the events of the last 30 days, newest first, optionally of one type',
    request: { path: noPath, query: eventListQuery },
    response: process.env.ROUTE_RESPONSES_OMITTED ? NO_RESPONSE : eventListSchema,
    ...free,
    ports: ['eventLog'],
    readOnly: true,
  }),
);

export const getEvent = /* @__PURE__ */ shakable(() =>
  defineRoute({
    name: 'GetEvent',
    consoleRoles: DEVELOPER_ROLES,
    errors: ['event_not_found', 'event_owner_mismatch'],
    method: 'GET',
    path: '/v1/events/{eventId}',
    handler: 'webhooks/events/get',
    summary: 'Read an event (kept 30 days)',
    request: { path: eventPath, query: noQuery },
    response: process.env.ROUTE_RESPONSES_OMITTED ? NO_RESPONSE : eventResponseSchema,
    ...free,
    ports: ['eventLog'],
    readOnly: true,
  }),
);

export const listEventDeliveries = /* @__PURE__ */ shakable(() =>
  defineRoute({
    name: 'ListEventDeliveries',
    consoleRoles: DEVELOPER_ROLES,
    errors: ['event_not_found', 'event_owner_mismatch'],
    method: 'GET',
    path: '/v1/events/{eventId}/deliveries',
    handler: 'webhooks/events/deliveries',
    summary: 'The deliveries of an event, each with its attempts',
    request: { path: eventPath, query: deliveryListQuery },
    response: process.env.ROUTE_RESPONSES_OMITTED ? NO_RESPONSE : deliveryListSchema,
    ...free,
    ports: ['eventLog', 'webhookDeliveries'],
    readOnly: true,
  }),
);

export const resendEvent = /* @__PURE__ */ shakable(() =>
  defineRoute({
    name: 'ResendEvent',
    consoleRoles: DEVELOPER_ROLES,
    errors: [
      'event_not_found',
      'event_owner_mismatch',
      'webhook_endpoint_not_found',
      'webhook_endpoint_owner_mismatch',
    ],
    method: 'POST',
    path: '/v1/events/{eventId}/resend',
    handler: 'webhooks/events/resend',
    summary:
      'Send an event again (same id) to one endpoint or every subscribed one, after the retry window too',
    request: { path: eventPath, query: noQuery, body: resendBody },
    response: process.env.ROUTE_RESPONSES_OMITTED ? NO_RESPONSE : deliveryListSchema,
    ...free,
    status: 202,
    ports: ['eventLog', 'webhookEndpoints', 'webhookDeliveries', 'webhookQueue'],
  }),
);

export const createWebhookEndpoint = /* @__PURE__ */ shakable(() =>
  defineRoute({
    name: 'CreateWebhookEndpoint',
    consoleRoles: DEVELOPER_ROLES,
    errors: ['webhook_url_not_allowed', 'webhook_endpoint_limit_reached'],
    method: 'POST',
    path: '/v1/webhook-endpoints',
    handler: 'webhooks/create',
    summary: 'Add a webhook endpoint (at most 16 per environment); its signing secret is shown once',
    request: { path: noPath, query: noQuery, body: createEndpointBody },
    response: process.env.ROUTE_RESPONSES_OMITTED ? NO_RESPONSE : endpointResponseSchema,
    ...free,
    status: 201,
    ports: ['webhookEndpoints', 'sealer'],
  }),
);

export const listWebhookEndpoints = /* @__PURE__ */ shakable(() =>
  defineRoute({
    name: 'ListWebhookEndpoints',
    consoleRoles: DEVELOPER_ROLES,
    errors: [],
    method: 'GET',
    path: '/v1/webhook-endpoints',
    handler: 'webhooks/list',
    summary: "List the environment's webhook endpoints, newest first",
    request: { path: noPath, query: endpointListQuery },
    response: process.env.ROUTE_RESPONSES_OMITTED ? NO_RESPONSE : endpointListSchema,
    ...free,
    ports: ['webhookEndpoints'],
    readOnly: true,
  }),
);

export const getWebhookEndpoint = /* @__PURE__ */ shakable(() =>
  defineRoute({
    name: 'GetWebhookEndpoint',
    consoleRoles: DEVELOPER_ROLES,
    errors: ['webhook_endpoint_not_found', 'webhook_endpoint_owner_mismatch'],
    method: 'GET',
    path: '/v1/webhook-endpoints/{endpointId}',
    handler: 'webhooks/get',
    summary: 'Read a webhook endpoint with its delivery stats (never its secret)',
    request: { path: endpointPath, query: noQuery },
    response: process.env.ROUTE_RESPONSES_OMITTED ? NO_RESPONSE : endpointResponseSchema,
    ...free,
    ports: ['webhookEndpoints'],
    readOnly: true,
  }),
);

export const updateWebhookEndpoint = /* @__PURE__ */ shakable(() =>
  defineRoute({
    name: 'UpdateWebhookEndpoint',
    consoleRoles: DEVELOPER_ROLES,
    errors: ['webhook_endpoint_not_found', 'webhook_endpoint_owner_mismatch', 'webhook_url_not_allowed'],
    method: 'PATCH',
    path: '/v1/webhook-endpoints/{endpointId}',
    handler: 'webhooks/update',
    summary: 'Change the url, event types, description or status of a webhook endpoint',
    request: { path: endpointPath, query: noQuery, body: updateEndpointBody },
    response: process.env.ROUTE_RESPONSES_OMITTED ? NO_RESPONSE : endpointResponseSchema,
    ...free,
    ports: ['webhookEndpoints'],
  }),
);

export const deleteWebhookEndpoint = /* @__PURE__ */ shakable(() =>
  defineRoute({
    name: 'DeleteWebhookEndpoint',
    consoleRoles: DEVELOPER_ROLES,
    errors: ['webhook_endpoint_not_found', 'webhook_endpoint_owner_mismatch'],
    method: 'DELETE',
    path: '/v1/webhook-endpoints/{endpointId}',
    handler: 'webhooks/delete',
    summary: 'Delete a webhook endpoint (its pending deliveries are not sent)',
    request: { path: endpointPath, query: noQuery },
    response: process.env.ROUTE_RESPONSES_OMITTED ? NO_RESPONSE : deletedEndpointSchema,
    ...free,
    ports: ['webhookEndpoints'],
    deletes: ['main'],
  }),
);

export const rotateWebhookSecret = /* @__PURE__ */ shakable(() =>
  defineRoute({
    name: 'RotateWebhookSecret',
    consoleRoles: DEVELOPER_ROLES,
    errors: ['webhook_endpoint_not_found', 'webhook_endpoint_owner_mismatch'],
    method: 'POST',
    path: '/v1/webhook-endpoints/{endpointId}/rotate-secret',
    handler: 'webhooks/rotate-secret',
    summary: 'A new signing secret, shown once; the old one also signs for 24 hours',
    request: { path: endpointPath, query: noQuery, body: noBody },
    response: process.env.ROUTE_RESPONSES_OMITTED ? NO_RESPONSE : endpointResponseSchema,
    ...free,
    ports: ['webhookEndpoints', 'sealer'],
  }),
);

export const listEndpointDeliveries = /* @__PURE__ */ shakable(() =>
  defineRoute({
    name: 'ListEndpointDeliveries',
    consoleRoles: DEVELOPER_ROLES,
    errors: ['webhook_endpoint_not_found', 'webhook_endpoint_owner_mismatch'],
    method: 'GET',
    path: '/v1/webhook-endpoints/{endpointId}/deliveries',
    handler: 'webhooks/deliveries',
    summary: 'The deliveries to an endpoint, newest first, each with its attempts',
    request: { path: endpointPath, query: deliveryListQuery },
    response: process.env.ROUTE_RESPONSES_OMITTED ? NO_RESPONSE : deliveryListSchema,
    ...free,
    ports: ['webhookEndpoints', 'webhookDeliveries'],
    readOnly: true,
  }),
);

export const recoverWebhookEndpoint = /* @__PURE__ */ shakable(() =>
  defineRoute({
    name: 'RecoverWebhookEndpoint',
    consoleRoles: DEVELOPER_ROLES,
    errors: ['webhook_endpoint_not_found', 'webhook_endpoint_owner_mismatch'],
    method: 'POST',
    path: '/v1/webhook-endpoints/{endpointId}/recover',
    handler: 'webhooks/recover',
    summary: 'Send again every failed delivery to the endpoint since a time',
    request: { path: endpointPath, query: noQuery, body: recoverBody },
    response: process.env.ROUTE_RESPONSES_OMITTED ? NO_RESPONSE : recoverySchema,
    ...free,
    status: 202,
    ports: ['webhookEndpoints', 'webhookDeliveries', 'webhookQueue'],
    readOnly: true,
  }),
);

export const testWebhookEndpoint = /* @__PURE__ */ shakable(() =>
  defineRoute({
    name: 'TestWebhookEndpoint',
    consoleRoles: DEVELOPER_ROLES,
    errors: ['webhook_endpoint_not_found', 'webhook_endpoint_owner_mismatch'],
    method: 'POST',
    path: '/v1/webhook-endpoints/{endpointId}/test',
    handler: 'webhooks/test',
    summary: 'Send a webhook_endpoint.test event to this endpoint only',
    request: { path: endpointPath, query: noQuery, body: noBody },
    response: process.env.ROUTE_RESPONSES_OMITTED ? NO_RESPONSE : eventResponseSchema,
    ...free,
    status: 202,
    ports: ['eventLog', 'webhookEndpoints', 'webhookDeliveries', 'webhookQueue'],
  }),
);

/** The area's routes, by name. */
export const webhookRoutes = {
  listEvents,
  getEvent,
  listEventDeliveries,
  resendEvent,
  createWebhookEndpoint,
  listWebhookEndpoints,
  getWebhookEndpoint,
  updateWebhookEndpoint,
  deleteWebhookEndpoint,
  rotateWebhookSecret,
  listEndpointDeliveries,
  recoverWebhookEndpoint,
  testWebhookEndpoint,
};
