/** What causes each of company monitoring's codes and how a client fixes it: none is a code of the spec. */
import type { CapabilityErrorGuide } from '../kernel/errors/guide.ts';
import type { monitoringErrors } from './errors.ts';

export const monitoringErrorGuide = {
  monitor_not_found: {
    cause: 'No monitor has this id (it may have been deleted).',
    fix: 'Check the id; GET /v1/monitors lists your monitors.',
    addedByService: true,
  },
  monitor_owner_mismatch: {
    cause: 'The monitor was created by another account, or with a key of the other environment.',
    fix: 'Use a key of the account and environment that created the monitor.',
    addedByService: true,
  },
  monitor_already_exists: {
    cause:
      'A monitor of this account and environment already watches this company or person; details.monitorId names it.',
    fix: 'Change the event types of the existing monitor (PATCH /v1/monitors/{monitorId}) instead of creating another.',
    addedByService: true,
  },
  monitor_limit_reached: {
    cause:
      'The account already has as many monitors in this environment as its cap allows (100,000 unless agreed otherwise).',
    fix: 'Delete monitors you no longer need, or ask us to raise the cap.',
    addedByService: true,
  },
  monitor_import_not_found: {
    cause: 'No monitor import has this id (imports are kept 30 days).',
    fix: 'Use the id a commit of POST /v1/monitors/imports answered.',
    addedByService: true,
  },
  monitor_import_owner_mismatch: {
    cause: 'The import was committed by another account, or with a key of the other environment.',
    fix: 'Use a key of the account and environment that committed the import.',
    addedByService: true,
  },
  monitoring_sandbox_only: {
    cause: 'A sandbox monitoring change was asked for with a live key.',
    fix: 'Use a test key (sk_test_…): live monitors change only when the register does.',
    addedByService: true,
  },
} as const satisfies Record<keyof typeof monitoringErrors, CapabilityErrorGuide>;
