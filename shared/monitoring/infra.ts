/** Company monitoring's functions and settings, named once for CDK, the Lambda roots and the local stack. */

export const MONITORING_ENV = {
  /** The fan-out queue: one message per shard of the daily check, per weekly summary, per billing day. */
  queueUrl: 'MONITORING_QUEUE_URL',
} as const;

/** On the schedules: turns a run into its messages (EventBridge Scheduler → this function → SQS). */
export const MONITORING_START = { name: 'StartMonitoringRuns', handler: 'workers/monitoring/start' } as const;
/** Consumes the fan-out queue: checks a shard, matches a weekly summary, bills a day. */
export const MONITORING_RUN = { name: 'RunMonitoring', handler: 'workers/monitoring/run' } as const;

/** A shard's check: at most 62,500 companies of 1,000,000 at 25 registry calls a second is far beyond 15 minutes, so a message checks a page and sends the next (see docs/decisions/0069-monitoring-jobs-and-capacity.md). */
export const MONITORING_RUN_TIMEOUT_SECONDS = 900;

/** The daily check's hour (UTC): 15:00, which is 01:00–02:00 in eastern Australia, outside business hours. */
export const DAILY_CHECK_HOUR = 15;
/** The weekly job's start (UTC): Tuesdays (day 2 of `getUTCDay`) 18:00, once the registry has published the week's summaries. */
export const WEEKLY_JOB_START = { weekday: 2, hour: 18 } as const;

const CRON_DAYS = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'] as const;

export const DAILY_CHECK_SCHEDULE = `cron(0 ${DAILY_CHECK_HOUR} * * ? *)`;
export const WEEKLY_JOB_SCHEDULE = `cron(0 ${WEEKLY_JOB_START.hour} ? * ${CRON_DAYS[WEEKLY_JOB_START.weekday]} *)`;
