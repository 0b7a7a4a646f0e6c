/**
 * The asynchronous tier: the orders bucket (data stack), and the fulfilment queue, workflow, event
 * bus, sweeper and their grants (API stack), checked on the synthesized templates.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import aslValidator from 'asl-validator';
import { beforeAll, describe, expect, it } from 'vitest';
import { ALARM_THRESHOLDS } from '../../lib/alarms.ts';
import { functionDescription } from '../../lib/api-stack.ts';
import {
  BUCKET_OBJECT_ACTIONS,
  INDEX_QUERY_ACTION,
  SECRET_READ_ACTION,
  TABLE_ACTIONS,
} from '../../lib/constructs/api-function.ts';
import {
  ACCESS_LOG_RETENTION_DAYS,
  ORDER_BLOB_PREFIXES,
  ORDER_BLOB_RETENTION_DAYS,
} from '../../lib/data-stack.ts';
import { defaultEntryFor, PROJECT_ROOT } from '../../lib/routes.ts';
import { DEFAULT_MAIL_FROM, DEFAULT_REGISTRY_URL } from '../../lib/settings.ts';
import { routeList } from '../../shared/app/routes.ts';
import type { GrantedRoute, RouteDefinition } from '../../shared/kernel/http/route.ts';
import { PLATFORM_ENV } from '../../shared/kernel/infra/platform-env.ts';
import { tableDefinitions } from '../../shared/kernel/infra/tables.ts';
import {
  MEMBERS_INDEX,
  STARTER_DESCRIPTION,
  SWEEPER_DESCRIPTION,
  taskDescription,
} from '../../shared/orders/cdk/fulfilment.ts';
import {
  FULFILMENT_STARTER,
  FULFILMENT_SWEEPER,
  ORDERS_ENV,
  WORKFLOW_DEFINITION,
  type WorkflowTask,
  workflowTasks,
} from '../../shared/orders/infra.ts';
import {
  actionsIn,
  actionsOf,
  aliasOfFunction,
  companyMonitoringOf,
  environmentOf,
  evaluate,
  fulfilmentOf,
  functionOfRoute,
  functionWithDescription,
  logicalIdOf,
  type PolicyStatementJson,
  qualifiedNameOfAlias,
  resourcesOf,
  roleOfFunction,
  type Synthesized,
  stackIdOf,
  statementsOfRole,
  synthesize,
  type TemplateResource,
  webhooksOf,
  workflowDefinition,
} from './synth.ts';

const STATE_ACTION = /^states:/;
const SES_ACTION = /^ses:/;
const S3_ACTION = /^s3:/;
const SQS_ACTION = /^sqs:/;
const EVENTS_ACTION = /^events:/;

const aslText = readFileSync(join(PROJECT_ROOT, WORKFLOW_DEFINITION), 'utf8');
const placeholders = [...aslText.matchAll(/\$\{([^}]*)\}/g)].map((match) => match[1] as string);

interface AslState {
  readonly Type: string;
  readonly Resource?: string;
  readonly TimeoutSeconds?: number;
}
const policyStatements = (policy: TemplateResource | undefined): Record<string, unknown>[] =>
  (policy?.Properties.PolicyDocument as { Statement?: Record<string, unknown>[] } | undefined)?.Statement ??
  [];

const statesOf = (definition: string): Record<string, AslState> =>
  (JSON.parse(definition) as { States: Record<string, AslState> }).States;

/** Cross-stack references are imports whose export names contain the data stack's logical ids. */
const naming = (logicalId: string) => (statement: PolicyStatementJson) =>
  JSON.stringify(statement.Resource).includes(logicalId);

describe('the ASL file', () => {
  it('validates with asl-validator (with every substitution a Lambda ARN)', () => {
    const withArns = aslText.replace(
      /\$\{([^}]*)\}/g,
      (_, name: string) => `arn:aws:lambda:ap-southeast-2:123456789012:function:${name}`,
    );
    const result = aslValidator(JSON.parse(withArns));
    expect(result.errorsText('\n')).toBe('');
    expect(result.isValid).toBe(true);
  });

  it('has a task in workflowTasks for every substitution, and a substitution for every task', () => {
    expect(placeholders.length).toBeGreaterThan(0);
    expect([...new Set(placeholders)].sort()).toEqual(workflowTasks.map((task) => task.substitution).sort());
  });

  it('uses substitutions only as Task resources', () => {
    const states = statesOf(aslText);
    const resources = Object.values(states)
      .filter((state) => state.Type === 'Task')
      .map((state) => state.Resource);
    expect(resources.every((resource) => /^\$\{[A-Za-z]+\}$/.test(resource ?? ''))).toBe(true);
    expect(aslText.match(/\$\{/g)).toHaveLength(resources.length);
  });

  it('names a handler module under functions/ for every task, the starter and the sweeper', () => {
    const modules = [...workflowTasks, FULFILMENT_STARTER, FULFILMENT_SWEEPER];
    expect(modules.filter((module) => !existsSync(defaultEntryFor(module))).map((m) => m.handler)).toEqual(
      [],
    );
    expect(new Set(modules.map((module) => module.name)).size).toBe(modules.length);
  });
});

