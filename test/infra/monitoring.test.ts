/**
 * Alerting and the dashboard: every alarm of every template notifies the stage's topic and takes
 * its threshold from a named constant with its reason; the figures the issue lists are each
 * watched (every function, every route's latency, the queues, the workflow, the registry, the
 * webhooks, the money at risk); one topic and one dashboard per stage.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Stack } from 'aws-cdk-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { ALARM_THRESHOLDS, capabilityThresholdName } from '../../lib/alarms.ts';
import { capabilityConstructs } from '../../lib/capability-constructs.ts';
import { KEY_AUTHORIZER } from '../../lib/constructs/key-authorizer.ts';
import { latencyGroups, MAX_ALARM_METRICS } from '../../lib/monitoring-stack.ts';
import { registryAccountShare, registryShare } from '../../lib/registry-capacity.ts';
import { PROJECT_ROOT, ROUTE_AREAS, type RouteArea } from '../../lib/routes.ts';
import { STAGE_SETTINGS } from '../../lib/stages.ts';
import { capabilityList } from '../../shared/app/capabilities.ts';
import { routeList } from '../../shared/app/routes.ts';
import type { AlarmThreshold } from '../../shared/kernel/capability.ts';
import type { GrantedRoute } from '../../shared/kernel/http/route.ts';
import { SERVICE_METRICS } from '../../shared/kernel/metric-line.ts';
import { workflowTasks } from '../../shared/orders/infra.ts';
import { REFERENCE_REFRESH } from '../../shared/reference/infra.ts';
import { WEBHOOK_METRICS } from '../../shared/webhooks/metrics.ts';
import {
  companyMonitoringOf,
  fulfilmentOf,
  logicalIdOf,
  resourcesOf,
  type Synthesized,
  synthesize,
  type TemplateResource,
  webhooksOf,
} from './synth.ts';

interface AlarmJson {
  readonly AlarmName: string;
  readonly AlarmDescription: string;
  readonly AlarmActions?: unknown[];
  readonly OKActions?: unknown[];
  readonly Threshold: number;
  readonly EvaluationPeriods: number;
  readonly DatapointsToAlarm?: number;
  readonly ComparisonOperator: string;
  readonly MetricName?: string;
  readonly Namespace?: string;
  readonly Dimensions?: { Name: string; Value: unknown }[];
  readonly Metrics?: {
    Id: string;
    Expression?: string;
    MetricStat?: {
      Metric: { MetricName: string; Namespace: string; Dimensions?: { Name: string; Value: unknown }[] };
    };
  }[];
}

const alarmsOf = (synth: Synthesized): AlarmJson[] =>
  Object.values(resourcesOf(synth.apiTemplate, 'AWS::CloudWatch::Alarm')).map(
    (alarm) => alarm.Properties as unknown as AlarmJson,
  );

/** The capabilities' alarms' thresholds (their capability modules'), each named by its alarm's id in camel case. */
const capabilityModuleThresholds: [string, AlarmThreshold][] = capabilityList.flatMap((capability) =>
  Object.entries(capability.alarms ?? {}).map(([id, alarm]): [string, AlarmThreshold] => [
    capabilityThresholdName(id),
    alarm.threshold,
  ]),
);

/** Every threshold by name: the service's (lib/alarms.ts), the capabilities' constructs' (their cdk/alarms.ts) and modules'. */
const thresholdList: [string, AlarmThreshold][] = [
  ...Object.entries(ALARM_THRESHOLDS),
  ...capabilityConstructs.flatMap((constructs) => Object.entries(constructs.alarmThresholds ?? {})),
  ...capabilityModuleThresholds,
];
const thresholds: Partial<Record<string, AlarmThreshold>> = Object.fromEntries(thresholdList);

const thresholdNameOf = (alarm: AlarmJson): string | undefined =>
  /Threshold (\w+) \([<>] [\d.]+\): /.exec(alarm.AlarmDescription)?.[1];

const metricNamesOf = (alarm: AlarmJson): string[] => [
  ...(alarm.MetricName ? [alarm.MetricName] : []),
  ...(alarm.Metrics ?? []).flatMap((m) => (m.MetricStat ? [m.MetricStat.Metric.MetricName] : [])),
];

