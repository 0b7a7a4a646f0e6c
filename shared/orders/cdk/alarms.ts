/**
 * Orders' alarm thresholds, on what only CDK knows (the fulfilment state machine): the service's
 * own are in lib/alarms.ts, and docs/operations.md says what each means and what to do.
 */
import { namedThresholds } from '../../../lib/alarms.ts';

export const ORDERS_ALARM_THRESHOLDS = namedThresholds({
  workflowFailures: {
    value: 0,
    periodMinutes: 5,
    periods: 1,
    reason:
      'Failed fulfilment executions: orders the registry rejects end in the workflow’s own failed ' +
      'outcome (a Succeed state), so an execution that fails is an order stuck in a fault.',
  },
});
