/**
 * Reference data's alarm thresholds, on what only CDK knows (the daily refresh's function): the
 * service's own are in lib/alarms.ts, and docs/operations.md says what each means and what to do.
 */
import { namedThresholds } from '../../../lib/alarms.ts';

export const REFERENCE_ALARM_THRESHOLDS = namedThresholds({
  referenceRefreshes: {
    value: 1,
    below: true,
    missingDataBreaches: true,
    periodMinutes: 24 * 60,
    periods: 2,
    reason:
      'One missed day is usually a registry maintenance window or a passing fault, and the routes keep ' +
      'serving the last good copy; two in a row means the registry changed its answer (refused as ' +
      'malformed or shrunken), the credential or the function broke, or the schedule stopped running.',
  },
});
