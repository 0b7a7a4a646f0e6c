/**
 * Alarms that reach someone: on the synthesized prod templates, every alarm of every template
 * (stack or nested stack) is walked from its actions to the topic they name (through the nested
 * stacks' parameters), to the topic's policy (which must let CloudWatch publish for that very
 * alarm, in this account, and deny it nothing), to the topic's key when it has one (which must let
 * CloudWatch use it), and to a subscription. A topic policy replaces SNS's default one, so without
 * the allow statement every alarm would fail to publish.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { STAGE_SETTINGS } from '../../lib/stages.ts';
import { type Synthesized, type SynthesizedTemplate, synthesize } from './synth.ts';

type Json = unknown;
interface Resource {
  readonly Type: string;
  readonly Properties?: Record<string, Json>;
}
interface Statement {
  readonly Effect: 'Allow' | 'Deny';
  readonly Principal?: { Service?: string | string[] } | string;
  readonly Action: string | string[];
  readonly Resource?: Json;
  readonly Condition?: Record<string, Record<string, Json>>;
}

const list = <T>(value: T | T[] | undefined): T[] =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];

/** A CloudFormation value with its `Ref`s of pseudo parameters and `Fn::Join`s evaluated, or undefined. */
function evaluate(value: Json, pseudo: Readonly<Record<string, string>>): string | undefined {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object' && 'Ref' in value) return pseudo[(value as { Ref: string }).Ref];
  if (value && typeof value === 'object' && 'Fn::Join' in value) {
    const [separator, parts] = (value as { 'Fn::Join': [string, Json[]] })['Fn::Join'];
    const evaluated = parts.map((part) => evaluate(part, pseudo));
    return evaluated.every((part) => part !== undefined) ? evaluated.join(separator) : undefined;
  }
  return undefined;
}

const globMatches = (pattern: string, value: string): boolean =>
  new RegExp(
    `^${pattern
      .split('*')
      .map((part) => part.replace(/[.?+^$()[\]{}|\\]/g, '\\$&'))
      .join('.*')}$`,
  ).test(value);

/**
 * What a template's value refers to in the template that owns the resource: a `Ref` to a nested
 * stack's parameter is followed to the value its parent passes, up to the stack that has it.
 */
function follow(
  templates: readonly SynthesizedTemplate[],
  at: SynthesizedTemplate,
  value: Json,
): { template: SynthesizedTemplate; value: Json } {
  const ref =
    value && typeof value === 'object' && 'Ref' in value ? (value as { Ref: string }).Ref : undefined;
  if (!ref || !Object.hasOwn(at.json.Parameters ?? {}, ref)) return { template: at, value };
  const parentStack = at.stack.nestedStackParent;
  const stackResource = at.stack.nestedStackResource;
  if (!parentStack || !stackResource) return { template: at, value };
  const parent = templates.find((template) => template.stack === parentStack);
  if (!parent) throw new Error(`no template for the parent of ${at.path}`);
  const passed = parent.json.Resources?.[parentStack.getLogicalId(stackResource)]?.Properties?.Parameters as
    | Record<string, Json>
    | undefined;
  if (!passed || !Object.hasOwn(passed, ref))
    throw new Error(`${parent.path} passes no ${ref} to ${at.path}`);
  return follow(templates, parent, passed[ref]);
}

const refersTo = (value: Json, logicalId: string): boolean =>
  JSON.stringify(value) === JSON.stringify({ Ref: logicalId });

const allowsService = (statement: Statement, service: string): boolean =>
  typeof statement.Principal === 'object' && list(statement.Principal.Service).includes(service);

const grants = (statement: Statement, action: string): boolean =>
  list(statement.Action).some((granted) => globMatches(granted, action));

