/**
 * Company monitoring's two functions as the alarms read them: the starter stamps each run's
 * messages with the run's start; the consumer writes, per message, its events and the subjects it
 * checked, and for a part that finishes `MonitoringPartsFinished` and the seconds since its run
 * started (the missed- and late-run alarms' figures, shared/monitoring/cdk/jobs.ts).
 */
import type { Context, SQSEvent } from 'aws-lambda';
import { afterEach, describe, expect, it } from 'vitest';
import { createHandler as runHandler } from '../../../functions/workers/monitoring/run.ts';
import { createHandler as startHandler } from '../../../functions/workers/monitoring/start.ts';
import { setMetricSink } from '../../../shared/kernel/metric-line.ts';
import { DAILY_CHECK_SCHEDULE, WEEKLY_JOB_SCHEDULE } from '../../../shared/monitoring/infra.ts';
import { lastWeeklyStart, type RunPorts } from '../../../shared/monitoring/jobs.ts';
import { MONITOR_SHARDS, type MonitoringMessage } from '../../../shared/monitoring/store-port.ts';
import { MONITORED_SUMMARIES } from '../../../shared/monitoring/weekly-job.ts';

const context = {
  functionName: 'test',
  awsRequestId: 'req',
  getRemainingTimeInMillis: () => 60_000,
} as Context;

const metricsOf = (lines: string[]) =>
  lines.map((line) => {
    const parsed = JSON.parse(line) as Record<string, unknown> & {
      _aws: { CloudWatchMetrics: { Metrics: { Name: string; Unit: string }[] }[] };
    };
    const metric = parsed._aws.CloudWatchMetrics[0]?.Metrics[0] as { Name: string; Unit: string };
    return { name: metric.Name, unit: metric.Unit, job: parsed.job, value: parsed[metric.Name] };
  });

afterEach(() => setMetricSink(undefined));

describe('StartMonitoringRuns', () => {
  it('stamps every shard and summary message with the run start, the billing day without', async () => {
    const sent: MonitoringMessage[] = [];
    const now = new Date('2026-11-27T15:00:02.000Z');
    const handler = startHandler({
      queue: { send: async (messages) => void sent.push(...messages) },
      now: () => now,
    });
    const daily = await handler({ job: 'daily' }, context);
    expect(daily).toEqual({ job: 'daily', messages: 2 * MONITOR_SHARDS + 1 });
    const shards = sent.filter((message) => message.job === 'daily');
    expect(shards).toHaveLength(2 * MONITOR_SHARDS);
    for (const message of shards)
      expect(message).toMatchObject({ runId: '2026-11-27', startedAt: '2026-11-27T15:00:02Z' });
    expect(sent.filter((message) => message.job === 'billing')).toEqual([
      { job: 'billing', day: '2026-11-27' },
    ]);

    sent.length = 0;
    await handler({ job: 'weekly' }, context);
    expect(sent.length).toBeGreaterThan(0);
    for (const message of sent)
      expect(message).toMatchObject({ job: 'weekly', startedAt: '2026-11-27T15:00:02Z' });
  });
});

