/**
 * Webhook endpoint management (like Stripe's webhook endpoints): create with a signing secret
 * shown once, read, list, change, delete, rotate the secret (the old one keeps signing for 24
 * hours), and how endpoints, deliveries and events are shown.
 */
import { randomBytes } from 'node:crypto';
import { isSameOwner, type Owner } from '../kernel/api-keys.ts';
import { toTimestamp } from '../kernel/clock.ts';
import { ApiError } from '../kernel/errors/api-error.ts';
import './errors.ts';
import { type AddressPolicy, checkWebhookUrl } from './address-guard.ts';
import type { EventRecord } from './event-port.ts';
import {
  type DeliveryRecord,
  MAX_ENDPOINTS,
  PREVIOUS_SECRET_LIFETIME_MS,
  type SecretSealer,
  type WebhookEndpointRecord,
  type WebhookEndpointStore,
} from './store-port.ts';

export const ENDPOINT_ID_PATTERN = /^we_[0-9a-f]{24}$/;
export const EVENT_ID_PATTERN = /^evt_[0-9a-zA-Z]{1,64}$/;

export const newSecret = () => `whsec_${randomBytes(32).toString('base64url')}`;
export const newEndpointId = () => `we_${randomBytes(12).toString('hex')}`;

const otherOwner = (record: Owner, owner: Owner, what: string) =>
  record.accountId !== owner.accountId
    ? `This ${what} belongs to another account.`
    : `This ${what} belongs to the ${record.environment} environment; use a ${record.environment} key.`;

const endpointNotFound = (param = 'endpointId') =>
  new ApiError('webhook_endpoint_not_found', { param, message: 'No webhook endpoint has this id.' });

export function assertEndpointReadable(
  endpoint: WebhookEndpointRecord | undefined,
  owner: Owner,
  param = 'endpointId',
): WebhookEndpointRecord {
  if (!endpoint) throw endpointNotFound(param);
  if (!isSameOwner(endpoint, owner)) {
    throw new ApiError('webhook_endpoint_owner_mismatch', {
      param,
      message: otherOwner(endpoint, owner, 'webhook endpoint'),
    });
  }
  return endpoint;
}

export const findEndpoint = (store: Pick<WebhookEndpointStore, 'get'>, id: string) =>
  ENDPOINT_ID_PATTERN.test(id) ? store.get(id) : Promise.resolve(undefined);

export function assertEventReadable(
  event: EventRecord | undefined,
  owner: Owner,
  now: Date,
  param = 'eventId',
) {
  if (!event || now.getTime() - Date.parse(event.createdAt) > 30 * 24 * 3600_000) {
    throw new ApiError('event_not_found', {
      param,
      message: 'No event has this id, or it is older than 30 days.',
    });
  }
  if (!isSameOwner(event, owner)) {
    throw new ApiError('event_owner_mismatch', { param, message: otherOwner(event, owner, 'event') });
  }
  return event;
}

export function assertUrlAllowed(url: string, policy: AddressPolicy) {
  const refused = checkWebhookUrl(url, policy);
  if (refused) throw new ApiError('webhook_url_not_allowed', { param: 'url', message: refused });
}

export function presentEndpoint(endpoint: WebhookEndpointRecord, secret?: string) {
  return {
    object: 'webhookEndpoint' as const,
    id: endpoint.id,
    url: endpoint.url,
    enabledEvents: endpoint.enabledEvents,
    description: endpoint.description,
    status: endpoint.status,
    disabledReason: endpoint.disabledReason,
    livemode: endpoint.environment === 'live',
    ...(secret ? { secret } : {}),
    secretRotatedAt: endpoint.secrets.length > 1 ? (endpoint.secrets[0]?.createdAt ?? null) : null,
    previousSecretExpiresAt: endpoint.secrets[1]?.expiresAt ?? null,
    stats: {
      succeeded: endpoint.stats.succeeded,
      failed: endpoint.stats.failed,
      lastSucceededAt: endpoint.stats.lastSucceededAt,
      lastFailedAt: endpoint.stats.lastFailedAt,
      consecutiveFailures: endpoint.stats.consecutiveFailures,
    },
    createdAt: endpoint.createdAt,
    updatedAt: endpoint.updatedAt,
  };
}

export const presentEvent = (event: EventRecord) => ({
  object: 'event' as const,
  id: event.id,
  type: event.type,
  createdAt: event.createdAt,
  livemode: event.livemode,
  data: event.data,
});

