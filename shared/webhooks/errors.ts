/**
 * Events' and webhook endpoints' error codes (spec 6 leaves them to the service; docs/webhooks.md):
 * known to `ApiError` once this module loads, so a module that throws one imports it. Their
 * causes and fixes are error-guide.ts (read by the error reference and the OpenAPI document only).
 */
import { defineErrors, entry } from '../kernel/errors/catalogue.ts';

export const webhookErrors = defineErrors({
  event_not_found: entry('not_found_error', 404, [], 'No event has this id, or it is older than 30 days.'),
  event_owner_mismatch: entry(
    'permission_error',
    403,
    [],
    'The event belongs to another account or environment.',
  ),
  webhook_endpoint_not_found: entry('not_found_error', 404, [], 'No webhook endpoint has this id.'),
  webhook_endpoint_owner_mismatch: entry(
    'permission_error',
    403,
    [],
    'The webhook endpoint belongs to another account or environment.',
  ),
  webhook_url_not_allowed: entry(
    'invalid_request_error',
    400,
    [],
    'Webhook URLs must be https with a public host name or address (no loopback, private, link-local or reserved addresses).',
  ),
  webhook_endpoint_limit_reached: entry(
    'invalid_request_error',
    400,
    [],
    'An account may have at most 16 webhook endpoints per environment. Delete one before adding another.',
  ),
});

declare module '../kernel/errors/catalogue.ts' {
  interface CapabilityErrorCodes extends Record<keyof typeof webhookErrors, true> {}
}