const dimensionOf = (dimensions: { Name: string; Value: unknown }[] | undefined, name: string) =>
  dimensions?.find((dimension) => dimension.Name === name)?.Value;

describe('alarms and dashboard (dev, -c alarmEmail)', () => {
  let synth: Synthesized;
  let alarms: AlarmJson[];
  let topicId: string;
  beforeAll(() => {
    synth = synthesize({ context: { alarmEmail: 'oncall@company-register.example.com' } });
    alarms = alarmsOf(synth);
    topicId = logicalIdOf(synth.api, synth.api.alarmTopic);
  }, 120_000);

  it('has one topic, refusing publishers without TLS, with the -c alarmEmail subscription', () => {
    synth.apiTemplate.resourceCountIs('AWS::SNS::Topic', 1);
    synth.apiTemplate.hasResourceProperties('AWS::SNS::Topic', { TopicName: 'company-register-dev-alarms' });
    expect(JSON.stringify(resourcesOf(synth.apiTemplate, 'AWS::SNS::TopicPolicy'))).toContain(
      '"aws:SecureTransport":"false"',
    );
    const subscriptions = Object.values(resourcesOf(synth.apiTemplate, 'AWS::SNS::Subscription'));
    expect(
      subscriptions.map((s) => [s.Properties.Protocol, s.Properties.Endpoint, s.Properties.TopicArn]),
    ).toEqual([['email', 'oncall@company-register.example.com', { Ref: topicId }]]);
  });

  it('gives every alarm of every template the topic as its alarm and OK action', () => {
    expect(alarms.length).toBeGreaterThan(routeList.length * 2);
    for (const alarm of alarms) {
      expect(alarm.AlarmActions, alarm.AlarmName).toEqual([{ Ref: topicId }]);
      expect(alarm.OKActions, alarm.AlarmName).toEqual([{ Ref: topicId }]);
    }
  });

  it('takes every threshold from a named constant, which states its reason', () => {
    for (const alarm of alarms) {
      const name = thresholdNameOf(alarm);
      expect(name, alarm.AlarmName).toBeDefined();
      const threshold = thresholds[name as string] as AlarmThreshold;
      expect(threshold, `${alarm.AlarmName}: ${name}`).toBeDefined();
      expect(alarm.AlarmDescription).toContain(threshold.reason);
      expect([alarm.Threshold, alarm.EvaluationPeriods, alarm.DatapointsToAlarm]).toEqual([
        threshold.value,
        threshold.periods,
        threshold.periods,
      ]);
      const below = 'below' in threshold && threshold.below;
      expect(alarm.ComparisonOperator).toBe(below ? 'LessThanThreshold' : 'GreaterThanThreshold');
    }
    // One threshold to a name, so that a description names one.
    expect(Object.keys(thresholds)).toHaveLength(thresholdList.length);
    for (const [name, threshold] of thresholdList) expect(threshold.reason.length, name).toBeGreaterThan(80);
  });

  it('names every alarm after the stage, each name once', () => {
    const names = alarms.map((alarm) => alarm.AlarmName);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(name).toMatch(/^company-register-dev-[a-z0-9-]+$/);
  });

  it('watches the errors and the throttles of every function', () => {
    const functionIds = Object.keys(resourcesOf(synth.apiTemplate, 'AWS::Lambda::Function'));
    const watched = (metric: string) =>
      alarms
        .filter((alarm) => alarm.Namespace === 'AWS/Lambda' && alarm.MetricName === metric)
        .map((alarm) => JSON.stringify(dimensionOf(alarm.Dimensions, 'FunctionName')))
        .sort();
    const expected = functionIds.map((id) => JSON.stringify({ Ref: id })).sort();
    expect(watched('Errors')).toEqual(expected);
    expect(watched('Throttles')).toEqual(expected);
  });

  it('watches the p99 latency of every route in its area, in alarms of at most ten metrics', () => {
    const latencyAlarms = alarms.filter((alarm) => metricNamesOf(alarm).includes('Latency'));
    const watchedRoutes = latencyAlarms.flatMap((alarm) => {
      expect(alarm.Metrics?.filter((m) => m.MetricStat).length).toBeLessThanOrEqual(MAX_ALARM_METRICS);
      return (alarm.Metrics ?? []).flatMap((m) =>
        m.MetricStat
          ? [
              `${String(dimensionOf(m.MetricStat.Metric.Dimensions, 'Method'))} ${String(
                dimensionOf(m.MetricStat.Metric.Dimensions, 'Resource'),
              )}`,
            ]
          : [],
      );
    });
    expect(watchedRoutes.sort()).toEqual(routeList.map((route) => `${route.method} ${route.path}`).sort());
    const areaAlarmCount = ROUTE_AREAS.flatMap((area) => latencyGroups(area)).length;
    expect(latencyAlarms).toHaveLength(areaAlarmCount);
  });

  it('splits an area into latency groups by class and at most ten routes each', () => {
    const route = (name: string, usesRegistry: boolean) =>
      ({ name, method: 'GET', path: `/v1/${name}`, usesRegistry }) as unknown as GrantedRoute;
    const big: RouteArea = {
      name: 'Big',
      routes: [...Array.from({ length: 12 }, (_, i) => route(`Local${i}`, false)), route('Registry0', true)],
    };
    expect(latencyGroups(big).map((group) => [group.id, group.threshold, group.routes.length])).toEqual([
      ['BigLatencyP99', 'localRouteLatencyP99', 10],
      ['BigLatencyP99Part2', 'localRouteLatencyP99', 2],
      ['BigRegistryLatencyP99', 'registryRouteLatencyP99', 1],
    ]);
  });

  const alarmOn = (metricName: string): AlarmJson[] =>
    alarms.filter((alarm) => metricNamesOf(alarm).includes(metricName));

  it('watches the API 5xx share, the workflow, the queues and their dead letters', () => {
    expect(alarmOn('5XXError').map(thresholdNameOf)).toEqual(['apiServerErrorRate']);
    expect(alarmOn('5XXError')[0]).toMatchObject({
      Namespace: 'AWS/ApiGateway',
      Dimensions: expect.arrayContaining([
        { Name: 'ApiName', Value: 'company-register-dev' },
        { Name: 'Stage', Value: 'dev' },
      ]),
    });
    expect(alarmOn('ExecutionsFailed').map(thresholdNameOf)).toEqual(['workflowFailures']);
    // The state machine's ARN, built from its name (shared/orders/cdk/fulfilment.ts says why).
    const stateMachine = resourcesOf(synth.apiTemplate, 'AWS::StepFunctions::StateMachine')[
      logicalIdOf(synth.api, fulfilmentOf(synth.api).stateMachine)
    ];
    expect(stateMachine?.Properties.StateMachineName).toBe('company-register-dev-fulfilment');
    expect(JSON.stringify(alarmOn('ExecutionsFailed')[0]?.Dimensions)).toContain(
      `":stateMachine:${String(stateMachine?.Properties.StateMachineName)}"`,
    );
    const onQueue = (metric: string) =>
      alarmOn(metric)
        .map((alarm) => JSON.stringify(alarm.Dimensions))
        .sort();
    const queueIds = (queues: readonly { node: unknown }[]) =>
      queues.map((queue) => logicalIdOf(Stack.of(queue as never), queue as never));
    const ageOn = onQueue('ApproximateAgeOfOldestMessage');
    const dlqOn = onQueue('ApproximateNumberOfMessagesVisible');
    expect(ageOn).toHaveLength(3);
    expect(dlqOn).toHaveLength(4);
    for (const [i, id] of queueIds([
      fulfilmentOf(synth.api).queue,
      webhooksOf(synth.api).queue,
      companyMonitoringOf(synth.api).queue,
    ]).entries())
      expect(
        ageOn.some((dimensions) => dimensions.includes(`"${id}"`)),
        `queue ${i}`,
      ).toBe(true);
    for (const [i, id] of queueIds([
      fulfilmentOf(synth.api).deadLetterQueue,
      webhooksOf(synth.api).deadLetterQueue,
      companyMonitoringOf(synth.api).deadLetterQueue,
      synth.api.failedEvents.queue,
    ]).entries())
      expect(
        dlqOn.some((dimensions) => dimensions.includes(`"${id}"`)),
        `DLQ ${i}`,
      ).toBe(true);
  });

  it('watches the registry and webhook failure shares and the money at risk, from the metrics the code writes', () => {
    const registry = alarmOn(SERVICE_METRICS.registryCalls.name);
    expect(registry.map(thresholdNameOf)).toEqual(['registryErrorRate']);
    const expression = registry[0]?.Metrics?.find((m) => m.Expression)?.Expression;
    expect(expression).toBe(
      'IF((FILL(ok, 0) + FILL(rejected, 0) + FILL(maintenance, 0) + FILL(failed, 0)) >= 10, ' +
        '(FILL(failed, 0)) / (FILL(ok, 0) + FILL(rejected, 0) + FILL(maintenance, 0) + FILL(failed, 0)), 0)',
    );
    expect(registry[0]?.Metrics?.flatMap((m) => (m.MetricStat ? [m.MetricStat.Metric] : []))).toContainEqual({
      MetricName: 'RegistryCalls',
      Namespace: 'CompanyRegister',
      Dimensions: [{ Name: 'outcome', Value: 'failed' }],
    });
    expect(alarmOn(WEBHOOK_METRICS.webhookAttempts.name).map(thresholdNameOf)).toEqual([
      'webhookFailureRate',
    ]);
    // Declared by the webhooks' capability module (its `failureRate`), the same metric math.
    expect(
      alarmOn(WEBHOOK_METRICS.webhookAttempts.name)[0]?.Metrics?.find((m) => m.Expression)?.Expression,
    ).toBe(
      'IF((FILL(succeeded, 0) + FILL(failed, 0)) >= 20, (FILL(failed, 0)) / (FILL(succeeded, 0) + FILL(failed, 0)), 0)',
    );
    expect(alarmOn(SERVICE_METRICS.unsettledPurchases.name).map(thresholdNameOf)).toEqual([
      'unsettledPurchases',
    ]);
    expect(alarmOn(SERVICE_METRICS.unsettledPurchases.name)[0]).toMatchObject({
      Namespace: 'CompanyRegister',
      Threshold: 0,
    });
  });

  it('has one dashboard per stage showing the figures the alarms watch, for every function', () => {
    const dashboards = Object.values(resourcesOf(synth.apiTemplate, 'AWS::CloudWatch::Dashboard'));
    expect(dashboards).toHaveLength(1);
    const dashboard = dashboards[0] as TemplateResource;
    expect(dashboard.Properties.DashboardName).toBe('company-register-dev');
    const body = JSON.stringify(dashboard.Properties.DashboardBody);
    for (const figure of [
      '5XXError',
      'Latency',
      'ExecutionsFailed',
      'ApproximateAgeOfOldestMessage',
      'ApproximateNumberOfMessagesVisible',
      'RegistryCalls',
      'WebhookAttempts',
      'UnsettledPurchasesOverAnHour',
      'DependencyLatency',
      'DependencyErrors',
    ])
      expect(body, figure).toContain(figure);
    const functionNames = [
      ...routeList.map((route) => route.name),
      ...fulfilmentOf(synth.api).functions.keys(),
      ...webhooksOf(synth.api).functions.keys(),
      REFERENCE_REFRESH.name,
      KEY_AUTHORIZER.name,
      ...companyMonitoringOf(synth.api).functions.keys(),
    ];
    expect(functionNames).toHaveLength(
      Object.keys(resourcesOf(synth.apiTemplate, 'AWS::Lambda::Function')).length,
    );
    for (const name of functionNames) {
      expect(body).toContain(`${name} errors`);
      expect(body).toContain(`${name} throttles`);
    }
  });
});

