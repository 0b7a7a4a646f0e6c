/**
 * Company monitoring's jobs in AWS, on the synthesized templates: each schedule starts
 * StartMonitoringRuns, which may only send to the fan-out queue; the queue feeds RunMonitoring
 * through a capped event source mapping; RunMonitoring may do exactly what a run needs (the main
 * table without a scan, the registry credential, the bus, its own queue); the DLQ and the
 * missed- and late-run alarms (the weekly one read daily) notify the stage's topic.
 */
import { Stack } from 'aws-cdk-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { TABLE_ACTIONS } from '../../lib/constructs/api-function.ts';
import { CONSUMER_CONCURRENCY } from '../../lib/settings.ts';
import { MONITORING_ALARM_THRESHOLDS } from '../../shared/monitoring/cdk/alarms.ts';
import { monitoringConsumerConcurrency } from '../../shared/monitoring/cdk/jobs.ts';
import {
  DAILY_CHECK_SCHEDULE,
  MONITORING_ENV,
  MONITORING_RUN,
  MONITORING_RUN_TIMEOUT_SECONDS,
  MONITORING_START,
  WEEKLY_JOB_SCHEDULE,
} from '../../shared/monitoring/infra.ts';
import { COMPANIES_PER_MESSAGE } from '../../shared/monitoring/jobs.ts';
import { MONITORING_METRICS } from '../../shared/monitoring/metrics.ts';
import { MONITOR_SHARDS } from '../../shared/monitoring/store-port.ts';
import {
  actionsIn,
  actionsOf,
  aliasOfFunction,
  companyMonitoringOf,
  environmentOf,
  fulfilmentOf,
  logicalIdOf,
  type PolicyStatementJson,
  qualifiedNameOfAlias,
  resourcesOf,
  roleOfFunction,
  type Synthesized,
  statementsOfRole,
  synthesize,
  type TemplateResource,
} from './synth.ts';

const naming = (logicalId: string) => (statement: PolicyStatementJson) =>
  JSON.stringify(statement.Resource).includes(logicalId);

const functionNamed = (synth: Synthesized, name: string): [string, TemplateResource] => {
  const matches = Object.entries(resourcesOf(synth.apiTemplate, 'AWS::Lambda::Function')).filter(([, fn]) =>
    String(fn.Properties.Description).startsWith(`${name}: `),
  );
  expect(matches, name).toHaveLength(1);
  return matches[0] as [string, TemplateResource];
};

interface AlarmProperties {
  AlarmName: string;
  AlarmActions: unknown[];
  OKActions: unknown[];
  MetricName?: string;
  Namespace?: string;
  Dimensions?: { Name: string; Value: unknown }[];
  Statistic?: string;
  Period?: number;
  EvaluationPeriods: number;
  DatapointsToAlarm: number;
  Threshold: number;
  ComparisonOperator: string;
  TreatMissingData: string;
}