/** Why CloudWatch could not publish `alarmArn` to the topic `topicId` of `template`, or undefined when it can. */
function publishProblem(
  template: SynthesizedTemplate,
  topicId: string,
  alarmArn: string,
  pseudo: Record<string, string>,
): string | undefined {
  const resources = (template.json.Resources ?? {}) as Record<string, Resource>;
  const topic = resources[topicId];
  if (topic?.Type !== 'AWS::SNS::Topic') return `${topicId} is not a topic of ${template.path}`;
  const statements = Object.values(resources)
    .filter((resource) => resource.Type === 'AWS::SNS::TopicPolicy')
    .filter((policy) => list(policy.Properties?.Topics as Json[]).some((t) => refersTo(t, topicId)))
    .flatMap(
      (policy) =>
        (policy.Properties?.PolicyDocument as { Statement: Statement[] } | undefined)?.Statement ?? [],
    );
  if (statements.length === 0) return 'the topic has no policy: SNS would apply its default one';

  const allow = statements.find((statement) => {
    if (statement.Effect !== 'Allow' || !allowsService(statement, 'cloudwatch.amazonaws.com')) return false;
    if (!grants(statement, 'sns:Publish')) return false;
    if (!list(statement.Resource).some((resource) => refersTo(resource, topicId))) return false;
    const account = evaluate(statement.Condition?.StringEquals?.['aws:SourceAccount'], pseudo);
    const source = evaluate(statement.Condition?.ArnLike?.['aws:SourceArn'], pseudo);
    return account === pseudo['AWS::AccountId'] && source !== undefined && globMatches(source, alarmArn);
  });
  if (!allow)
    return 'no statement allows cloudwatch.amazonaws.com to publish for this alarm, in this account';
  // A Deny wins over any Allow: the only one allowed here refuses requests without TLS, which
  // CloudWatch always uses.
  for (const statement of statements.filter((s) => s.Effect === 'Deny')) {
    const conditions = JSON.stringify(statement.Condition ?? {});
    if (conditions !== JSON.stringify({ Bool: { 'aws:SecureTransport': 'false' } }))
      return `a Deny statement could refuse CloudWatch: ${JSON.stringify(statement)}`;
  }

  const keyId = topic.Properties?.KmsMasterKeyId;
  if (keyId !== undefined) {
    const key = Object.entries(resources).find(([id]) => JSON.stringify(keyId).includes(`"${id}"`))?.[1];
    if (key?.Type !== 'AWS::KMS::Key')
      return `the topic's key ${JSON.stringify(keyId)} is not a key of this template`;
    const keyStatements =
      (key.Properties?.KeyPolicy as { Statement: Statement[] } | undefined)?.Statement ?? [];
    for (const action of ['kms:Decrypt', 'kms:GenerateDataKey']) {
      if (
        !keyStatements.some(
          (s) => s.Effect === 'Allow' && allowsService(s, 'cloudwatch.amazonaws.com') && grants(s, action),
        )
      )
        return `the topic's key does not let CloudWatch ${action}`;
    }
  }
  return undefined;
}

function subscriptionsOf(template: SynthesizedTemplate, topicId: string): Record<string, Json>[] {
  return Object.values((template.json.Resources ?? {}) as Record<string, Resource>)
    .filter(
      (resource) =>
        resource.Type === 'AWS::SNS::Subscription' && refersTo(resource.Properties?.TopicArn, topicId),
    )
    .map((resource) => resource.Properties ?? {});
}

interface Walked {
  readonly alarm: string;
  readonly template: string;
  readonly problems: string[];
  readonly subscriptions: number;
}

function walkAlarms(synth: Synthesized, pseudo: Record<string, string>): Walked[] {
  const walked: Walked[] = [];
  for (const template of synth.templates) {
    for (const resource of Object.values((template.json.Resources ?? {}) as Record<string, Resource>)) {
      if (resource.Type !== 'AWS::CloudWatch::Alarm') continue;
      const name = resource.Properties?.AlarmName as string;
      const alarmArn = `arn:${pseudo['AWS::Partition']}:cloudwatch:${pseudo['AWS::Region']}:${pseudo['AWS::AccountId']}:alarm:${name}`;
      const actions = [
        ...list(resource.Properties?.AlarmActions as Json[]),
        ...list(resource.Properties?.OKActions as Json[]),
      ];
      const problems: string[] = actions.length === 0 ? ['the alarm has no action'] : [];
      let subscriptions = Number.POSITIVE_INFINITY;
      for (const action of actions) {
        const target = follow(synth.templates, template, action);
        const topicId = (target.value as { Ref?: string }).Ref;
        if (!topicId) {
          problems.push(`action ${JSON.stringify(action)} names no topic of this app`);
          continue;
        }
        const problem = publishProblem(target.template, topicId, alarmArn, pseudo);
        if (problem) problems.push(problem);
        subscriptions = Math.min(subscriptions, subscriptionsOf(target.template, topicId).length);
      }
      walked.push({
        alarm: name,
        template: template.path,
        problems,
        subscriptions: actions.length ? subscriptions : 0,
      });
    }
  }
  return walked;
}