describe('on the committed prod settings', () => {
  let synth: Synthesized;
  beforeAll(() => {
    synth = synthesize({ context: { stage: 'prod' } });
  }, 120_000);

  it('has the topic, the dashboard and the alarms, and the committed alarmEmail subscribed', () => {
    synth.apiTemplate.resourceCountIs('AWS::SNS::Topic', 1);
    synth.apiTemplate.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'email',
      Endpoint: STAGE_SETTINGS.prod?.alarmEmail,
    });
    synth.apiTemplate.resourceCountIs('AWS::SNS::Subscription', 1);
    synth.apiTemplate.hasResourceProperties('AWS::CloudWatch::Dashboard', {
      DashboardName: 'company-register-prod',
    });
    const alarms = alarmsOf(synth);
    expect(alarms.length).toBeGreaterThan(routeList.length * 2);
    for (const alarm of alarms) expect(alarm.AlarmName).toMatch(/^company-register-prod-/);
    // Pinned to the committed account and region (a deploy with other credentials stops at once).
    expect([synth.api.account, synth.data.account]).toEqual([
      STAGE_SETTINGS.prod?.account,
      STAGE_SETTINGS.prod?.account,
    ]);
    expect([synth.api.region, synth.data.region]).toEqual([
      STAGE_SETTINGS.prod?.region,
      STAGE_SETTINGS.prod?.region,
    ]);
  });

  it('reserves the registry capacity in equal shares for the functions that call the registry, and nothing for the others', () => {
    const functions = Object.values(resourcesOf(synth.apiTemplate, 'AWS::Lambda::Function'));
    const callers = functions.filter((fn) =>
      Object.hasOwn((fn.Properties.Environment as { Variables: object }).Variables, 'REGISTRY_URL'),
    );
    const share = registryShare(STAGE_SETTINGS.prod?.registryConcurrency, {
      routes: routeList.filter((route) => route.usesRegistry).length,
      workflowTasks: workflowTasks.filter((task) => task.needs.includes('registry')).length,
      scheduled: 3,
    });
    // The registry routes, five workflow tasks, the sweeper, the reference refresh and RunMonitoring.
    expect(callers).toHaveLength(routeList.filter((route) => route.usesRegistry).length + 8);
    expect(share).toBe(Math.floor((STAGE_SETTINGS.prod?.registryConcurrency ?? 0) / callers.length));
    for (const fn of callers)
      expect(fn.Properties.ReservedConcurrentExecutions, String(fn.Properties.Description)).toBe(share);
    for (const fn of functions.filter((f) => !callers.includes(f)))
      expect(fn.Properties.ReservedConcurrentExecutions, String(fn.Properties.Description)).toBeUndefined();
  });
});