export const presentDelivery = (delivery: DeliveryRecord) => ({
  object: 'webhookDelivery' as const,
  id: delivery.id,
  eventId: delivery.eventId,
  eventType: delivery.eventType,
  endpointId: delivery.endpointId,
  status: delivery.status,
  attemptCount: delivery.attemptCount,
  nextAttemptAt: delivery.status === 'pending' ? delivery.nextAttemptAt : null,
  attempts: delivery.attempts.map((attempt) => ({
    attempt: attempt.attempt,
    at: attempt.at,
    statusCode: attempt.statusCode,
    latencyMs: attempt.latencyMs,
    responseBody: attempt.responseBody,
    error: attempt.error,
    manual: attempt.manual,
  })),
  createdAt: delivery.createdAt,
});

export interface EndpointPorts {
  endpoints: WebhookEndpointStore;
  sealer: Pick<SecretSealer, 'seal'>;
}

export interface EndpointInput {
  url: string;
  enabledEvents: string[];
  description?: string | null | undefined;
}

/** Creates an endpoint; its secret is in the answer only. */
export async function createEndpoint(
  ports: EndpointPorts,
  owner: Owner,
  input: EndpointInput,
  now: Date,
  policy: AddressPolicy,
) {
  assertUrlAllowed(input.url, policy);
  const at = toTimestamp(now);
  const secret = newSecret();
  const id = newEndpointId();
  const binding = { accountId: owner.accountId, endpointId: id };
  const endpoint: WebhookEndpointRecord = {
    id,
    accountId: owner.accountId,
    environment: owner.environment,
    url: input.url,
    enabledEvents: [...new Set(input.enabledEvents)],
    description: input.description ?? null,
    status: 'enabled',
    disabledReason: null,
    secrets: [{ sealed: await ports.sealer.seal(secret, binding), createdAt: at, expiresAt: null }],
    stats: {
      succeeded: 0,
      failed: 0,
      lastSucceededAt: null,
      lastFailedAt: null,
      consecutiveFailures: 0,
      failingSince: null,
    },
    createdAt: at,
    updatedAt: at,
  };
  if (!(await ports.endpoints.create(endpoint))) {
    throw new ApiError('webhook_endpoint_limit_reached', {
      param: null,
      message: `This account already has ${MAX_ENDPOINTS} webhook endpoints in the ${owner.environment} environment, the most allowed; delete one first.`,
      details: { limit: MAX_ENDPOINTS },
    });
  }
  return presentEndpoint(endpoint, secret);
}

export interface EndpointChanges {
  url?: string | undefined;
  enabledEvents?: string[] | undefined;
  description?: string | null | undefined;
  status?: 'enabled' | 'disabled' | undefined;
}

export async function updateEndpoint(
  store: Pick<WebhookEndpointStore, 'update'>,
  endpoint: WebhookEndpointRecord,
  changes: EndpointChanges,
  now: Date,
  policy: AddressPolicy,
) {
  if (changes.url !== undefined) assertUrlAllowed(changes.url, policy);
  const fields: Parameters<WebhookEndpointStore['update']>[1] = { updatedAt: toTimestamp(now) };
  if (changes.url !== undefined) fields.url = changes.url;
  if (changes.enabledEvents !== undefined) fields.enabledEvents = [...new Set(changes.enabledEvents)];
  if (changes.description !== undefined) fields.description = changes.description;
  if (changes.status !== undefined) {
    fields.status = changes.status;
    // Enabling again clears why it was disabled.
    fields.disabledReason = changes.status === 'enabled' ? null : 'disabled through the API';
  }
  // Deleted between the read and this write: as if the read had not found it.
  if (!(await store.update(endpoint.id, fields))) throw endpointNotFound();
  return presentEndpoint({ ...endpoint, ...fields } as WebhookEndpointRecord);
}

/** A new secret; the current one keeps signing, as the second `v1`, for 24 hours. */
export async function rotateSecret(ports: EndpointPorts, endpoint: WebhookEndpointRecord, now: Date) {
  const at = toTimestamp(now);
  const secret = newSecret();
  const current = endpoint.secrets[0];
  const secrets = [
    {
      sealed: await ports.sealer.seal(secret, { accountId: endpoint.accountId, endpointId: endpoint.id }),
      createdAt: at,
      expiresAt: null,
    },
    ...(current
      ? [{ ...current, expiresAt: toTimestamp(new Date(now.getTime() + PREVIOUS_SECRET_LIFETIME_MS)) }]
      : []),
  ];
  if (!(await ports.endpoints.update(endpoint.id, { secrets, updatedAt: at }))) throw endpointNotFound();
  return presentEndpoint({ ...endpoint, secrets, updatedAt: at }, secret);
}

export const findEvent = (log: { get(id: string): Promise<EventRecord | undefined> }, id: string) =>
  EVENT_ID_PATTERN.test(id) ? log.get(id) : Promise.resolve(undefined);
