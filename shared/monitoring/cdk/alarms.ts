/**
 * Company monitoring's alarm thresholds, on its jobs (docs/monitoring.md): their runs' figures and
 * their fan-out queue, which its jobs' construct makes in its own nested stack. The service's own
 * are in lib/alarms.ts, and docs/operations.md says what each means and what to do.
 */
import { namedThresholds } from '../../../lib/alarms.ts';

export const MONITORING_ALARM_THRESHOLDS = namedThresholds({
  monitoringDailyParts: {
    value: 1,
    below: true,
    missingDataBreaches: true,
    periodMinutes: 60,
    periods: 30,
    reason:
      'Shards of the daily monitoring check finished per hour (MonitoringPartsFinished, job daily): a run ' +
      'starts at 15:00 UTC and finishes its 32 shards within the day, so 30 hours in a row without one ' +
      'means a run was missed (the schedule, the starter or the queue stopped) or is stuck.',
  },
  monitoringDailyRunSeconds: {
    value: 24 * 3600,
    periodMinutes: 60,
    periods: 1,
    reason:
      "Seconds from the daily check's start to a shard finishing: at 1,000,000 companies and 25 registry " +
      'reads a second a run takes about 22 hours; a shard finishing over 24 hours after its start ran ' +
      'into the next run (raise the registry allowance or look for retries).',
  },
  monitoringWeeklyOverdue: {
    value: 0,
    periodMinutes: 24 * 60,
    periods: 1,
    reason:
      'Summaries of the weekly job (Tuesdays 18:00 UTC) not matched when the daily job checks, at least 12 ' +
      'hours after its start (MonitoringWeeklySummariesOverdue, written by the daily billing message): a ' +
      'summary takes minutes, so one still missing means the weekly run never started or a part failed. ' +
      "A missing-data alarm cannot watch a weekly run itself: its 7-day cadence is CloudWatch's longest window.",
  },
  monitoringWeeklyRunSeconds: {
    value: 6 * 3600,
    periodMinutes: 60,
    periods: 1,
    reason:
      "Seconds from the weekly job's start to a summary matched: a 20,000-item summary is bought once and " +
      'matched in minutes, so six hours means purchases were retried for hours or the queue was blocked.',
  },
  monitoringQueueAgeSeconds: {
    value: 24 * 3600,
    periodMinutes: 60,
    periods: 1,
    reason:
      "Oldest message in the monitoring fan-out queue, in seconds: a run's 33 messages wait their turn " +
      "behind the capped consumers for up to a run's length, so a day means a part is not being run.",
  },
});
