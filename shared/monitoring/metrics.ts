/** Company monitoring's metrics, written as metric lines by its worker (functions/workers/monitoring/run.ts) and watched by its alarms. */
import type { MetricSpec } from '../kernel/metric-line.ts';

export const MONITORING_METRICS = {
  /** Parts of a run finished (a shard of the daily check, a weekly summary), by job. */
  monitoringParts: { name: 'MonitoringPartsFinished', dimensions: ['job'] },
  /** Events emitted, by job. */
  monitoringEvents: { name: 'MonitoringEvents', dimensions: ['job'] },
  /** Distinct companies checked (daily) or summary items matched (weekly), by job. */
  monitoringChecked: { name: 'MonitoringSubjectsChecked', dimensions: ['job'] },
  /** Seconds from a run's start (its schedule) to one of its parts finishing, by job. */
  monitoringRunAge: { name: 'MonitoringRunSeconds', dimensions: ['job'], unit: 'Seconds' },
  /** Written daily: summaries of the weekly run due by then that were not matched. */
  monitoringWeeklyOverdue: { name: 'MonitoringWeeklySummariesOverdue', dimensions: [] },
} as const satisfies Record<string, MetricSpec>;