describe('company monitoring in AWS (dev stage)', () => {
  let synth: Synthesized;
  let api: Synthesized['apiTemplate'];
  let nested: Stack;
  beforeAll(() => {
    synth = synthesize();
    api = synth.apiTemplate;
    nested = Stack.of(companyMonitoringOf(synth.api));
  }, 120_000);

  const idOf = (construct: Parameters<typeof logicalIdOf>[1]) => logicalIdOf(nested, construct);
  const queueId = () => idOf(companyMonitoringOf(synth.api).queue);
  const dlqId = () => idOf(companyMonitoringOf(synth.api).deadLetterQueue);
  const failedEventsId = () => logicalIdOf(synth.api, synth.api.failedEvents.queue);
  const topicId = () => logicalIdOf(synth.api, synth.api.alarmTopic);
  const mainTableId = () => logicalIdOf(synth.data, synth.data.node.findChild('MainTable'));
  const statementsOf = (fn: TemplateResource) => statementsOfRole(api, roleOfFunction(fn));
  const alarms = () =>
    Object.values(resourcesOf(api, 'AWS::CloudWatch::Alarm')).map(
      (alarm) => alarm.Properties as unknown as AlarmProperties,
    );
  const alarmNamed = (suffix: string): AlarmProperties => {
    const found = alarms().filter((alarm) => alarm.AlarmName === `company-register-dev-${suffix}`);
    expect(found, suffix).toHaveLength(1);
    return found[0] as AlarmProperties;
  };

  it('lives in its own nested stack of the API stack', () => {
    expect(nested.nested).toBe(true);
    expect(nested.node.path).toBe(`${synth.api.node.path}/CompanyMonitoring`);
  });

  it('runs the daily check and the weekly job on two schedules that invoke StartMonitoringRuns, failures kept in the failed-events queue', () => {
    const [startId] = functionNamed(synth, MONITORING_START.name);
    // The schedules invoke the starter's live alias (its deployments' traffic shift).
    const startAlias = { Ref: aliasOfFunction(api, startId) };
    const schedules = Object.values(resourcesOf(api, 'AWS::Scheduler::Schedule'));
    expect(
      schedules.map((schedule) => [schedule.Properties.ScheduleExpression, schedule.Properties.Target]),
    ).toEqual(
      [
        [DAILY_CHECK_SCHEDULE, 'daily'],
        [WEEKLY_JOB_SCHEDULE, 'weekly'],
      ].map(([expression, job]) => [
        expression,
        expect.objectContaining({
          Arn: startAlias,
          Input: JSON.stringify({ job }),
          DeadLetterConfig: { Arn: { 'Fn::GetAtt': [failedEventsId(), 'Arn'] } },
          RetryPolicy: { MaximumRetryAttempts: 3, MaximumEventAgeInSeconds: 3600 },
        }),
      ]),
    );
    for (const schedule of schedules) {
      expect(schedule.Properties).toMatchObject({
        ScheduleExpressionTimezone: 'UTC',
        FlexibleTimeWindow: { Mode: 'OFF' },
      });
    }
    // The schedules' role may invoke the starter and dead-letter, nothing else.
    const target = schedules[0]?.Properties.Target as { RoleArn: { 'Fn::GetAtt': [string, string] } };
    const roleId = target.RoleArn['Fn::GetAtt'][0];
    const role = resourcesOf(api, 'AWS::IAM::Role')[roleId];
    expect(JSON.stringify(role?.Properties.AssumeRolePolicyDocument)).toContain('scheduler.amazonaws.com');
    const statements = statementsOfRole(api, roleId);
    expect(statements.map((s) => [actionsOf(s), s.Resource])).toEqual([
      [['lambda:InvokeFunction'], startAlias],
      [['sqs:SendMessage'], { 'Fn::GetAtt': [failedEventsId(), 'Arn'] }],
    ]);
  });

  it('lets StartMonitoringRuns send to the fan-out queue (and its failed invocations to the failed-events queue) only', () => {
    const [, start] = functionNamed(synth, MONITORING_START.name);
    expect(environmentOf(start)[MONITORING_ENV.queueUrl]).toEqual({ Ref: queueId() });
    // Beside what every function has (its log stream, X-Ray).
    const statements = statementsOf(start).filter(
      (s) => !actionsOf(s).every((a) => a.startsWith('xray:') || a.startsWith('logs:')),
    );
    expect(actionsIn(statements)).toEqual(['sqs:SendMessage']);
    expect(
      statements
        .flatMap((s) => (Array.isArray(s.Resource) ? s.Resource : [s.Resource]))
        .map((resource) => JSON.stringify(resource))
        .sort(),
    ).toEqual(
      [queueId(), failedEventsId()].map((id) => JSON.stringify({ 'Fn::GetAtt': [id, 'Arn'] })).sort(),
    );
    expect(start.Properties.ReservedConcurrentExecutions).toBeUndefined();
  });

  it('feeds RunMonitoring from the queue one message at a time, capped at its named concurrency, with a DLQ after five receives', () => {
    const [runId, run] = functionNamed(synth, MONITORING_RUN.name);
    // The queue feeds the run's live alias.
    const runAlias = aliasOfFunction(api, runId);
    const mappings = Object.values(resourcesOf(api, 'AWS::Lambda::EventSourceMapping')).filter(
      (mapping) =>
        JSON.stringify(mapping.Properties.FunctionName) === JSON.stringify(qualifiedNameOfAlias(runAlias)),
    );
    expect(mappings.map((mapping) => mapping.Properties)).toEqual([
      expect.objectContaining({
        EventSourceArn: { 'Fn::GetAtt': [queueId(), 'Arn'] },
        BatchSize: 1,
        FunctionResponseTypes: ['ReportBatchItemFailures'],
        ScalingConfig: { MaximumConcurrency: CONSUMER_CONCURRENCY.monitoringRun },
      }),
    ]);
    expect(run.Properties.Timeout).toBe(MONITORING_RUN_TIMEOUT_SECONDS);
    expect(resourcesOf(api, 'AWS::SQS::Queue')[queueId()]?.Properties).toMatchObject({
      VisibilityTimeout: 6 * MONITORING_RUN_TIMEOUT_SECONDS,
      RedrivePolicy: { maxReceiveCount: 5, deadLetterTargetArn: { 'Fn::GetAtt': [dlqId(), 'Arn'] } },
    });
  });

  it("lets RunMonitoring's page chain run past Lambda's recursive-loop detection, and no other function", () => {
    const [runId, run] = functionNamed(synth, MONITORING_RUN.name);
    expect(run.Properties.RecursiveLoop).toBe('Allow');
    const allowing = Object.entries(resourcesOf(synth.apiTemplate, 'AWS::Lambda::Function'))
      .filter(
        ([, fn]) => fn.Properties.RecursiveLoop !== undefined && fn.Properties.RecursiveLoop !== 'Terminate',
      )
      .map(([id]) => id);
    expect(allowing).toEqual([runId]);
    // The chain at 1,000,000 watched companies (docs/operations.md): 125 messages a shard, far past ~16.
    expect(Math.ceil(1_000_000 / MONITOR_SHARDS / COMPANIES_PER_MESSAGE)).toBe(125);
  });

  it('lets RunMonitoring do exactly what a run needs: the main table (no scan), the registry credential, the bus, its own queue', () => {
    const [, run] = functionNamed(synth, MONITORING_RUN.name);
    const statements = statementsOf(run);
    const dynamo = statements.filter((s) => actionsOf(s).some((a) => a.startsWith('dynamodb:')));
    expect(actionsIn(dynamo)).toEqual([...TABLE_ACTIONS.readWrite].sort());
    expect(dynamo.every(naming(mainTableId()))).toBe(true);
    expect(actionsIn(dynamo)).not.toContain('dynamodb:Scan');
    const sqs = statements.filter((s) => actionsOf(s).some((a) => a.startsWith('sqs:')));
    expect(sqs.every(naming(queueId()))).toBe(true);
    expect(actionsIn(sqs)).toEqual([
      'sqs:ChangeMessageVisibility',
      'sqs:DeleteMessage',
      'sqs:GetQueueAttributes',
      'sqs:GetQueueUrl',
      'sqs:ReceiveMessage',
      'sqs:SendMessage',
    ]);
    const events = statements.filter((s) => actionsOf(s).some((a) => a.startsWith('events:')));
    expect(actionsIn(events)).toEqual(['events:PutEvents']);
    expect(JSON.stringify(events.map((s) => s.Resource))).toContain(
      logicalIdOf(synth.api, fulfilmentOf(synth.api).eventBus),
    );
    const secrets = statements.filter((s) => actionsOf(s).some((a) => a.startsWith('secretsmanager:')));
    expect(JSON.stringify(secrets.map((s) => s.Resource))).toContain('RegistryCredentialSecret');
    expect(JSON.stringify(statements)).not.toMatch(/states:|s3:|ses:|kms:|lambda:/);
    expect(environmentOf(run)[MONITORING_ENV.queueUrl]).toEqual({ Ref: queueId() });
    expect(environmentOf(run).REGISTRY_URL).toBeDefined();
  });

  it('raises dead letters, a message waiting a day, a missed daily or weekly run and late runs to the alarm topic', () => {
    const toTopic = (alarm: AlarmProperties) => {
      expect(alarm.AlarmActions, alarm.AlarmName).toEqual([{ Ref: topicId() }]);
      expect(alarm.OKActions, alarm.AlarmName).toEqual([{ Ref: topicId() }]);
    };
    const deadLetters = alarmNamed('monitoring-dead-letters');
    toTopic(deadLetters);
    expect(JSON.stringify(deadLetters.Dimensions)).toContain(dlqId());
    expect(deadLetters).toMatchObject({ Threshold: 0, ComparisonOperator: 'GreaterThanThreshold' });

    const age = alarmNamed('monitoring-queue-age');
    toTopic(age);
    expect(JSON.stringify(age.Dimensions)).toContain(queueId());
    expect(age.Threshold).toBe(MONITORING_ALARM_THRESHOLDS.monitoringQueueAgeSeconds.value);

    const missed = alarmNamed('monitoring-daily-missed');
    toTopic(missed);
    expect(missed).toMatchObject({
      MetricName: MONITORING_METRICS.monitoringParts.name,
      Namespace: 'CompanyRegister',
      Dimensions: [{ Name: 'job', Value: 'daily' }],
      Statistic: 'Sum',
      Period: 3600,
      EvaluationPeriods: 30,
      DatapointsToAlarm: 30,
      Threshold: 1,
      ComparisonOperator: 'LessThanThreshold',
      TreatMissingData: 'breaching',
    });
    // CloudWatch evaluates at most seven days; hourly periods allow it.
    expect(missed.EvaluationPeriods * (missed.Period ?? 0)).toBeLessThanOrEqual(7 * 24 * 3600);

    // The weekly run, read daily: any summary of the due run still unmatched fires it.
    const weeklyMissed = alarmNamed('monitoring-weekly-missed');
    toTopic(weeklyMissed);
    expect(weeklyMissed).toMatchObject({
      MetricName: MONITORING_METRICS.monitoringWeeklyOverdue.name,
      Namespace: 'CompanyRegister',
      Statistic: 'Maximum',
      Period: 24 * 3600,
      EvaluationPeriods: 1,
      Threshold: 0,
      ComparisonOperator: 'GreaterThanThreshold',
      TreatMissingData: 'notBreaching',
    });
    // Written without dimensions (functions/workers/monitoring/run.ts), so read without.
    expect(weeklyMissed.Dimensions).toBeUndefined();

    for (const [suffix, job, threshold] of [
      ['monitoring-daily-late', 'daily', MONITORING_ALARM_THRESHOLDS.monitoringDailyRunSeconds.value],
      ['monitoring-weekly-late', 'weekly', MONITORING_ALARM_THRESHOLDS.monitoringWeeklyRunSeconds.value],
    ] as const) {
      const late = alarmNamed(suffix);
      toTopic(late);
      expect(late).toMatchObject({
        MetricName: MONITORING_METRICS.monitoringRunAge.name,
        Dimensions: [{ Name: 'job', Value: job }],
        Statistic: 'Maximum',
        Threshold: threshold,
        ComparisonOperator: 'GreaterThanThreshold',
        TreatMissingData: 'notBreaching',
      });
    }
    for (const name of [MONITORING_START.name, MONITORING_RUN.name]) {
      const kebab = name.replace(/([a-z])([A-Z])/g, '$1-$2').toLowerCase();
      toTopic(alarmNamed(`${kebab}-errors`));
      toTopic(alarmNamed(`${kebab}-throttles`));
    }
  });

  it('graphs the runs on the dashboard: subjects checked, events, run duration, parts finished, overdue summaries and dead letters', () => {
    const body = JSON.stringify(
      Object.values(resourcesOf(synth.apiStackTemplate, 'AWS::CloudWatch::Dashboard'))[0]?.Properties
        .DashboardBody,
    );
    for (const metric of [
      'monitoringChecked',
      'monitoringEvents',
      'monitoringRunAge',
      'monitoringParts',
      'monitoringWeeklyOverdue',
    ] as const) {
      expect(body).toContain(MONITORING_METRICS[metric].name);
    }
    expect(body).toContain('Monitoring dead letters');
  });
});

describe('company monitoring on prod', () => {
  it('reserves RunMonitoring a registry share no smaller than its consumer cap, and refuses a smaller one', () => {
    const synth = synthesize({ context: { stage: 'prod' } });
    const [, run] = functionNamed(synth, MONITORING_RUN.name);
    const reserved = run.Properties.ReservedConcurrentExecutions as number;
    expect(reserved).toBeGreaterThanOrEqual(CONSUMER_CONCURRENCY.monitoringRun);
    expect(monitoringConsumerConcurrency(reserved)).toBe(CONSUMER_CONCURRENCY.monitoringRun);
    expect(monitoringConsumerConcurrency(undefined)).toBe(CONSUMER_CONCURRENCY.monitoringRun);
    expect(() => monitoringConsumerConcurrency(CONSUMER_CONCURRENCY.monitoringRun - 1)).toThrow(
      /registry share \(3\) is below its consumer concurrency \(4\)/,
    );
  }, 120_000);
});
