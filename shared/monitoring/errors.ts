/**
 * Company monitoring's error codes (docs/monitoring.md): known to `ApiError` once this module
 * loads, so a module that throws one imports it. Their causes and fixes are error-guide.ts (read
 * by the error reference and the OpenAPI document only).
 */
import { defineErrors, entry } from '../kernel/errors/catalogue.ts';

export const monitoringErrors = defineErrors({
  monitor_not_found: entry('not_found_error', 404, [], 'No monitor has this id.'),
  monitor_owner_mismatch: entry(
    'permission_error',
    403,
    [],
    'The monitor belongs to another account or environment.',
  ),
  monitor_already_exists: entry(
    'conflict_error',
    409,
    [],
    'This account already watches this company or person in this environment.',
  ),
  monitor_limit_reached: entry(
    'invalid_request_error',
    400,
    [],
    'The account has reached its number of monitors in this environment. Delete monitors before adding more.',
  ),
  monitor_import_not_found: entry('not_found_error', 404, [], 'No monitor import has this id.'),
  monitor_import_owner_mismatch: entry(
    'permission_error',
    403,
    [],
    'The monitor import belongs to another account or environment.',
  ),
  monitoring_sandbox_only: entry(
    'invalid_request_error',
    400,
    [],
    'Sandbox monitoring changes can be fired with a test key only; live monitors change when the register does.',
  ),
});

declare module '../kernel/errors/catalogue.ts' {
  interface CapabilityErrorCodes extends Record<keyof typeof monitoringErrors, true> {}
}
