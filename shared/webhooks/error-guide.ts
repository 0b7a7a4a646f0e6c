/** What causes each of the events' and webhook endpoints' codes and how a client fixes it: none is a code of the spec. */
import type { CapabilityErrorGuide } from '../kernel/errors/guide.ts';
import type { webhookErrors } from './errors.ts';

export const webhookErrorGuide = {
  event_not_found: {
    cause: 'No event has this id, or it is older than the 30 days events are kept.',
    fix: 'Check the id; GET /v1/events lists the events of the last 30 days.',
    addedByService: true,
  },
  event_owner_mismatch: {
    cause: 'The event belongs to another account or environment.',
    fix: 'Read it with a key of the account and environment whose order or search caused it.',
    addedByService: true,
  },
  webhook_endpoint_not_found: {
    cause: 'No webhook endpoint has this id (it may have been deleted).',
    fix: 'Check the id; GET /v1/webhook-endpoints lists your endpoints.',
    addedByService: true,
  },
  webhook_endpoint_owner_mismatch: {
    cause: 'The webhook endpoint belongs to another account or environment.',
    fix: 'Manage it with a key of the account and environment that created it.',
    addedByService: true,
  },
  webhook_url_not_allowed: {
    cause:
      'The URL is not https, or its host is an address deliveries may not reach (loopback, private, link-local, reserved or multicast, in any spelling).',
    fix: 'Give an https URL whose host name resolves to a public address.',
    addedByService: true,
  },
  webhook_endpoint_limit_reached: {
    cause: 'The account already has 16 webhook endpoints in this environment.',
    fix: 'Delete an endpoint you no longer use (one endpoint can take several event types, or *).',
    addedByService: true,
  },
} as const satisfies Record<keyof typeof webhookErrors, CapabilityErrorGuide>;