describe('event delivery that cannot be lost silently (dev)', () => {
  let synth: Synthesized;
  let failedEventsArn: unknown;
  beforeAll(() => {
    synth = synthesize();
    failedEventsArn = { 'Fn::GetAtt': [logicalIdOf(synth.api, synth.api.failedEvents.queue), 'Arn'] };
  }, 120_000);

  it('gives every EventBridge rule target the failed-events queue as its dead-letter queue', () => {
    const rules = Object.values(resourcesOf(synth.apiTemplate, 'AWS::Events::Rule'));
    const targets = rules.flatMap((rule) => rule.Properties.Targets as { DeadLetterConfig?: unknown }[]);
    // The sweep, webhook retry and reference refresh schedules, and the webhook forwarding.
    expect(targets).toHaveLength(4);
    for (const target of targets) expect(target.DeadLetterConfig).toEqual({ Arn: failedEventsArn });
    // EventBridge may send to it, for these rules only.
    const policy = JSON.stringify(resourcesOf(synth.apiTemplate, 'AWS::SQS::QueuePolicy'));
    expect(policy).toContain('"Service":"events.amazonaws.com"');
  });

  it('sends the failed asynchronous invocations of every scheduled function to the failed-events queue', () => {
    const rules = Object.values(resourcesOf(synth.apiTemplate, 'AWS::Events::Rule'));
    const schedules = Object.values(resourcesOf(synth.apiTemplate, 'AWS::Scheduler::Schedule'));
    const aliases = resourcesOf(synth.apiTemplate, 'AWS::Lambda::Alias');
    // The schedules invoke live aliases; the configuration is the alias's (its function and qualifier).
    const scheduledAliases = [
      ...rules.flatMap((rule) => rule.Properties.Targets as { Arn: { Ref?: string } }[]),
      // Company monitoring's two schedules both start StartMonitoringRuns.
      ...schedules.map((schedule) => schedule.Properties.Target as { Arn: { Ref?: string } }).slice(0, 1),
    ].flatMap((target) => (target.Arn.Ref && target.Arn.Ref in aliases ? [aliases[target.Arn.Ref]] : []));
    expect(schedules).toHaveLength(2);
    expect(scheduledAliases).toHaveLength(4);
    const configs = Object.values(resourcesOf(synth.apiTemplate, 'AWS::Lambda::EventInvokeConfig'));
    const key = (target: { FunctionName: unknown; Qualifier: unknown }) => JSON.stringify(target);
    // The qualifier is the alias's name, read from the alias's ARN.
    const aliasIdOf = (qualifier: unknown) =>
      Object.keys(aliases).find((id) => JSON.stringify(qualifier).includes(`{"Ref":"${id}"}`));
    expect(
      configs
        .map((config) =>
          key({
            FunctionName: config.Properties.FunctionName,
            Qualifier: aliases[aliasIdOf(config.Properties.Qualifier) as string]?.Properties.Name,
          }),
        )
        .sort(),
    ).toEqual(
      scheduledAliases
        .map((alias) =>
          key({ FunctionName: alias?.Properties.FunctionName, Qualifier: alias?.Properties.Name }),
        )
        .sort(),
    );
    for (const config of configs)
      expect(config.Properties.DestinationConfig).toEqual({ OnFailure: { Destination: failedEventsArn } });
  });

  it('raises an alarm on the first failed event, and reserves no concurrency on a stage without registryConcurrency', () => {
    const onQueue = alarmsOf(synth).filter((alarm) =>
      JSON.stringify(alarm.Dimensions ?? []).includes(logicalIdOf(synth.api, synth.api.failedEvents.queue)),
    );
    expect(onQueue.map(thresholdNameOf)).toEqual(['deadLetters']);
    const reserved = Object.values(resourcesOf(synth.apiTemplate, 'AWS::Lambda::Function')).filter(
      (fn) => fn.Properties.ReservedConcurrentExecutions !== undefined,
    );
    expect(reserved).toEqual([]);
  });
});