describe('fulfilment (dev stage)', () => {
  let synth: Synthesized;
  let api: Synthesized['apiTemplate'];
  let data: Synthesized['dataTemplate'];
  beforeAll(() => {
    synth = synthesize();
    api = synth.apiTemplate;
    data = synth.dataTemplate;
  }, 120_000);

  const idOf = (construct: Parameters<typeof logicalIdOf>[1]) => logicalIdOf(synth.api, construct);
  const functionOfTask = (task: WorkflowTask): [string, TemplateResource] =>
    functionWithDescription(api, taskDescription(task));
  const statementsOf = (fn: TemplateResource) => statementsOfRole(api, roleOfFunction(fn));
  const queueId = () => idOf(fulfilmentOf(synth.api).queue);
  const dlqId = () => idOf(fulfilmentOf(synth.api).deadLetterQueue);
  const busId = () => idOf(fulfilmentOf(synth.api).eventBus);
  /** Cross-stack references name the data stack's table by its logical id. */
  const mainTableId = () => logicalIdOf(synth.data, synth.data.node.findChild('MainTable'));
  const onBucket = (statements: PolicyStatementJson[]) =>
    statements.filter((statement) => actionsOf(statement).some((action) => S3_ACTION.test(action)));

  describe('state machine', () => {
    it('has no ${ left once the template’s substitutions are applied', () => {
      const definition = workflowDefinition(synth);
      expect(definition.text).toBe(aslText);
      expect(definition.substituted).not.toContain('${');
      expect(Object.keys(definition.substitutions).sort()).toEqual(
        workflowTasks.map((task) => task.substitution).sort(),
      );
    });

    it("invokes, for every Task state, the live alias of its substitution's function", () => {
      const { substituted } = workflowDefinition(synth);
      const aliases = resourcesOf(api, 'AWS::Lambda::Alias');
      const rawStates = statesOf(aslText);
      for (const [name, state] of Object.entries(statesOf(substituted))) {
        if (state.Type !== 'Task') continue;
        const target = /^ref-of:(.+)$/.exec(state.Resource ?? '')?.[1];
        expect(target, name).toBeDefined();
        expect(aliases[target as string], name).toBeDefined();
        const substitution = /^\$\{(.+)\}$/.exec(rawStates[name]?.Resource ?? '')?.[1];
        const task = workflowTasks.find((candidate) => candidate.substitution === substitution);
        expect(task, name).toBeDefined();
        expect(aliasOfFunction(api, functionOfTask(task as WorkflowTask)[0]), name).toBe(target);
      }
    });

    it('gives every Task state at least its function’s timeout', () => {
      const rawStates = statesOf(aslText);
      for (const [name, state] of Object.entries(rawStates)) {
        if (state.Type !== 'Task') continue;
        const task = workflowTasks.find((candidate) => `\${${candidate.substitution}}` === state.Resource);
        const [, fn] = functionOfTask(task as WorkflowTask);
        expect(state.TimeoutSeconds, name).toBeGreaterThanOrEqual(Number(fn.Properties.Timeout));
      }
    });

    it('is a STANDARD machine that logs ALL to a log group with retention, and traces', () => {
      const { stateMachine } = workflowDefinition(synth);
      expect(stateMachine.Properties).toMatchObject({
        StateMachineType: 'STANDARD',
        StateMachineName: 'company-register-dev-fulfilment',
        LoggingConfiguration: { Level: 'ALL', IncludeExecutionData: true },
        TracingConfiguration: { Enabled: true },
      });
      const destinations = (
        stateMachine.Properties.LoggingConfiguration as {
          Destinations: { CloudWatchLogsLogGroup: { LogGroupArn: { 'Fn::GetAtt': [string, string] } } }[];
        }
      ).Destinations;
      expect(destinations).toHaveLength(1);
      const logGroupId = destinations[0]?.CloudWatchLogsLogGroup.LogGroupArn['Fn::GetAtt'][0] as string;
      const logGroup = resourcesOf(api, 'AWS::Logs::LogGroup')[logGroupId];
      expect(logGroup?.Properties.RetentionInDays).toBe(30);
      // A new name for each creation of the stack, so a group retained by a destroyed one never
      // blocks the redeploy.
      for (const guid of ['5a6f4c10-8b1e-11ef-9c1d-0a1b2c3d4e5f', 'c2e9d7a0-8b1f-11ef-a3b4-06f7e8d9c0b1']) {
        const refs = { 'AWS::StackId': stackIdOf(synth.api.stackName, guid) };
        expect(evaluate(logGroup?.Properties.LogGroupName, refs)).toBe(
          `/aws/vendedlogs/states/company-register-dev-fulfilment-${guid}`,
        );
      }
    });

    it("may invoke exactly the task functions' live aliases", () => {
      const role = fulfilmentOf(synth.api).stateMachine.role;
      const statements = statementsOfRole(api, idOf(role));
      const invoke = statements.filter((statement) => actionsOf(statement).includes('lambda:InvokeFunction'));
      expect(actionsIn(invoke)).toEqual(['lambda:InvokeFunction']);
      const resources = invoke.flatMap((statement) => [statement.Resource].flat());
      expect(resources).toEqual(
        expect.arrayContaining(
          workflowTasks.map((task) => ({ Ref: aliasOfFunction(api, functionOfTask(task)[0]) })),
        ),
      );
      expect(resources).toHaveLength(workflowTasks.length);
      expect(JSON.stringify(resources)).not.toContain(':*');
      // Everything else on "*" is log delivery and X-Ray (acknowledged in lib/nag.ts).
      const wildcard = statements.filter((statement) => JSON.stringify(statement.Resource) === '"*"');
      expect(actionsIn(wildcard).every((action) => /^(logs|xray):/.test(action))).toBe(true);
    });
  });

  describe('queue', () => {
    it('redrives to the dead-letter queue after 5 receives', () => {
      const queue = resourcesOf(api, 'AWS::SQS::Queue')[queueId()];
      expect(queue?.Properties.RedrivePolicy).toEqual({
        deadLetterTargetArn: { 'Fn::GetAtt': [dlqId(), 'Arn'] },
        maxReceiveCount: 5,
      });
    });

    it('keeps a message invisible for at least 6 times the starter’s timeout', () => {
      const queue = resourcesOf(api, 'AWS::SQS::Queue')[queueId()];
      const [, starter] = functionWithDescription(api, STARTER_DESCRIPTION);
      expect(Number(queue?.Properties.VisibilityTimeout)).toBeGreaterThanOrEqual(
        6 * Number(starter.Properties.Timeout),
      );
    });

    it('keeps dead letters 14 days', () => {
      const dlq = resourcesOf(api, 'AWS::SQS::Queue')[dlqId()];
      expect(dlq?.Properties.MessageRetentionPeriod).toBe(14 * 24 * 3600);
    });

    it.each([
      ['queue', () => queueId()],
      ['dead-letter queue', () => dlqId()],
    ])('encrypts the %s (SQS-managed SSE) and refuses requests without TLS', (_, id) => {
      const queue = resourcesOf(api, 'AWS::SQS::Queue')[id()];
      expect(queue?.Properties.SqsManagedSseEnabled).toBe(true);
      const policies = Object.values(resourcesOf(api, 'AWS::SQS::QueuePolicy')).filter((policy) =>
        JSON.stringify(policy.Properties.Queues).includes(`"${id()}"`),
      );
      expect(policies).toHaveLength(1);
      expect(policies[0]?.Properties.PolicyDocument).toMatchObject({
        Statement: expect.arrayContaining([
          expect.objectContaining({
            Effect: 'Deny',
            Principal: { AWS: '*' },
            Condition: { Bool: { 'aws:SecureTransport': 'false' } },
          }),
        ]),
      });
    });

    it('raises an alarm as soon as a message is in the dead-letter queue', () => {
      const alarms = Object.values(resourcesOf(api, 'AWS::CloudWatch::Alarm'));
      const onDlq = alarms.filter((alarm) =>
        JSON.stringify(alarm.Properties.Dimensions ?? []).includes(`"${dlqId()}"`),
      );
      expect(onDlq).toHaveLength(1);
      expect(onDlq[0]?.Properties).toMatchObject({
        Namespace: 'AWS/SQS',
        MetricName: 'ApproximateNumberOfMessagesVisible',
        ComparisonOperator: 'GreaterThanThreshold',
        Threshold: ALARM_THRESHOLDS.deadLetters.value,
        EvaluationPeriods: 1,
        TreatMissingData: 'notBreaching',
      });
      expect(ALARM_THRESHOLDS.deadLetters.value).toBe(0);
    });
  });

  describe('starter', () => {
    it('consumes the queue in batches of 10, reporting failed items only', () => {
      const [starterId] = functionWithDescription(api, STARTER_DESCRIPTION);
      // The other consumer is the webhook dispatcher (test/infra/webhooks.test.ts).
      const mappings = Object.values(resourcesOf(api, 'AWS::Lambda::EventSourceMapping')).filter((mapping) =>
        JSON.stringify(mapping.Properties.EventSourceArn).includes(queueId()),
      );
      expect(mappings).toHaveLength(1);
      expect(mappings[0]?.Properties).toMatchObject({
        FunctionName: qualifiedNameOfAlias(aliasOfFunction(api, starterId)),
        EventSourceArn: { 'Fn::GetAtt': [queueId(), 'Arn'] },
        BatchSize: 10,
        FunctionResponseTypes: ['ReportBatchItemFailures'],
      });
    });

    it('may start executions of the state machine and nothing else of Step Functions', () => {
      const [, starter] = functionWithDescription(api, STARTER_DESCRIPTION);
      const statements = statementsOf(starter);
      const states = statements.filter((s) => actionsOf(s).some((action) => STATE_ACTION.test(action)));
      expect(actionsIn(states)).toEqual(['states:StartExecution']);
      // The state machine's ARN built from its name (it references the task aliases, whose stack
      // references the starter's): the very ARN of the machine of that name in the stage's account.
      const stateMachineArn = {
        'Fn::Join': [
          '',
          [
            'arn:',
            { Ref: 'AWS::Partition' },
            ':states:',
            { Ref: 'AWS::Region' },
            ':',
            { Ref: 'AWS::AccountId' },
            `:stateMachine:${workflowDefinition(synth).stateMachine.Properties.StateMachineName}`,
          ],
        ],
      };
      expect(states.map((s) => s.Resource)).toEqual([stateMachineArn]);
      expect(environmentOf(starter)[ORDERS_ENV.stateMachineArn]).toEqual(stateMachineArn);
      // Consuming the queue (from the event source) is all it does with SQS; no table, bucket or mail.
      const sqs = statements.filter((s) => actionsOf(s).some((action) => SQS_ACTION.test(action)));
      expect(actionsIn(sqs)).not.toContain('sqs:SendMessage');
      expect(JSON.stringify(statements)).not.toMatch(/dynamodb:|s3:|ses:|events:/);
    });
  });

  describe('sweeper', () => {
    it('runs every 5 minutes', () => {
      const [sweeperId] = functionWithDescription(api, SWEEPER_DESCRIPTION);
      const rules = Object.values(resourcesOf(api, 'AWS::Events::Rule')).filter((rule) =>
        JSON.stringify(rule.Properties.Targets).includes(`{"Ref":"${aliasOfFunction(api, sweeperId)}"}`),
      );
      expect(rules).toHaveLength(1);
      expect(rules[0]?.Properties).toMatchObject({ ScheduleExpression: 'rate(5 minutes)', State: 'ENABLED' });
    });

    it('reads and writes the main table (gsi1 by name), asks the registry, sends to the queue, publishes to the bus and mails spend alerts', () => {
      const [, sweeper] = functionWithDescription(api, SWEEPER_DESCRIPTION);
      const statements = statementsOf(sweeper);
      const onTable = statements.filter(naming(mainTableId()));
      // It commits purchases a request left unfinished, and forgets those the registry refused.
      expect(actionsIn(onTable)).toEqual([...TABLE_ACTIONS.readWriteDelete].sort());
      expect(JSON.stringify(onTable)).toContain('/index/gsi1');
      const dynamo = statements.filter((s) => actionsOf(s).some((action) => action.startsWith('dynamodb:')));
      // Beside the main table, one query grant: the keys table's members index (spend alerts' recipients).
      const keysId = logicalIdOf(synth.data, synth.data.node.findChild('KeysTable'));
      expect(dynamo.filter((s) => !naming(mainTableId())(s))).toStrictEqual([
        {
          Effect: 'Allow',
          Action: INDEX_QUERY_ACTION,
          Resource: {
            'Fn::Join': [
              '',
              [{ 'Fn::ImportValue': expect.stringContaining(keysId) }, `/index/${MEMBERS_INDEX}`],
            ],
          },
        },
      ]);
      expect(JSON.stringify(environmentOf(sweeper)[tableDefinitions.keys.envVar])).toContain(keysId);
      const secrets = statements.filter((s) =>
        actionsOf(s).some((action) => action.startsWith('secretsmanager:')),
      );
      expect(actionsIn(secrets)).toEqual([SECRET_READ_ACTION]);
      expect(JSON.stringify(secrets.map((s) => s.Resource))).toContain('RegistryCredentialSecret');
      expect(environmentOf(sweeper).REGISTRY_URL).toBe(DEFAULT_REGISTRY_URL);
      const sqs = statements.filter((s) => actionsOf(s).some((action) => SQS_ACTION.test(action)));
      expect(actionsIn(sqs)).toEqual(['sqs:SendMessage']);
      // The fulfilment queue, and the failed-events queue its failed scheduled runs go to.
      const failedEventsId = idOf(synth.api.failedEvents.queue);
      expect(
        sqs
          .flatMap((s) => s.Resource as unknown[])
          .map((r) => JSON.stringify(r))
          .sort(),
      ).toEqual(
        [queueId(), failedEventsId].map((id) => JSON.stringify({ 'Fn::GetAtt': [id, 'Arn'] })).sort(),
      );
      expect(environmentOf(sweeper)).toMatchObject({
        [ORDERS_ENV.queueUrl]: { Ref: queueId() },
        [tableDefinitions.main.envVar]: expect.anything(),
      });
      // It publishes events recorded but never published, to the stage's bus only.
      const events = statements.filter((s) => actionsOf(s).some((action) => EVENTS_ACTION.test(action)));
      expect(actionsIn(events)).toEqual(['events:PutEvents']);
      expect(JSON.stringify(events.map((s) => s.Resource))).toContain(busId());
      expect(environmentOf(sweeper)[PLATFORM_ENV.eventBus]).toEqual({ Ref: busId() });
      expect(JSON.stringify(statements)).not.toMatch(/states:|s3:/);
      // It mails a spend alert's billing recipients, only as the stage's sender.
      const ses = statements.filter((s) => actionsOf(s).some((action) => SES_ACTION.test(action)));
      expect(actionsIn(ses)).toEqual(['ses:SendEmail', 'ses:SendRawEmail']);
      expect(environmentOf(sweeper)[PLATFORM_ENV.mailFrom]).toBe(DEFAULT_MAIL_FROM);
      expect(JSON.stringify(ses.map((s) => s.Resource))).not.toContain('*');
      expect(ses[0]).toMatchObject({ Condition: { StringEquals: { 'ses:FromAddress': DEFAULT_MAIL_FROM } } });
    });
  });

  it('has a custom event bus named after the stage', () => {
    expect(resourcesOf(api, 'AWS::Events::EventBus')[busId()]?.Properties.Name).toBe('company-register-dev');
  });

  describe.each(workflowTasks.map((task) => [task.name, task] as const))('task %s', (_, task) => {
    const needs = new Set(task.needs);

    it('runs on nodejs22.x, arm64, traced, with the timeout and memory of its task, and its own log group', () => {
      const [, fn] = functionOfTask(task);
      expect(fn.Properties).toMatchObject({
        Handler: 'index.handler',
        Runtime: 'nodejs22.x',
        Architectures: ['arm64'],
        TracingConfig: { Mode: 'Active' },
        Timeout: task.timeoutSeconds,
        MemorySize: task.memoryMb,
      });
      const logGroup = (fn.Properties.LoggingConfig as { LogGroup: { Ref: string } }).LogGroup.Ref;
      expect(resourcesOf(api, 'AWS::Logs::LogGroup')[logGroup]?.Properties.RetentionInDays).toBe(30);
    });

    it('may read and write the main table (delete too if it moves an order), gsi1 by name, and no other table', () => {
      const [, fn] = functionOfTask(task);
      const statements = statementsOf(fn);
      const onTable = statements.filter(naming(mainTableId()));
      const level = task.needs.includes('deletes') ? 'readWriteDelete' : 'readWrite';
      expect(actionsIn(onTable)).toEqual([...TABLE_ACTIONS[level]].sort());
      expect(JSON.stringify(onTable)).toContain('/index/gsi1');
      const dynamo = statements.filter((s) => actionsOf(s).some((action) => action.startsWith('dynamodb:')));
      expect(dynamo.every(naming(mainTableId()))).toBe(true);
      expect(environmentOf(fn)).toHaveProperty(tableDefinitions.main.envVar);
    });

    it(`${needs.has('registry') ? 'gets' : 'has no'} the registry URL, credential and extension`, () => {
      const [, fn] = functionOfTask(task);
      const env = environmentOf(fn);
      const secrets = statementsOf(fn).filter((s) =>
        actionsOf(s).some((action) => action.startsWith('secretsmanager:')),
      );
      if (needs.has('registry')) {
        expect(env.REGISTRY_URL).toBe(DEFAULT_REGISTRY_URL);
        expect(JSON.stringify(env.REGISTRY_CREDENTIAL_ARN)).toContain('RegistryCredentialSecret');
        expect(actionsIn(secrets)).toEqual([SECRET_READ_ACTION]);
        expect(JSON.stringify(secrets.map((s) => s.Resource))).toContain('RegistryCredentialSecret');
        expect(JSON.stringify(fn.Properties.Layers ?? [])).toMatch(/Paramsandsecrets.*arm64/i);
      } else {
        expect(env).not.toHaveProperty('REGISTRY_URL');
        expect(env).not.toHaveProperty('REGISTRY_CREDENTIAL_ARN');
        expect(secrets).toEqual([]);
        expect(fn.Properties.Layers).toBeUndefined();
      }
    });

    it(`${needs.has('blobs') ? 'may read and write' : 'has no access to'} the orders bucket`, () => {
      const [, fn] = functionOfTask(task);
      const s3 = onBucket(statementsOf(fn));
      if (needs.has('blobs')) {
        expect(environmentOf(fn)).toHaveProperty(ORDERS_ENV.bucket);
        expect(actionsIn(s3)).toEqual([...BUCKET_OBJECT_ACTIONS.readWrite, 's3:ListBucket'].sort());
        const resources = JSON.stringify(s3.map((s) => s.Resource));
        for (const prefix of ORDER_BLOB_PREFIXES) expect(resources).toContain(`/${prefix}*`);
        expect(resources).not.toMatch(/Arn"\},"\/\*"/);
      } else {
        expect(environmentOf(fn)).not.toHaveProperty(ORDERS_ENV.bucket);
        expect(s3).toEqual([]);
      }
    });

    it(`${needs.has('mail') ? 'may send' : 'may not send'} email`, () => {
      const [, fn] = functionOfTask(task);
      const ses = statementsOf(fn).filter((s) => actionsOf(s).some((action) => SES_ACTION.test(action)));
      if (needs.has('mail')) {
        expect(environmentOf(fn)[PLATFORM_ENV.mailFrom]).toBe(DEFAULT_MAIL_FROM);
        expect(actionsIn(ses)).toEqual(['ses:SendEmail', 'ses:SendRawEmail']);
        const resources = JSON.stringify(ses.map((s) => s.Resource));
        expect(resources).toContain(`:identity/${DEFAULT_MAIL_FROM}`);
        expect(resources).toContain(`:identity/${DEFAULT_MAIL_FROM.split('@')[1]}`);
        expect(resources).not.toContain('*');
        expect(ses[0]).toMatchObject({
          Condition: { StringEquals: { 'ses:FromAddress': DEFAULT_MAIL_FROM } },
        });
      } else {
        expect(environmentOf(fn)).not.toHaveProperty(PLATFORM_ENV.mailFrom);
        expect(ses).toEqual([]);
      }
    });

    it(`${needs.has('events') ? 'may put events on the bus' : 'may not put events'}`, () => {
      const [, fn] = functionOfTask(task);
      const events = statementsOf(fn).filter((s) =>
        actionsOf(s).some((action) => EVENTS_ACTION.test(action)),
      );
      const env = environmentOf(fn);
      if (needs.has('events')) {
        expect(actionsIn(events)).toEqual(['events:PutEvents']);
        expect(events.map((s) => s.Resource)).toEqual([{ 'Fn::GetAtt': [busId(), 'Arn'] }]);
        expect(env[PLATFORM_ENV.eventBus]).toEqual({ Ref: busId() });
        expect(JSON.stringify(env[PLATFORM_ENV.apiBaseUrl])).toContain('.execute-api.');
      } else {
        expect(events).toEqual([]);
        expect(env).not.toHaveProperty(PLATFORM_ENV.eventBus);
      }
    });

    it('has no queue, workflow or X-Ray-less wildcard permission', () => {
      const [, fn] = functionOfTask(task);
      const statements = statementsOf(fn);
      expect(JSON.stringify(statements)).not.toMatch(/"(sqs|states):/);
      const wildcards = statements.filter((s) => JSON.stringify(s.Resource) === '"*"');
      expect(actionsIn(wildcards)).toEqual(['xray:PutTelemetryRecords', 'xray:PutTraceSegments']);
    });
  });

  describe('API routes', () => {
    const uses = (route: GrantedRoute, what: 'queue' | 'blobs' | 'monitoringQueue' | 'mailer') =>
      (route.uses ?? []).includes(what);

    it('include routes on each side of both switches', () => {
      for (const what of ['queue', 'blobs'] as const) {
        expect(
          routeList.some((route) => uses(route, what)),
          what,
        ).toBe(true);
        expect(
          routeList.some((route) => !uses(route, what)),
          what,
        ).toBe(true);
      }
    });

    it.each(routeList.map((route) => [route.name, route] as const))(
      '%s may send to the queue and read the bucket exactly as its `uses` says',
      (_, route) => {
        const fn = functionOfRoute(synth, route);
        const statements = statementsOf(fn);
        const env = environmentOf(fn);
        // The webhook dispatcher queue is checked in test/infra/webhooks.test.ts.
        const monitoringQueueId = logicalIdOf(synth.api, companyMonitoringOf(synth.api).queue);
        const onQueue = statements.filter(
          (s) =>
            actionsOf(s).some((action) => SQS_ACTION.test(action)) &&
            !JSON.stringify(s.Resource).includes(logicalIdOf(synth.api, webhooksOf(synth.api).queue)),
        );
        const sqs = onQueue.filter((s) => !JSON.stringify(s.Resource).includes(monitoringQueueId));
        // Company monitoring's queue: the import's chunks and the sandbox's events.
        const toMonitoring = onQueue.filter((s) => JSON.stringify(s.Resource).includes(monitoringQueueId));
        if (uses(route, 'monitoringQueue')) {
          expect(actionsIn(toMonitoring)).toEqual(['sqs:SendMessage']);
          expect(toMonitoring.map((s) => s.Resource)).toEqual([{ 'Fn::GetAtt': [monitoringQueueId, 'Arn'] }]);
        } else {
          expect(toMonitoring).toEqual([]);
        }
        if (uses(route, 'queue')) {
          expect(actionsIn(sqs)).toEqual(['sqs:SendMessage']);
          expect(sqs.map((s) => s.Resource)).toEqual([{ 'Fn::GetAtt': [queueId(), 'Arn'] }]);
          expect(env[ORDERS_ENV.queueUrl]).toEqual({ Ref: queueId() });
        } else {
          expect(sqs).toEqual([]);
          expect(env).not.toHaveProperty(ORDERS_ENV.queueUrl);
        }
        const s3 = onBucket(statements);
        if (uses(route, 'blobs')) {
          expect(actionsIn(s3)).toEqual([...BUCKET_OBJECT_ACTIONS.read, 's3:ListBucket'].sort());
          expect(env).toHaveProperty(ORDERS_ENV.bucket);
        } else {
          expect(s3).toEqual([]);
          expect(env).not.toHaveProperty(ORDERS_ENV.bucket);
        }
        // Console invitations and sign-in links are mailed by their routes (`uses: ['mailer']`).
        expect(JSON.stringify(statements)).not.toMatch(
          uses(route, 'mailer') ? /"(states|events):/ : /"(states|ses|events):/,
        );
      },
    );

    it('lets the download function read the bucket but never write to it', () => {
      const download = routeList.find((route) => route.name === 'DownloadOrder');
      expect(download).toBeDefined();
      const s3 = onBucket(statementsOf(functionOfRoute(synth, download as RouteDefinition)));
      expect(actionsIn(s3)).toContain('s3:GetObject');
      expect(actionsIn(s3).filter((action) => /Put|Delete|\*/.test(action))).toEqual([]);
    });

    it('tells every route function the API’s base URL (for downloadUrl)', () => {
      for (const route of routeList) {
        expect(functionDescription(route)).toContain(route.name);
        expect(
          JSON.stringify(environmentOf(functionOfRoute(synth, route))[PLATFORM_ENV.apiBaseUrl]),
        ).toContain('.execute-api.');
      }
    });

    it('treats every media type as binary (the download answers a base64 PDF, whatever the Accept header)', () => {
      const apis = Object.values(resourcesOf(api, 'AWS::ApiGateway::RestApi'));
      expect(apis).toHaveLength(1);
      expect(apis[0]?.Properties.BinaryMediaTypes).toEqual(['*/*']);
    });
  });

  describe('orders bucket (data stack)', () => {
    const bucketId = () => logicalIdOf(synth.data, synth.data.ordersBucketResource);
    const bucket = () => resourcesOf(data, 'AWS::S3::Bucket')[bucketId()] as TemplateResource;
    const logBucketId = () =>
      (bucket().Properties.LoggingConfiguration as { DestinationBucketName: { Ref: string } })
        .DestinationBucketName.Ref;

    it('is private, encrypted with S3-managed keys, ACL-free and retained', () => {
      expect(bucket().Properties).toMatchObject({
        PublicAccessBlockConfiguration: {
          BlockPublicAcls: true,
          BlockPublicPolicy: true,
          IgnorePublicAcls: true,
          RestrictPublicBuckets: true,
        },
        BucketEncryption: {
          ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }],
        },
        OwnershipControls: { Rules: [{ ObjectOwnership: 'BucketOwnerEnforced' }] },
      });
      expect(bucket().DeletionPolicy).toBe('Retain');
      expect(bucket().UpdateReplacePolicy).toBe('Retain');
    });

    it('expires orders/ and offline-searches/ after 30 days and aborts uploads after a day', () => {
      const rules = (bucket().Properties.LifecycleConfiguration as { Rules: Record<string, unknown>[] })
        .Rules;
      expect(ORDER_BLOB_RETENTION_DAYS).toBe(30);
      for (const prefix of ['orders/', 'offline-searches/']) {
        expect(rules).toContainEqual(
          expect.objectContaining({ Prefix: prefix, ExpirationInDays: 30, Status: 'Enabled' }),
        );
      }
      expect(rules).toContainEqual(
        expect.objectContaining({
          AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 },
          Status: 'Enabled',
        }),
      );
    });

    it('logs server access to a private, expiring, retained log bucket', () => {
      const logBucket = resourcesOf(data, 'AWS::S3::Bucket')[logBucketId()];
      expect(logBucket).toBeDefined();
      expect(logBucket?.Properties).toMatchObject({
        PublicAccessBlockConfiguration: { BlockPublicAcls: true, RestrictPublicBuckets: true },
        BucketEncryption: {
          ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }],
        },
        LifecycleConfiguration: {
          Rules: [expect.objectContaining({ ExpirationInDays: ACCESS_LOG_RETENTION_DAYS })],
        },
      });
      expect(logBucket?.Properties).not.toHaveProperty('AccessControl');
      expect(logBucket?.DeletionPolicy).toBe('Retain');
    });

    it.each([
      ['orders bucket', () => bucketId()],
      ['access log bucket', () => logBucketId()],
    ])('the %s refuses requests without TLS (and below TLS 1.2)', (_, id) => {
      const policies = Object.values(resourcesOf(data, 'AWS::S3::BucketPolicy')).filter(
        (policy) => JSON.stringify(policy.Properties.Bucket) === JSON.stringify({ Ref: id() }),
      );
      expect(policies).toHaveLength(1);
      const statements = policyStatements(policies[0]);
      expect(statements).toContainEqual(
        expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
      );
      expect(statements).toContainEqual(
        expect.objectContaining({ Effect: 'Deny', Condition: { NumericLessThan: { 's3:TlsVersion': 1.2 } } }),
      );
    });

    it('admits S3 log delivery to the log bucket by policy, for the orders bucket only', () => {
      const policy = Object.values(resourcesOf(data, 'AWS::S3::BucketPolicy')).find(
        (candidate) => JSON.stringify(candidate.Properties.Bucket) === JSON.stringify({ Ref: logBucketId() }),
      );
      const statements = policyStatements(policy);
      const delivery = statements.filter(
        (statement) => JSON.stringify(statement.Principal) === '{"Service":"logging.s3.amazonaws.com"}',
      );
      expect(delivery).toHaveLength(1);
      expect(JSON.stringify(delivery[0]?.Condition)).toContain(bucketId());
    });

    it('is shared with the API stack through named exports', () => {
      const outputs = data.findOutputs('*') as Record<string, { Export?: { Name: string } }>;
      expect(outputs.OrdersBucketName?.Export?.Name).toBe('CompanyRegister-dev-Data:OrdersBucketName');
      expect(outputs.OrdersBucketArn?.Export?.Name).toBe('CompanyRegister-dev-Data:OrdersBucketArn');
      const [, compilePdf] = functionOfTask(
        workflowTasks.find((task) => task.needs.includes('blobs')) as WorkflowTask,
      );
      expect(environmentOf(compilePdf)[ORDERS_ENV.bucket]).toEqual({
        'Fn::ImportValue': 'CompanyRegister-dev-Data:OrdersBucketName',
      });
    });
  });

  it('outputs the queue URLs, the state machine ARN and the bus name', () => {
    const outputs = Object.keys(api.findOutputs('*'));
    for (const name of [
      'FulfilmentQueueUrl',
      'FulfilmentDeadLetterQueueUrl',
      'FulfilmentStateMachineArn',
      'EventBusName',
    ])
      expect(outputs).toContain(name);
  });
});

describe('fulfilment settings', () => {
  it('names the bus and the state machine after -c stage and sends as -c mailFrom', () => {
    const synth = synthesize({ context: { stage: 'staging', mailFrom: 'orders@mail.example.test' } });
    synth.apiTemplate.hasResourceProperties('AWS::Events::EventBus', { Name: 'company-register-staging' });
    synth.apiTemplate.hasResourceProperties('AWS::StepFunctions::StateMachine', {
      StateMachineName: 'company-register-staging-fulfilment',
    });
    const mailer = workflowTasks.find((task) => task.needs.includes('mail')) as WorkflowTask;
    const [, fn] = functionWithDescription(synth.apiTemplate, taskDescription(mailer));
    expect(environmentOf(fn)[PLATFORM_ENV.mailFrom]).toBe('orders@mail.example.test');
    expect(JSON.stringify(statementsOfRole(synth.apiTemplate, roleOfFunction(fn)))).toContain(
      ':identity/mail.example.test',
    );
  }, 120_000);

  it('refuses a mailFrom that is not a bare address', () => {
    expect(() => synthesize({ context: { mailFrom: 'Orders <orders@example.test>' } })).toThrow(/mailFrom/);
  });
});
