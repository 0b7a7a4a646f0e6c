/**
 * Orders' and offline searches' error codes (spec 7.7, and the service's own for offline searches
 * and the sandbox's simulation header): known to `ApiError` and to the registry-code map (RO01,
 * RO51) once this module loads, so a module that throws or maps one imports it. Their causes and
 * fixes are error-guide.ts (read by the error reference and the OpenAPI document only).
 */
import { defineErrors, entry } from '../kernel/errors/catalogue.ts';

export const orderErrors = defineErrors({
  order_not_found: entry('not_found_error', 404, ['RO51'], 'No such order.'),
  order_owner_mismatch: entry(
    'permission_error',
    403,
    ['RO01'],
    'The order belongs to another account or environment.',
  ),
  order_not_ready: entry('conflict_error', 409, [], 'The order is not ready for download yet.'),
  order_download_expired: entry(
    'invalid_request_error',
    410,
    [],
    'The download link expired 7 days after the order became ready.',
  ),
  offline_search_not_found: entry('not_found_error', 404, [], 'No offline search has this id.'),
  offline_search_limit_reached: entry(
    'rate_limit_error',
    429,
    [],
    'The account has placed its 20 offline searches for today (UTC). Retry after the Retry-After delay.',
  ),
  offline_search_not_ready: entry(
    'conflict_error',
    409,
    [],
    'The offline search has not finished yet: its results can be read once it is ready.',
  ),
  sandbox_simulation_invalid: entry(
    'invalid_request_error',
    400,
    [],
    'X-Sandbox-Simulate takes order_failed, and only with a test key.',
  ),
});

declare module '../kernel/errors/catalogue.ts' {
  interface CapabilityErrorCodes extends Record<keyof typeof orderErrors, true> {}
}