describe('registry capacity', () => {
  it('splits the capacity equally and refuses one too small to give each caller one', () => {
    expect(registryShare(160, { routes: 10, workflowTasks: 5, scheduled: 1 })).toBe(10);
    expect(registryShare(undefined, { routes: 10, workflowTasks: 5, scheduled: 1 })).toBeUndefined();
    expect(() => registryShare(15, { routes: 10, workflowTasks: 5, scheduled: 1 })).toThrow(
      /setting registryConcurrency \(15\) is below the 16 functions that call the registry/,
    );
  });

  it("gives one account at most half a route's share, always less than the share, and refuses a share of 1", () => {
    expect(registryAccountShare(undefined)).toBeUndefined();
    for (const share of [2, 3, 5, 10, 11]) {
      const perAccount = registryAccountShare(share) as number;
      expect(perAccount, String(share)).toBeGreaterThanOrEqual(1);
      expect(perAccount, String(share)).toBeLessThan(share);
      // What one account may hold, the others still have at least as much of.
      expect(share - perAccount, String(share)).toBeGreaterThanOrEqual(perAccount);
    }
    expect(registryAccountShare(5)).toBe(2);
    expect(() => registryAccountShare(1)).toThrow(/one account could take a whole route/);
  });
});

describe('the runbook', () => {
  it("says what every alarm threshold means and what to do (docs/operations.md, or a capability's own page)", () => {
    const runbook = readFileSync(join(PROJECT_ROOT, 'docs', 'operations.md'), 'utf8');
    const alarmRows = runbook.slice(
      runbook.indexOf('## Alarms'),
      runbook.indexOf('## Reading and redriving'),
    );
    const inRunbook = [
      ...Object.keys(ALARM_THRESHOLDS),
      ...capabilityConstructs.flatMap((constructs) => Object.keys(constructs.alarmThresholds ?? {})),
    ];
    for (const name of inRunbook) expect(alarmRows, name).toContain(`| \`${name}\``);
    // A capability module's alarm: in the runbook, or on the capability's own page (the scaffold's).
    for (const capability of capabilityList) {
      const page = join(PROJECT_ROOT, 'shared', capability.name, 'docs.md');
      for (const id of Object.keys(capability.alarms ?? {})) {
        if (existsSync(page)) expect(readFileSync(page, 'utf8'), id).toContain(`\`${id}\``);
        else expect(alarmRows, id).toContain(`| \`${capabilityThresholdName(id)}\``);
      }
    }
  });
});