describe('RunMonitoring', () => {
  const finished: string[] = [];
  const ports = (now: Date, next?: string) =>
    ({
      monitors: {
        companies: async () => ({ numbers: [], next }),
        accounts: async () => [],
      },
      runs: {
        finishPart: async (job: string, runId: string, part: string) => {
          finished.push(`${job}/${runId}/${part}`);
          return true;
        },
      },
      queue: { send: async () => {} },
      now: () => now,
    }) as unknown as RunPorts;
  const eventOf = (message: MonitoringMessage): SQSEvent =>
    ({ Records: [{ messageId: 'm1', body: JSON.stringify(message) }] }) as unknown as SQSEvent;

  it('writes the finished part and the seconds since its run started', async () => {
    const lines: string[] = [];
    setMetricSink((line) => lines.push(line));
    const now = new Date('2026-11-28T13:00:00.000Z');
    const handler = runHandler(ports(now));
    const result = await handler(
      eventOf({
        job: 'daily',
        environment: 'live',
        shard: 3,
        runId: '2026-11-27',
        startedAt: '2026-11-27T15:00:00.000Z',
      }),
      context,
    );
    expect(result).toEqual({ batchItemFailures: [] });
    expect(finished).toContain('daily/2026-11-27/live#3');
    expect(metricsOf(lines)).toEqual([
      { name: 'MonitoringEvents', unit: 'Count', job: 'daily', value: 0 },
      { name: 'MonitoringSubjectsChecked', unit: 'Count', job: 'daily', value: 0 },
      { name: 'MonitoringPartsFinished', unit: 'Count', job: 'daily', value: 1 },
      { name: 'MonitoringRunSeconds', unit: 'Seconds', job: 'daily', value: 22 * 3600 },
    ]);
  });

  it('writes no finished part for a page that hands on to the next, and no run age without a start', async () => {
    const lines: string[] = [];
    setMetricSink((line) => lines.push(line));
    const now = new Date('2026-11-28T13:00:00.000Z');
    await runHandler(ports(now, '123456780'))(
      eventOf({
        job: 'daily',
        environment: 'test',
        shard: 0,
        runId: '2026-11-27',
        startedAt: now.toISOString(),
      }),
      context,
    );
    await runHandler(ports(now))(
      eventOf({ job: 'daily', environment: 'test', shard: 1, runId: '2026-11-27' }),
      context,
    );
    expect(metricsOf(lines).map((metric) => metric.name)).toEqual([
      'MonitoringEvents',
      'MonitoringSubjectsChecked',
      'MonitoringEvents',
      'MonitoringSubjectsChecked',
      'MonitoringPartsFinished',
    ]);
  });

  describe('the weekly missed-run figure, written by the daily billing message', () => {
    // 2026-11-24 is a Tuesday: its weekly run (started 18:00 UTC) matches the week of 2026-11-16.
    const weeklyParts = (types: readonly string[]) => types.map((type) => `weekly/2026-11-16/${type}`);
    const billingOn = async (at: string, done: readonly string[]) => {
      const lines: string[] = [];
      setMetricSink((line) => lines.push(line));
      const recorded: string[] = [];
      const now = new Date(at);
      const handler = runHandler({
        monitors: { accounts: async () => [] },
        runs: {
          finishPart: async (job: string, runId: string, part: string) => {
            recorded.push(`${job}/${runId}/${part}`);
            return true;
          },
          isDone: async (job: string, runId: string, part: string) =>
            done.includes(`${job}/${runId}/${part}`),
        },
        queue: { send: async () => {} },
        now: () => now,
      } as unknown as RunPorts);
      const result = await handler(eventOf({ job: 'billing', day: at.slice(0, 10) }), context);
      expect(result).toEqual({ batchItemFailures: [] });
      const overdue = metricsOf(lines).filter((metric) => metric.name === 'MonitoringWeeklySummariesOverdue');
      return { recorded, overdue: overdue.map((metric) => metric.value) };
    };

    it('is the number of summaries of the due run not matched, the day after the run', async () => {
      const missing = MONITORED_SUMMARIES[1] as string;
      const { recorded, overdue } = await billingOn('2026-11-25T15:04:00.000Z', [
        'billing/2026-11-24/usage',
        ...weeklyParts(MONITORED_SUMMARIES.filter((type) => type !== missing)),
      ]);
      // The billing day records itself: the next weekly check knows the daily job ran that day.
      expect(recorded).toEqual(['billing/2026-11-25/usage']);
      expect(overdue).toEqual([1]);
    });

    it('is 0 once every summary was matched, and every summary when the run never started', async () => {
      const all = await billingOn('2026-11-25T15:04:00.000Z', [
        'billing/2026-11-24/usage',
        ...weeklyParts(MONITORED_SUMMARIES),
      ]);
      expect(all.overdue).toEqual([0]);
      const none = await billingOn('2026-11-27T15:04:00.000Z', ['billing/2026-11-24/usage']);
      expect(none.overdue).toEqual([MONITORED_SUMMARIES.length]);
    });

    it('looks at the week before until 12 hours after the run started', async () => {
      // Tuesday 15:00, three hours before this week's run: the previous run (2026-11-17, week of 2026-11-09).
      const before = await billingOn('2026-11-24T15:04:00.000Z', [
        'billing/2026-11-17/usage',
        ...MONITORED_SUMMARIES.map((type) => `weekly/2026-11-09/${type}`),
      ]);
      expect(before.overdue).toEqual([0]);
    });

    it("writes nothing when the daily job did not run on the weekly run's day (a stage deployed since)", async () => {
      const { recorded, overdue } = await billingOn('2026-11-25T15:04:00.000Z', []);
      expect(recorded).toEqual(['billing/2026-11-25/usage']);
      expect(overdue).toEqual([]);
    });

    it('builds the schedules from the named start times (Tuesdays 18:00 and daily 15:00, UTC)', () => {
      expect(WEEKLY_JOB_SCHEDULE).toBe('cron(0 18 ? * TUE *)');
      expect(DAILY_CHECK_SCHEDULE).toBe('cron(0 15 * * ? *)');
    });

    it('finds the latest scheduled start at or before a time', () => {
      const start = (at: string) => lastWeeklyStart(new Date(at)).toISOString();
      expect(start('2026-11-24T18:00:00.000Z')).toBe('2026-11-24T18:00:00.000Z');
      expect(start('2026-11-24T17:59:59.999Z')).toBe('2026-11-17T18:00:00.000Z');
      expect(start('2026-11-23T23:00:00.000Z')).toBe('2026-11-17T18:00:00.000Z');
      expect(start('2026-11-29T23:59:00.000Z')).toBe('2026-11-24T18:00:00.000Z');
      expect(start('2027-01-01T00:00:00.000Z')).toBe('2026-12-29T18:00:00.000Z');
    });
  });
});
