/** The daily reference refresh: its function, schedule, grants and alarm, on the synthesized API stack. */
import type { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { SECRET_READ_ACTION, TABLE_ACTIONS } from '../../lib/constructs/api-function.ts';
import { DEFAULT_REGISTRY_URL } from '../../lib/settings.ts';
import { tableDefinitions } from '../../shared/kernel/infra/tables.ts';
import {
  REFERENCE_REFRESH_ALARM,
  REFERENCE_REFRESH_CRON,
  REFERENCE_REFRESH_DESCRIPTION,
} from '../../shared/reference/cdk/refresh.ts';
import { REFERENCE_REFRESH } from '../../shared/reference/infra.ts';
import {
  actionsIn,
  actionsOf,
  aliasOfFunction,
  environmentOf,
  functionWithDescription,
  logicalIdOf,
  type PolicyStatementJson,
  resourcesOf,
  roleOfFunction,
  type Synthesized,
  statementsOfRole,
  synthesize,
} from './synth.ts';

let synth: Synthesized;
let api: Template;

beforeAll(() => {
  synth = synthesize();
  api = synth.apiTemplate;
}, 120_000);

const refreshFunction = () => functionWithDescription(api, REFERENCE_REFRESH_DESCRIPTION);

describe('the reference refresh', () => {
  it('runs daily at the named time, without EventBridge retrying on top of Lambda', () => {
    const [functionId] = refreshFunction();
    const rules = Object.values(resourcesOf(api, 'AWS::Events::Rule')).filter((rule) =>
      // It invokes the function's live alias.
      JSON.stringify(rule.Properties.Targets).includes(`{"Ref":"${aliasOfFunction(api, functionId)}"}`),
    );
    expect(rules).toHaveLength(1);
    expect(rules[0]?.Properties).toMatchObject({
      ScheduleExpression: `cron(${REFERENCE_REFRESH_CRON.minute} ${REFERENCE_REFRESH_CRON.hour} * * ? *)`,
      State: 'ENABLED',
    });
    expect(JSON.stringify(rules[0]?.Properties.Targets)).toContain('"MaximumRetryAttempts":0');
  });

  it('reads and writes the main table only, and reads the registry credential', () => {
    const [, fn] = refreshFunction();
    const statements: PolicyStatementJson[] = statementsOfRole(api, roleOfFunction(fn));
    const mainTableId = logicalIdOf(synth.data, synth.data.node.findChild('MainTable'));
    const dynamo = statements.filter((s) => actionsOf(s).some((action) => action.startsWith('dynamodb:')));
    expect(actionsIn(dynamo)).toEqual([...TABLE_ACTIONS.readWrite].sort());
    expect(dynamo.every((s) => JSON.stringify(s.Resource).includes(mainTableId))).toBe(true);
    const secrets = statements.filter((s) =>
      actionsOf(s).some((action) => action.startsWith('secretsmanager:')),
    );
    expect(actionsIn(secrets)).toEqual([SECRET_READ_ACTION]);
    expect(JSON.stringify(secrets.map((s) => s.Resource))).toContain('RegistryCredentialSecret');
    expect(environmentOf(fn)).toMatchObject({
      REGISTRY_URL: DEFAULT_REGISTRY_URL,
      [tableDefinitions.main.envVar]: expect.anything(),
    });
    expect(JSON.stringify(statements)).not.toMatch(/states:|s3:|ses:|events:/);
    // Only to keep its failed invocations in the failed-events queue.
    const sqs = statements.filter((s) => actionsOf(s).some((action) => action.startsWith('sqs:')));
    expect(actionsIn(sqs)).toEqual(['sqs:SendMessage']);
    expect(sqs.map((s) => s.Resource)).toEqual([
      { 'Fn::GetAtt': [logicalIdOf(synth.api, synth.api.failedEvents.queue), 'Arn'] },
    ]);
  });

  it(`alarms after ${REFERENCE_REFRESH_ALARM.missedDays} days in a row without a successful refresh, a day without a run counting as one`, () => {
    const alarms = Object.values(resourcesOf(api, 'AWS::CloudWatch::Alarm')).filter((alarm) =>
      JSON.stringify(alarm.Properties.Metrics ?? []).includes(`"${REFERENCE_REFRESH.name}"`),
    );
    expect(alarms).toHaveLength(1);
    const alarm = alarms[0]?.Properties ?? {};
    expect(alarm).toMatchObject({
      ComparisonOperator: 'LessThanThreshold',
      Threshold: 1,
      EvaluationPeriods: REFERENCE_REFRESH_ALARM.missedDays,
      DatapointsToAlarm: REFERENCE_REFRESH_ALARM.missedDays,
      TreatMissingData: 'breaching',
    });
    expect(alarm.AlarmDescription).toContain(REFERENCE_REFRESH_ALARM.reason);
    const metrics = alarm.Metrics as {
      Expression?: string;
      MetricStat?: {
        Metric: { MetricName: string; Dimensions: { Name: string; Value: string }[] };
        Period: number;
        Stat: string;
      };
    }[];
    expect(metrics.find((m) => m.Expression)?.Expression).toBe('FILL(invocations, 0) - FILL(failures, 0)');
    const stats = metrics.flatMap((m) => (m.MetricStat ? [m.MetricStat] : []));
    expect(stats.map((s) => [s.Metric.MetricName, s.Period, s.Stat]).sort()).toEqual([
      ['Failures', 86_400, 'Sum'],
      ['Invocations', 86_400, 'Sum'],
    ]);
    for (const stat of stats) {
      expect(stat.Metric.Dimensions).toContainEqual({ Name: 'function', Value: REFERENCE_REFRESH.name });
    }
  });
});
