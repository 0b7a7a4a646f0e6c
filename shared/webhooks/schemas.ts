/** Events and webhook endpoints: request and response schemas (docs/webhooks.md). */
import * as z from 'zod/mini';
import {
  codedPattern,
  cursorParam,
  limitParam,
  listEnvelope,
  metaSchema,
  named,
  timestamp,
  withMeta,
} from '../kernel/http/schemas.ts';
import { shakable } from '../kernel/shakable.ts';
import { utcTimestamp } from '../kernel/time-params.ts';
// The URL's own code, which the validation answers with.
import './errors.ts';
import { eventTypes, subscribableEventTypes } from './event-types.ts';

const nullableString = /* @__PURE__ */ shakable(() => z.nullable(z.string()));

export const eventPath = /* @__PURE__ */ shakable(() => z.strictObject({ eventId: z.string() }));
export const endpointPath = /* @__PURE__ */ shakable(() => z.strictObject({ endpointId: z.string() }));
export { noBody } from '../kernel/http/schemas.ts';

export const eventListQuery = /* @__PURE__ */ shakable(() =>
  z.strictObject({
    type: z.optional(z.enum(eventTypes, { error: `type must be one of ${eventTypes.join(', ')}` })),
    limit: limitParam,
    cursor: cursorParam,
  }),
);
export const deliveryListQuery = /* @__PURE__ */ shakable(() =>
  z.strictObject({ limit: limitParam, cursor: cursorParam }),
);
export const endpointListQuery = /* @__PURE__ */ shakable(() =>
  z.strictObject({ limit: limitParam, cursor: cursorParam }),
);