describe('every alarm of the prod templates can notify someone', () => {
  const prod = STAGE_SETTINGS.prod;
  const pseudo = {
    'AWS::Partition': 'aws',
    'AWS::Region': prod?.region ?? '',
    'AWS::AccountId': prod?.account ?? '',
    'AWS::URLSuffix': 'amazonaws.com',
  };
  let synth: Synthesized;
  let walked: Walked[];
  beforeAll(() => {
    synth = synthesize({ context: { stage: 'prod' } });
    walked = walkAlarms(synth, pseudo);
  }, 120_000);

  it('walks alarms in the API stack and in nested stacks', () => {
    expect(walked.length).toBeGreaterThan(100);
    expect(new Set(walked.map((w) => w.template)).size).toBeGreaterThan(2);
  });

  it('lets CloudWatch publish every alarm to the topic its actions name', () => {
    expect(walked.filter((w) => w.problems.length > 0)).toEqual([]);
  });

  it('has a subscriber on the topic of every alarm (the committed alarmEmail)', () => {
    expect(walked.filter((w) => w.subscriptions < 1)).toEqual([]);
    const topicTemplate = synth.templates.find((t) => t.stack === synth.api);
    const subscriptions = Object.values(
      (topicTemplate?.json.Resources ?? {}) as Record<string, Resource>,
    ).filter((resource) => resource.Type === 'AWS::SNS::Subscription');
    expect(subscriptions.map((s) => [s.Properties?.Protocol, s.Properties?.Endpoint])).toEqual([
      ['email', prod?.alarmEmail],
    ]);
  });

  it('fails the walk when the allow statement is missing or scoped to another stage', () => {
    // The same walk over a copy of the topic policy without its allow statement, and with it
    // naming another stage's alarms: both must be reported, so the test above can fail.
    const topicTemplate = synth.templates.find((t) => t.stack === synth.api) as SynthesizedTemplate;
    const resources = topicTemplate.json.Resources as Record<string, Resource>;
    const [policyId, policy] = Object.entries(resources).find(
      ([, r]) => r.Type === 'AWS::SNS::TopicPolicy',
    ) as [string, Resource];
    const document = policy.Properties?.PolicyDocument as { Statement: Statement[] };
    const alarm = walked[0] as Walked;
    const alarmArn = `arn:aws:cloudwatch:${pseudo['AWS::Region']}:${pseudo['AWS::AccountId']}:alarm:${alarm.alarm}`;
    const topicId = JSON.stringify(policy.Properties?.Topics).match(/"Ref":"([^"]+)"/)?.[1] as string;
    const withStatements = (statements: Statement[]): SynthesizedTemplate => ({
      ...topicTemplate,
      json: {
        ...topicTemplate.json,
        Resources: {
          ...resources,
          [policyId]: {
            ...policy,
            Properties: { ...policy.Properties, PolicyDocument: { ...document, Statement: statements } },
          },
        },
      },
    });
    expect(publishProblem(withStatements(document.Statement), topicId, alarmArn, pseudo)).toBeUndefined();
    expect(
      publishProblem(
        withStatements(document.Statement.filter((s) => s.Effect === 'Deny')),
        topicId,
        alarmArn,
        pseudo,
      ),
    ).toMatch(/no statement allows cloudwatch/);
    const otherStage = JSON.parse(
      JSON.stringify(document.Statement).replaceAll('company-register-prod-', 'company-register-dev-'),
    ) as Statement[];
    expect(publishProblem(withStatements(otherStage), topicId, alarmArn, pseudo)).toMatch(
      /no statement allows cloudwatch/,
    );
  });
});
