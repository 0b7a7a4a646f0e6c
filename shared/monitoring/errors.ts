/**
 * Company monitoring's error codes (docs/monitoring.md), each with its guide entry: none is a code
 * of the spec. The error reference and the OpenAPI document read them through the capability list
 * (shared/app/capabilities.ts).
 */
import { defineErrors, entry } from '../kernel/errors/catalogue.ts';

export const monitoringErrors = defineErrors({
  monitor_not_found: {
    ...entry('not_found_error', 404, [], 'No monitor has this id.'),
    cause: 'No monitor has this id (it may have been deleted).',
    fix: 'Check the id; GET /v1/monitors lists your monitors.',
    addedByService: true,
  },
  monitor_owner_mismatch: {
    ...entry('permission_error', 403, [], 'The monitor belongs to another account or environment.'),
    cause: 'The monitor was created by another account, or with a key of the other environment.',
    fix: 'Use a key of the account and environment that created the monitor.',
    addedByService: true,
  },
  monitor_already_exists: {
    ...entry(
      'conflict_error',
      409,
      [],
      'This account already watches this company or person in this environment.',
    ),
    cause:
      'A monitor of this account and environment already watches this company or person; details.monitorId names it.',
    fix: 'Change the event types of the existing monitor (PATCH /v1/monitors/{monitorId}) instead of creating another.',
    addedByService: true,
  },
  monitor_limit_reached: {
    ...entry(
      'invalid_request_error',
      400,
      [],
      'The account has reached its number of monitors in this environment. Delete monitors before adding more.',
    ),
    cause:
      'The account already has as many monitors in this environment as its cap allows (100,000 unless agreed otherwise).',
    fix: 'Delete monitors you no longer need, or ask us to raise the cap.',
    addedByService: true,
  },
  monitor_import_not_found: {
    ...entry('not_found_error', 404, [], 'No monitor import has this id.'),
    cause: 'No monitor import has this id (imports are kept 30 days).',
    fix: 'Use the id a commit of POST /v1/monitors/imports answered.',
    addedByService: true,
  },
  monitor_import_owner_mismatch: {
    ...entry('permission_error', 403, [], 'The monitor import belongs to another account or environment.'),
    cause: 'The import was committed by another account, or with a key of the other environment.',
    fix: 'Use a key of the account and environment that committed the import.',
    addedByService: true,
  },
  monitoring_sandbox_only: {
    ...entry(
      'invalid_request_error',
      400,
      [],
      'Sandbox monitoring changes can be fired with a test key only; live monitors change when the register does.',
    ),
    cause: 'A sandbox monitoring change was asked for with a live key.',
    fix: 'Use a test key (sk_test_…): live monitors change only when the register does.',
    addedByService: true,
  },
});

declare module '../kernel/errors/catalogue.ts' {
  interface CapabilityErrorCodes extends Record<keyof typeof monitoringErrors, true> {}
}
