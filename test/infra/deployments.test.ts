/**
 * Safe deployments, on the synthesized templates: every invoker of every function (the gateway's
 * methods and authorizer, the SQS event sources, the workflow's tasks, the schedules) calls the
 * function's `live` alias, and on prod each alias is updated through a CodeDeploy deployment group
 * with the stage's canary configuration that rolls back on the alarm watching that function's
 * errors. On dev the aliases move at once (no deployment group).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ALARM_THRESHOLDS } from '../../lib/alarms.ts';
import { functionDescription } from '../../lib/api-stack.ts';
import { CANARY_ERROR_RATE_PERCENT, LIVE_ALIAS } from '../../lib/constructs/live-alias.ts';
import { DEPLOYMENT_STRATEGIES, DEV_DEPLOYMENT, LIVE_DEPLOYMENT } from '../../lib/deployment-strategies.ts';
import { readSettings } from '../../lib/settings.ts';
import { STAGE_SETTINGS } from '../../lib/stages.ts';
import { routeList } from '../../shared/app/routes.ts';
import { ROUTE_METRICS } from '../../shared/kernel/infra/route-metrics.ts';
import { workflowTasks } from '../../shared/orders/infra.ts';
import {
  functionOfRoute,
  qualifiedNameOfAlias,
  resourcesOf,
  type Synthesized,
  synthesize,
  type TemplateResource,
  workflowDefinition,
} from './synth.ts';

type Ref = { Ref: string };
const refTo = (value: unknown): string | undefined =>
  value !== null && typeof value === 'object' && typeof (value as Partial<Ref>).Ref === 'string'
    ? (value as Ref).Ref
    : undefined;
const getAttOf = (value: unknown): [string, string] | undefined =>
  (value as { 'Fn::GetAtt'?: [string, string] } | null)?.['Fn::GetAtt'];

interface AliasUpdatePolicy {
  readonly CodeDeployLambdaAliasUpdate?: { ApplicationName: unknown; DeploymentGroupName: unknown };
}

/** Every alias of the merged API template with the function it belongs to (the function's logical id). */
function aliasesByFunction(synth: Synthesized): Map<string, [string, TemplateResource]> {
  const versions = resourcesOf(synth.apiTemplate, 'AWS::Lambda::Version');
  const byFunction = new Map<string, [string, TemplateResource]>();
  for (const [id, alias] of Object.entries(resourcesOf(synth.apiTemplate, 'AWS::Lambda::Alias'))) {
    const fn = refTo(alias.Properties.FunctionName);
    if (!fn) throw new Error(`alias ${id} names no function of the template`);
    // The alias is on the function's current version, a version of that same function.
    const [versionId, attribute] = getAttOf(alias.Properties.FunctionVersion) ?? [];
    expect(attribute, id).toBe('Version');
    expect(refTo(versions[versionId as string]?.Properties.FunctionName), id).toBe(fn);
    expect(byFunction.has(fn), `two aliases of ${fn}`).toBe(false);
    byFunction.set(fn, [id, alias]);
  }
  return byFunction;
}

