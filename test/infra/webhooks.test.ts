/**
 * The webhook tier: the KMS key (data stack), the rule from the bus to the dispatcher queue, the
 * queue and its DLQ with an alarm, the dispatcher and the retry function with their grants, and
 * the grants of the webhook routes (API stack and its Webhooks area), on the synthesized templates.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { TABLE_ACTIONS } from '../../lib/constructs/api-function.ts';
import { grantsOf } from '../../shared/app/port-grants.ts';
import { DISPATCHER_DESCRIPTION, RETRY_DESCRIPTION } from '../../shared/webhooks/cdk/webhooks.ts';
import { WEBHOOK_ENV, WEBHOOK_LOCAL_ENV } from '../../shared/webhooks/infra.ts';
import { webhookRoutes } from '../../shared/webhooks/routes.ts';
import {
  actionsIn,
  actionsOf,
  aliasOfFunction,
  environmentOf,
  fulfilmentOf,
  functionOfRoute,
  functionWithDescription,
  logicalIdOf,
  type PolicyStatementJson,
  qualifiedNameOfAlias,
  resourcesOf,
  roleOfFunction,
  type Synthesized,
  statementsOfRole,
  synthesize,
  type TemplateResource,
  webhooksOf,
} from './synth.ts';

describe('webhooks (dev stage)', () => {
  let synth: Synthesized;
  let api: Synthesized['apiTemplate'];
  beforeAll(() => {
    synth = synthesize();
    api = synth.apiTemplate;
  }, 120_000);

  const idOf = (construct: Parameters<typeof logicalIdOf>[1]) => logicalIdOf(synth.api, construct);
  const statementsOf = (fn: TemplateResource) => statementsOfRole(api, roleOfFunction(fn));
  const keyId = () => logicalIdOf(synth.data, synth.data.node.findChild('WebhookSecretsKey'));
  const queueId = () => idOf(webhooksOf(synth.api).queue);
  const kmsOf = (statements: PolicyStatementJson[]) =>
    statements.filter((s) => actionsOf(s).some((action) => action.startsWith('kms:')));

  it('never lets a deployed function allow loopback receivers: no template sets the local-only variable', () => {
    expect(synth.templates.length).toBeGreaterThan(1);
    for (const { json } of synth.templates)
      expect(JSON.stringify(json)).not.toContain(WEBHOOK_LOCAL_ENV.allowLoopback);
  });

  it('keeps the secrets key in the data stack, rotated and retained', () => {
    const key = resourcesOf(synth.dataTemplate, 'AWS::KMS::Key')[keyId()];
    expect(key?.Properties).toMatchObject({ EnableKeyRotation: true });
    expect(key?.DeletionPolicy).toBe('Retain');
  });

  it('forwards every service event of the bus to the dispatcher queue, which has a DLQ and an alarm', () => {
    const rules = Object.values(resourcesOf(api, 'AWS::Events::Rule')).filter((rule) =>
      JSON.stringify(rule.Properties.Targets ?? []).includes(queueId()),
    );
    expect(rules).toHaveLength(1);
    expect(rules[0]?.Properties).toMatchObject({
      EventPattern: { source: ['company-register'] },
      EventBusName: { Ref: idOf(fulfilmentOf(synth.api).eventBus) },
    });
    const queue = resourcesOf(api, 'AWS::SQS::Queue')[queueId()];
    expect(queue?.Properties).toMatchObject({
      VisibilityTimeout: 180,
      RedrivePolicy: {
        maxReceiveCount: 5,
        deadLetterTargetArn: { 'Fn::GetAtt': [idOf(webhooksOf(synth.api).deadLetterQueue), 'Arn'] },
      },
    });
    const alarms = Object.values(resourcesOf(api, 'AWS::CloudWatch::Alarm')).filter((alarm) =>
      JSON.stringify(alarm.Properties).includes(idOf(webhooksOf(synth.api).deadLetterQueue)),
    );
    expect(alarms).toHaveLength(1);
  });

  it('runs the dispatcher from the queue with partial batch failures; it reads and writes the main table and may only decrypt with the key', () => {
    const [dispatcherId, dispatcher] = functionWithDescription(api, DISPATCHER_DESCRIPTION);
    const mappings = Object.values(resourcesOf(api, 'AWS::Lambda::EventSourceMapping')).filter(
      // The mapping invokes the dispatcher's live alias.
      (m) =>
        JSON.stringify(m.Properties.FunctionName) ===
        JSON.stringify(qualifiedNameOfAlias(aliasOfFunction(api, dispatcherId))),
    );
    expect(mappings).toHaveLength(1);
    expect(mappings[0]?.Properties).toMatchObject({
      BatchSize: 10,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
    expect(dispatcher.Properties.Timeout).toBe(30);
    const statements = statementsOf(dispatcher);
    expect(actionsIn(kmsOf(statements))).toEqual(['kms:Decrypt']);
    expect(JSON.stringify(kmsOf(statements).map((s) => s.Resource))).toContain(keyId());
    const dynamo = statements.filter((s) => actionsOf(s).some((a) => a.startsWith('dynamodb:')));
    expect(actionsIn(dynamo)).toEqual([...TABLE_ACTIONS.readWrite].sort());
    expect(environmentOf(dispatcher)[WEBHOOK_ENV.keyId]).toBeDefined();
    expect(JSON.stringify(statements)).not.toMatch(
      /states:|s3:|ses:|events:|secretsmanager:|sqs:SendMessage/,
    );
  });

  it('runs the retry function every minute; it may send to the dispatcher queue only', () => {
    const [retryId, retry] = functionWithDescription(api, RETRY_DESCRIPTION);
    const rules = Object.values(resourcesOf(api, 'AWS::Events::Rule')).filter((rule) =>
      // It invokes the retry function's live alias.
      JSON.stringify(rule.Properties.Targets).includes(`{"Ref":"${aliasOfFunction(api, retryId)}"}`),
    );
    expect(rules).toHaveLength(1);
    expect(rules[0]?.Properties).toMatchObject({ ScheduleExpression: 'rate(1 minute)', State: 'ENABLED' });
    const statements = statementsOf(retry);
    const sqs = statements.filter((s) => actionsOf(s).some((a) => a.startsWith('sqs:')));
    expect(actionsIn(sqs)).toEqual(['sqs:SendMessage']);
    // The dispatcher queue, and the failed-events queue its failed scheduled runs go to.
    expect(
      sqs
        .flatMap((s) => s.Resource as unknown[])
        .map((r) => JSON.stringify(r))
        .sort(),
    ).toEqual(
      [queueId(), idOf(synth.api.failedEvents.queue)]
        .map((id) => JSON.stringify({ 'Fn::GetAtt': [id, 'Arn'] }))
        .sort(),
    );
    expect(environmentOf(retry)[WEBHOOK_ENV.queueUrl]).toEqual({ Ref: queueId() });
    expect(kmsOf(statements)).toEqual([]);
  });

  it.each(Object.values(webhookRoutes).map((route) => [route.name, route] as const))(
    'route %s has exactly the key and queue grants its `uses` names',
    (_, route) => {
      const fn = functionOfRoute(synth, route);
      const statements = statementsOf(fn);
      const uses = new Set(grantsOf(route).uses);
      expect(actionsIn(kmsOf(statements))).toEqual(uses.has('sealer') ? ['kms:Encrypt'] : []);
      const sqs = statements.filter((s) => actionsOf(s).some((a) => a.startsWith('sqs:')));
      expect(actionsIn(sqs)).toEqual(uses.has('webhookQueue') ? ['sqs:SendMessage'] : []);
      expect(Object.hasOwn(environmentOf(fn), WEBHOOK_ENV.queueUrl)).toBe(uses.has('webhookQueue'));
      expect(Object.hasOwn(environmentOf(fn), WEBHOOK_ENV.keyId)).toBe(uses.has('sealer'));
    },
  );
});