/** What the schema can say of a webhook URL: https, a host, no credentials, no fragment. */
const WEBHOOK_URL =
  /^https:\/\/[A-Za-z0-9.-]+(?::(?:6553[0-5]|655[0-2]\d|65[0-4]\d{2}|6[0-4]\d{3}|[1-5]?\d{1,4}))?(?:[/?][^\s#]*)?$/;

const url = /* @__PURE__ */ shakable(() =>
  codedPattern(
    z
      .string({ error: 'url must be a string' })
      .check(z.maxLength(2048, 'url may be at most 2048 characters'))
      .register(z.globalRegistry, {
        description:
          'Where events are POSTed: an `https` URL of at most 2048 characters, without credentials or a fragment, whose host is a public address (not loopback, private, link-local or the like; checked when saved, else 400 `webhook_url_not_allowed`).',
      }),
    WEBHOOK_URL,
    'webhook_url_not_allowed',
    'must be an https URL with a host name or address, without credentials or a fragment',
  ),
);
const enabledEvents = /* @__PURE__ */ shakable(() =>
  z
    .array(
      z.enum(subscribableEventTypes, {
        error: `each entry must be one of ${subscribableEventTypes.join(', ')}`,
      }),
      {
        error: 'enabledEvents must be a list of event types',
      },
    )
    .check(
      z.minLength(1, 'enabledEvents must name at least one event type, or "*"'),
      z.maxLength(20, 'enabledEvents may have at most 20 entries'),
    ),
);
const description = /* @__PURE__ */ shakable(() =>
  z.nullable(
    z
      .string({ error: 'description must be a string' })
      .check(z.maxLength(200, 'description may be at most 200 characters')),
  ),
);

export const createEndpointBody = /* @__PURE__ */ shakable(() =>
  named(
    'CreateWebhookEndpointRequest',
    z.strictObject({
      url,
      enabledEvents,
      description: z.optional(description),
    }),
  ),
);

export const updateEndpointBody = /* @__PURE__ */ shakable(() =>
  named(
    'UpdateWebhookEndpointRequest',
    z.strictObject({
      url: z.optional(url),
      enabledEvents: z.optional(enabledEvents),
      description: z.optional(description),
      status: z.optional(z.enum(['enabled', 'disabled'], { error: 'status must be enabled or disabled' })),
    }),
  ),
);

export const resendBody = /* @__PURE__ */ shakable(() =>
  named('ResendEventRequest', z.strictObject({ endpointId: z.optional(z.string()) })),
);

export const recoverBody = /* @__PURE__ */ shakable(() =>
  named('RecoverWebhookEndpointRequest', z.strictObject({ since: utcTimestamp('since') })),
);

// ---- responses ------------------------------------------------------------------------------

export const eventSchema = /* @__PURE__ */ shakable(() =>
  named(
    'Event',
    z.object({
      object: z.literal('event'),
      id: z.string().check(z.startsWith('evt_')),
      type: z.string(),
      createdAt: timestamp,
      livemode: z.boolean(),
      data: named(
        'EventData',
        z.record(z.string(), z.unknown()),
        "The event's object: an order, an offline search, a webhook test or a monitoring event (`MonitorEventData`).",
      ),
    }),
  ),
);

export const endpointSchema = /* @__PURE__ */ shakable(() =>
  named(
    'WebhookEndpoint',
    z.object({
      object: z.literal('webhookEndpoint'),
      id: z.string().check(z.regex(/^we_[0-9a-f]{24}$/)),
      url: z.string(),
      enabledEvents: z.array(z.string()),
      description: nullableString,
      status: z.enum(['enabled', 'disabled']),
      disabledReason: nullableString,
      livemode: z.boolean(),
      /** Only in the answers of create and rotate-secret. */
      secret: z.optional(z.string().check(z.startsWith('whsec_'))),
      secretRotatedAt: z.nullable(timestamp),
      previousSecretExpiresAt: z.nullable(timestamp),
      stats: named(
        'WebhookEndpointStats',
        z.object({
          succeeded: z.int(),
          failed: z.int(),
          lastSucceededAt: z.nullable(timestamp),
          lastFailedAt: z.nullable(timestamp),
          consecutiveFailures: z.int(),
        }),
        'How deliveries to the endpoint have gone.',
      ),
      createdAt: timestamp,
      updatedAt: timestamp,
    }),
  ),
);

export const deliverySchema = /* @__PURE__ */ shakable(() =>
  named(
    'WebhookDelivery',
    z.object({
      object: z.literal('webhookDelivery'),
      id: z.string().check(z.startsWith('whd_')),
      eventId: z.string(),
      eventType: z.string(),
      endpointId: z.string(),
      status: z.enum(['pending', 'succeeded', 'failed']),
      attemptCount: z.int(),
      nextAttemptAt: z.nullable(timestamp),
      attempts: z.array(
        named(
          'WebhookDeliveryAttempt',
          z.object({
            attempt: z.int(),
            at: timestamp,
            statusCode: z.nullable(z.int()),
            latencyMs: z.int(),
            responseBody: nullableString,
            error: nullableString,
            manual: z.boolean(),
          }),
        ),
      ),
      createdAt: timestamp,
    }),
  ),
);

export const eventResponseSchema = /* @__PURE__ */ shakable(() =>
  named('EventResponse', withMeta(eventSchema)),
);
export const eventListSchema = /* @__PURE__ */ shakable(() => listEnvelope('EventList', eventSchema));
export const endpointResponseSchema = /* @__PURE__ */ shakable(() =>
  named('WebhookEndpointResponse', withMeta(endpointSchema)),
);
export const endpointListSchema = /* @__PURE__ */ shakable(() =>
  listEnvelope('WebhookEndpointList', endpointSchema),
);
export const deliveryListSchema = /* @__PURE__ */ shakable(() =>
  listEnvelope('WebhookDeliveryList', deliverySchema),
);
export const deletedEndpointSchema = /* @__PURE__ */ shakable(() =>
  named(
    'DeletedWebhookEndpoint',
    z.object({
      object: z.literal('webhookEndpoint'),
      id: z.string(),
      deleted: z.literal(true),
      meta: metaSchema,
    }),
  ),
);
export const recoverySchema = /* @__PURE__ */ shakable(() =>
  named(
    'WebhookRecovery',
    z.object({
      object: z.literal('webhookRecovery'),
      endpointId: z.string(),
      since: timestamp,
      resent: z.int(),
      meta: metaSchema,
    }),
  ),
);