describe.each([
  ['prod', { stage: 'prod' }],
  ['dev', {}],
])('live aliases, %s', (stage, context) => {
  let synth: Synthesized;
  let aliases: Map<string, [string, TemplateResource]>;
  let aliasIds: Set<string>;
  beforeAll(() => {
    synth = synthesize({ context });
    aliases = aliasesByFunction(synth);
    aliasIds = new Set([...aliases.values()].map(([id]) => id));
  }, 180_000);

  it('gives every function one alias named live on its current version', () => {
    const functions = Object.keys(resourcesOf(synth.apiTemplate, 'AWS::Lambda::Function'));
    expect([...aliases.keys()].sort()).toEqual(functions.sort());
    for (const [id, alias] of aliases.values()) expect(alias.Properties.Name, id).toBe(LIVE_ALIAS);
    // A replaced version is deleted once a deploy succeeds, so versions do not pile up.
    for (const [id, version] of Object.entries(resourcesOf(synth.apiTemplate, 'AWS::Lambda::Version')))
      expect(version.DeletionPolicy, id).toBe('Delete');
  });

  it("makes every route's method invoke its function's alias, and lets the gateway invoke only the alias", () => {
    const methods = resourcesOf(synth.apiTemplate, 'AWS::ApiGateway::Method');
    const functions = resourcesOf(synth.apiTemplate, 'AWS::Lambda::Function');
    for (const route of routeList) {
      const description = functionOfRoute(synth, route).Properties.Description;
      const fnId = Object.entries(functions).find(([, fn]) => fn.Properties.Description === description)?.[0];
      expect(fnId, route.name).toBeDefined();
      const [aliasId] = aliases.get(fnId as string) ?? [];
      const method = Object.values(methods).find((m) => m.Properties.OperationName === route.name);
      const uri = JSON.stringify((method?.Properties.Integration as { Uri?: unknown } | undefined)?.Uri);
      expect(uri, route.name).toContain(`/functions/",{"Ref":"${aliasId}"},"/invocations`);
      expect(uri, route.name).not.toContain(fnId);
    }
    const permissions = Object.entries(resourcesOf(synth.apiTemplate, 'AWS::Lambda::Permission')).filter(
      ([, permission]) => permission.Properties.Principal === 'apigateway.amazonaws.com',
    );
    expect(permissions).toHaveLength(routeList.length);
    for (const [id, permission] of permissions)
      expect(aliasIds.has(refTo(permission.Properties.FunctionName) as string), id).toBe(true);
  });

  it('makes the key authorizer invoke its alias, as a role allowed to invoke that alias alone', () => {
    const [authorizer] = Object.values(resourcesOf(synth.apiTemplate, 'AWS::ApiGateway::Authorizer'));
    const uri = JSON.stringify(authorizer?.Properties.AuthorizerUri);
    const target = [...aliasIds].filter((id) => uri.includes(`"Ref":"${id}"`));
    expect(target).toHaveLength(1);
    const [roleId] = getAttOf(authorizer?.Properties.AuthorizerCredentials) ?? [];
    const role = resourcesOf(synth.apiTemplate, 'AWS::IAM::Role')[roleId as string];
    expect(JSON.stringify(role?.Properties.AssumeRolePolicyDocument)).toContain('apigateway.amazonaws.com');
    const statements = Object.values(resourcesOf(synth.apiTemplate, 'AWS::IAM::Policy'))
      .filter((policy) => JSON.stringify(policy.Properties.Roles).includes(`"Ref":"${roleId}"`))
      .flatMap((policy) => (policy.Properties.PolicyDocument as { Statement: unknown[] }).Statement);
    expect(statements).toEqual([
      { Action: 'lambda:InvokeFunction', Effect: 'Allow', Resource: { Ref: target[0] } },
    ]);
  });

  it('makes every SQS event source, every schedule and every workflow task invoke an alias', () => {
    const mappings = Object.entries(resourcesOf(synth.apiTemplate, 'AWS::Lambda::EventSourceMapping'));
    // The fulfilment starter, the webhook dispatcher and company monitoring's run.
    expect(mappings).toHaveLength(3);
    for (const [id, mapping] of mappings) {
      const aliasId = [...aliasIds].find((alias) =>
        JSON.stringify(mapping.Properties.FunctionName).includes(`{"Ref":"${alias}"}`),
      );
      expect(mapping.Properties.FunctionName, id).toEqual(qualifiedNameOfAlias(aliasId as string));
    }

    const queues = resourcesOf(synth.apiTemplate, 'AWS::SQS::Queue');
    const lambdaTargets = Object.values(resourcesOf(synth.apiTemplate, 'AWS::Events::Rule')).flatMap((rule) =>
      (rule.Properties.Targets as { Arn: unknown }[]).filter(
        (target) => !Object.hasOwn(queues, getAttOf(target.Arn)?.[0] ?? ''),
      ),
    );
    // The sweeper, the webhook retry and the reference refresh; company monitoring's two
    // EventBridge Scheduler schedules (daily and weekly) both start its starter.
    const scheduleTargets = Object.values(resourcesOf(synth.apiTemplate, 'AWS::Scheduler::Schedule')).map(
      (schedule) => schedule.Properties.Target as { Arn: unknown },
    );
    expect(lambdaTargets).toHaveLength(3);
    expect(scheduleTargets).toHaveLength(2);
    for (const target of [...lambdaTargets, ...scheduleTargets])
      expect(aliasIds.has(refTo(target.Arn) as string)).toBe(true);
    // Their failed asynchronous invocations are kept: the configuration is the alias's.
    const configs = Object.values(resourcesOf(synth.apiTemplate, 'AWS::Lambda::EventInvokeConfig'));
    // Each is the alias's: its qualifier is read from the alias's ARN.
    expect(configs).toHaveLength(4);
    for (const config of configs) {
      const target = [...lambdaTargets, ...scheduleTargets].find((t) =>
        JSON.stringify(config.Properties.Qualifier).includes(JSON.stringify(t.Arn)),
      );
      expect(target, JSON.stringify(config.Properties)).toBeDefined();
    }

    const workflow = workflowDefinition(synth);
    const tasks = workflowTasks.map((task) => workflow.substitutions[task.substitution]);
    for (const task of tasks) expect(aliasIds.has(refTo(task) as string)).toBe(true);
    expect(new Set(tasks.map(refTo)).size).toBe(workflowTasks.length);
    // The workflow's role may invoke those aliases and nothing else.
    const roleId = (getAttOf(workflow.stateMachine.Properties.RoleArn) ?? [])[0];
    const invoke = Object.values(resourcesOf(synth.apiTemplate, 'AWS::IAM::Policy'))
      .filter((policy) => JSON.stringify(policy.Properties.Roles).includes(`"Ref":"${roleId}"`))
      .flatMap(
        (policy) => (policy.Properties.PolicyDocument as { Statement: { Action: unknown }[] }).Statement,
      )
      .filter((statement) => JSON.stringify(statement.Action).includes('lambda:InvokeFunction'));
    expect(invoke).toHaveLength(1);
    expect(
      (invoke[0] as unknown as { Resource: unknown[] }).Resource.map(refTo).sort((a, b) =>
        String(a).localeCompare(String(b)),
      ),
    ).toEqual(tasks.map(refTo).sort((a, b) => String(a).localeCompare(String(b))));
  });

  it("updates the aliases as the stage's deployment setting says (prod: a canary rolling back on the function's errors alarm, and a route's handled faults)", () => {
    if (stage === 'dev') {
      expect(readSettings(synth.api.node).deployment).toBe(DEV_DEPLOYMENT);
      expect(DEPLOYMENT_STRATEGIES[DEV_DEPLOYMENT]).toBeUndefined();
      expect(resourcesOf(synth.apiTemplate, 'AWS::CodeDeploy::DeploymentGroup')).toEqual({});
      expect(resourcesOf(synth.apiTemplate, 'AWS::CodeDeploy::Application')).toEqual({});
      for (const [id, alias] of aliases.values())
        expect((alias as unknown as { UpdatePolicy?: unknown }).UpdatePolicy, id).toBeUndefined();
      return;
    }
    {
      expect(STAGE_SETTINGS.prod?.deployment).toBe(LIVE_DEPLOYMENT);
      const canary = DEPLOYMENT_STRATEGIES[LIVE_DEPLOYMENT];
      expect(canary?.deploymentConfigName).toBe('CodeDeployDefault.LambdaCanary10Percent10Minutes');
      const groups = resourcesOf(synth.apiTemplate, 'AWS::CodeDeploy::DeploymentGroup');
      const applications = resourcesOf(synth.apiTemplate, 'AWS::CodeDeploy::Application');
      const alarms = resourcesOf(synth.apiTemplate, 'AWS::CloudWatch::Alarm');
      const roles = resourcesOf(synth.apiTemplate, 'AWS::IAM::Role');
      const functions = resourcesOf(synth.apiTemplate, 'AWS::Lambda::Function');
      const routeOfFunction = new Map(
        routeList.flatMap((route) => {
          const found = Object.entries(functions).find(
            ([, fn]) => fn.Properties.Description === functionDescription(route),
          );
          return found ? [[found[0], route.name] as const] : [];
        }),
      );
      expect(routeOfFunction.size).toBe(routeList.length);
      expect(Object.keys(groups)).toHaveLength(aliases.size);
      const used = new Set<string>();
      for (const [fnId, [aliasId, alias]] of aliases) {
        const update = (alias as unknown as { UpdatePolicy?: AliasUpdatePolicy }).UpdatePolicy
          ?.CodeDeployLambdaAliasUpdate;
        const groupId = refTo(update?.DeploymentGroupName) as string;
        const group = groups[groupId];
        expect(group, aliasId).toBeDefined();
        expect(used.has(groupId), `${groupId} shifts two aliases`).toBe(false);
        used.add(groupId);
        // The group's application is the one the alias's update names.
        expect(group?.Properties.ApplicationName, aliasId).toEqual(update?.ApplicationName);
        expect(applications[refTo(update?.ApplicationName) as string]?.Properties.ComputePlatform).toBe(
          'Lambda',
        );
        expect(group?.Properties.DeploymentConfigName, aliasId).toBe(canary?.deploymentConfigName);
        expect(group?.Properties.AutoRollbackConfiguration, aliasId).toEqual({
          Enabled: true,
          Events: ['DEPLOYMENT_FAILURE', 'DEPLOYMENT_STOP_ON_REQUEST', 'DEPLOYMENT_STOP_ON_ALARM'],
        });
        const alarmConfiguration = group?.Properties.AlarmConfiguration as {
          Enabled: boolean;
          Alarms: { Name: unknown }[];
        };
        expect(alarmConfiguration.Enabled, aliasId).toBe(true);
        const route = routeOfFunction.get(fnId);
        expect(alarmConfiguration.Alarms, aliasId).toHaveLength(route ? 3 : 2);
        // The last: the new version's error rate, so a version failing every call of a
        // low-traffic function rolls back (an absolute count over the function would not fire).
        const rate = alarms[refTo(alarmConfiguration.Alarms.at(-1)?.Name) as string];
        expect(rate?.Properties, aliasId).toMatchObject({
          ComparisonOperator: 'GreaterThanThreshold',
          Threshold: CANARY_ERROR_RATE_PERCENT,
          EvaluationPeriods: 1,
          TreatMissingData: 'notBreaching',
        });
        const queries = rate?.Properties.Metrics as {
          Id: string;
          Expression?: string;
          ReturnData?: boolean;
          MetricStat?: {
            Metric: { MetricName: string; Dimensions: { Name: string; Value: unknown }[] };
            Period: number;
          };
        }[];
        expect(queries.find((q) => q.ReturnData !== false)?.Expression).toBe(
          'IF(invocations > 0, 100 * errors / invocations, 0)',
        );
        for (const id of ['errors', 'invocations']) {
          const stat = queries.find((q) => q.Id === id)?.MetricStat;
          expect(stat?.Metric.MetricName).toBe(id === 'errors' ? 'Errors' : 'Invocations');
          expect(stat?.Period).toBe(60);
          const dimensions = Object.fromEntries(stat?.Metric.Dimensions.map((d) => [d.Name, d.Value]) ?? []);
          expect(dimensions.FunctionName, aliasId).toEqual({ Ref: fnId });
          // The version the alias is being moved to: the one its update publishes.
          expect(JSON.stringify(dimensions.ExecutedVersion), aliasId).toBe(
            JSON.stringify((alias.Properties as { FunctionVersion: unknown }).FunctionVersion),
          );
        }

        // The first alarm watches this very function's errors (every invoker goes through the alias).
        const alarm = alarms[refTo(alarmConfiguration.Alarms[0]?.Name) as string];
        expect(alarm?.Properties, aliasId).toMatchObject({
          Namespace: 'AWS/Lambda',
          MetricName: 'Errors',
          Dimensions: [{ Name: 'FunctionName', Value: { Ref: fnId } }],
        });
        expect(String(alarm?.Properties.AlarmName)).toMatch(/^company-register-prod-.+-errors$/);
        // A route's second one, its handled faults: what its own pipeline writes under its name.
        if (route) {
          const handled = alarms[refTo(alarmConfiguration.Alarms[1]?.Name) as string];
          expect(handled?.Properties, aliasId).toMatchObject({
            Namespace: 'CompanyRegister',
            MetricName: ROUTE_METRICS.internalErrors,
            Dimensions: [
              { Name: 'route', Value: route },
              { Name: 'service', Value: 'company-register' },
            ],
            Statistic: 'Sum',
            Period: 300,
            Threshold: ALARM_THRESHOLDS.routeInternalErrors.value,
            ComparisonOperator: 'GreaterThanThreshold',
          });
          expect(String(handled?.Properties.AlarmName)).toMatch(/^company-register-prod-.+-internal-errors$/);
          expect(handled?.Properties.AlarmActions, aliasId).toEqual(alarm?.Properties.AlarmActions);
        }
        const [roleId] = getAttOf(group?.Properties.ServiceRoleArn) ?? [];
        expect(JSON.stringify(roles[roleId as string]?.Properties.AssumeRolePolicyDocument)).toContain(
          'codedeploy.amazonaws.com',
        );
      }
    }
  });

  it('keeps each alias, its deployment group and its alarm in one template', () => {
    let groups = 0;
    for (const template of synth.templates) {
      const resources = template.json.Resources ?? {};
      for (const [id, resource] of Object.entries(resources)) {
        if (resource.Type !== 'AWS::Lambda::Alias') continue;
        const update = (resource as { UpdatePolicy?: AliasUpdatePolicy }).UpdatePolicy
          ?.CodeDeployLambdaAliasUpdate;
        // Counted below: on prod every alias has one.
        if (!update) continue;
        const group = resources[refTo(update.DeploymentGroupName) as string];
        expect(group?.Type, `${template.path}: ${id}`).toBe('AWS::CodeDeploy::DeploymentGroup');
        const configuration = group?.Properties?.AlarmConfiguration as
          | { Alarms: { Name: unknown }[] }
          | undefined;
        const alarmName = configuration?.Alarms[0]?.Name;
        expect(resources[refTo(alarmName) as string]?.Type, `${template.path}: ${id}`).toBe(
          'AWS::CloudWatch::Alarm',
        );
        groups += 1;
      }
    }
    expect(groups).toBe(stage === 'prod' ? aliases.size : 0);
  });
});
