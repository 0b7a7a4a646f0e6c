/**
 * How the app is cut into stacks: every template (stack or nested stack) within the resource
 * budget, the stateful resources in the data stack only, and each route area's functions, methods
 * and invoke permissions in the area's nested stack of the API stack.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { areaStackId, functionDescription } from '../../lib/api-stack.ts';
import { MAX_TEMPLATE_RESOURCES } from '../../lib/app.ts';
import { pathForArn } from '../../lib/constructs/route-integration.ts';
import { latencyGroups } from '../../lib/monitoring-stack.ts';
import { checkRouteAreas, ROUTE_AREAS, type RouteArea } from '../../lib/routes.ts';
import { routeList } from '../../shared/app/routes.ts';
import type { GrantedRoute } from '../../shared/kernel/http/route.ts';
import { documentedResourceCounts, ownAreasOf, undocumentedCapabilities } from './new-capabilities.ts';
import {
  aliasOfFunction,
  resourcesOf,
  type Synthesized,
  type SynthesizedTemplate,
  synthesize,
} from './synth.ts';

/** As `cdk synth` writes them: the CLI turns version reporting on, which adds `CDKMetadata` to every template. */
const CLI_CONTEXT = { 'aws:cdk:version-reporting': true };

const resourceCount = (template: SynthesizedTemplate): number =>
  Object.keys(template.json.Resources ?? {}).length;

/** `<stack path>: <count> resources` for every template over `limit`. */
const overLimit = (synth: Synthesized, limit: number): string[] =>
  synth.templates
    .filter((template) => resourceCount(template) > limit)
    .map((template) => `${template.path}: ${resourceCount(template)} resources (limit ${limit})`);

const templateOf = (synth: Synthesized, path: string): SynthesizedTemplate => {
  const found = synth.templates.find((template) => template.path === path);
  if (!found) throw new Error(`no template for ${path}`);
  return found;
};

const areaTemplate = (synth: Synthesized, area: Pick<RouteArea, 'name'>): SynthesizedTemplate =>
  templateOf(synth, `${synth.api.node.path}/${areaStackId(area)}`);

const API = 'CompanyRegister-<stage>-Api';

/** The API's path resources of some routes: each prefix of each path (`v1`, `v1/monitors`, …). */
const pathResources = (routes: readonly { path: string }[]): Set<string> =>
  new Set(
    routes.flatMap(({ path }) => {
      const parts = path.split('/').filter(Boolean);
      return parts.map((_, index) => parts.slice(0, index + 1).join('/'));
    }),
  );

/**
 * What a capability whose area stack docs/infrastructure.md does not list adds, by rule (that page,
 * "Route areas"): its area stack, eleven resources a route on dev and thirteen on prod (function,
 * role, policy, log group, method, permission, its three alarms, version, `live` alias,
 * and on prod its deployment group and its new version's error-rate alarm) plus `CDKMetadata` (and on prod the
 * area's application and role); in the API stack its nested stack and the path resources no other
 * route has; in the Monitoring stack its latency alarms and its own alarms. So a new capability's
 * stacks are checked as soon as it is written, and the table only lists the app's own.
 */
function addedByNewCapabilities(prod: boolean): Record<string, number> {
  const added: Record<string, number> = {};
  const add = (path: string, count: number) => {
    added[path] = (added[path] ?? 0) + count;
  };
  for (const capability of undocumentedCapabilities()) {
    const area = ROUTE_AREAS.find((candidate) => candidate.name === ownAreasOf(capability)[0]?.name);
    if (!area) continue;
    const others = pathResources(
      ROUTE_AREAS.filter((other) => other !== area).flatMap((other) => other.routes),
    );
    const own = [...pathResources(area.routes)].filter((resource) => !others.has(resource));
    add(`${API}/${areaStackId(area)}`, prod ? 13 * area.routes.length + 3 : 11 * area.routes.length + 1);
    add(API, 1 + own.length);
    add(`${API}/Monitoring`, latencyGroups(area).length + Object.keys(capability.alarms ?? {}).length);
  }
  return added;
}

const typesIn = (template: SynthesizedTemplate): string[] =>
  [...new Set(Object.values(template.json.Resources ?? {}).map((resource) => String(resource.Type)))].sort();

/** Resource types that hold data; they belong in the data stack only. */
const STATEFUL_TYPES = [
  'AWS::DynamoDB::Table',
  'AWS::DynamoDB::GlobalTable',
  'AWS::S3::Bucket',
  'AWS::SecretsManager::Secret',
  'AWS::KMS::Key',
];

describe.each([
  ['dev', {}],
  ['prod (web ACL)', { stage: 'prod' }],
])('resource budget, %s', (_, context) => {
  let synth: Synthesized;
  beforeAll(() => {
    synth = synthesize({ context: { ...CLI_CONTEXT, ...context } });
  }, 120_000);

  it('knows every template the synth wrote (so a new stack or nested stack is counted too)', () => {
    const written = readdirSync(synth.outdir).filter((file) => file.endsWith('.template.json'));
    expect(synth.templates.map((template) => template.file).sort()).toEqual(written.sort());
    // Data, API, the API's Monitoring and CompanyMonitoring stacks and one stack per route area.
    expect(synth.templates.length).toBe(4 + ROUTE_AREAS.length);
  });

  it('matches the resource counts docs/infrastructure.md gives for each stack', () => {
    const documented = documentedResourceCounts();
    const prod = synth.api.node.path.includes('-prod-');
    const actual = Object.fromEntries(
      synth.templates.map((template) => [
        template.path.replace(/^CompanyRegister-[a-z0-9-]+?-(Data|Api)/, 'CompanyRegister-<stage>-$1'),
        resourceCount(template),
      ]),
    );
    const expected = Object.fromEntries(
      Object.entries(documented).map(([path, counts]) => [path, prod ? counts.prod : counts.dev]),
    );
    for (const [path, count] of Object.entries(addedByNewCapabilities(prod)))
      expected[path] = (expected[path] ?? 0) + count;
    expect(actual).toEqual(expected);
  });

  it(`keeps every template at or below ${MAX_TEMPLATE_RESOURCES} resources`, () => {
    expect(overLimit(synth, MAX_TEMPLATE_RESOURCES), 'templates over the budget').toEqual([]);
  });

  it('names the stack and its count when a template is over a limit (so the check above can fail)', () => {
    const api = templateOf(synth, synth.api.node.path);
    expect(overLimit(synth, resourceCount(api) - 1)).toContain(
      `${synth.api.node.path}: ${resourceCount(api)} resources (limit ${resourceCount(api) - 1})`,
    );
  });
});

describe('stack layout', () => {
  let synth: Synthesized;
  beforeAll(() => {
    synth = synthesize();
  }, 120_000);

  it('has two top-level stacks, the API stack depending on the data stack, and the areas nested in the API stack', () => {
    const manifest = JSON.parse(readFileSync(join(synth.outdir, 'manifest.json'), 'utf8')) as {
      artifacts: Record<string, { type: string; dependencies?: string[] }>;
    };
    const stacks = Object.entries(manifest.artifacts).filter(
      ([, artifact]) => artifact.type === 'aws:cloudformation:stack',
    );
    expect(stacks.map(([id]) => id).sort()).toEqual([synth.api.artifactId, synth.data.artifactId].sort());
    expect(manifest.artifacts[synth.api.artifactId]?.dependencies).toContain(synth.data.artifactId);
    // `cdk deploy --all` deploys the two stacks; the API stack's deploy publishes and deploys its
    // nested stacks' templates (assets of the API stack).
    const assets = JSON.parse(
      readFileSync(join(synth.outdir, `${synth.api.artifactId}.assets.json`), 'utf8'),
    ) as { files: Record<string, { source: { path: string } }> };
    const published = Object.values(assets.files).map((file) => file.source.path);
    expect([...synth.api.areas.keys()].sort()).toEqual(ROUTE_AREAS.map((area) => area.name).sort());
    for (const area of ROUTE_AREAS) expect(published).toContain(areaTemplate(synth, area).file);
  });

  it('keeps every stateful resource in the data stack', () => {
    for (const template of synth.templates) {
      if (template.stack === synth.data) continue;
      expect(
        typesIn(template).filter((type) => STATEFUL_TYPES.includes(type)),
        template.path,
      ).toEqual([]);
    }
  });

  it('keeps the REST API, its stage, gateway responses and the fulfilment tier in the API stack, and no route', () => {
    const api = templateOf(synth, synth.api.node.path);
    const types = typesIn(api);
    for (const type of [
      'AWS::ApiGateway::RestApi',
      'AWS::ApiGateway::Resource',
      'AWS::ApiGateway::Deployment',
      'AWS::ApiGateway::Stage',
      'AWS::ApiGateway::GatewayResponse',
      'AWS::ApiGateway::Account',
      'AWS::SQS::Queue',
      'AWS::StepFunctions::StateMachine',
      'AWS::Events::EventBus',
    ])
      expect(types, type).toContain(type);
    expect(types).not.toContain('AWS::ApiGateway::Method');
    const descriptions = new Set(routeList.map(functionDescription));
    const routeFunctions = Object.values(resourcesOf(synth.apiStackTemplate, 'AWS::Lambda::Function')).filter(
      (fn) => descriptions.has(String(fn.Properties.Description)),
    );
    expect(routeFunctions).toEqual([]);
  });

  describe.each(ROUTE_AREAS.map((area) => [area.name, area] as const))('area %s', (_, area) => {
    it('holds the function, version, live alias, method, invoke permission and alarms of each of its routes, and nothing else', () => {
      const template = areaTemplate(synth, area);
      // On dev the aliases move at once: no CodeDeploy (test/infra/deployments.test.ts has prod's).
      expect(typesIn(template)).toEqual([
        'AWS::ApiGateway::Method',
        'AWS::CloudWatch::Alarm',
        'AWS::IAM::Policy',
        'AWS::IAM::Role',
        'AWS::Lambda::Alias',
        'AWS::Lambda::Function',
        'AWS::Lambda::Permission',
        'AWS::Lambda::Version',
        'AWS::Logs::LogGroup',
      ]);
      const resources = Object.values(template.json.Resources ?? {});
      const ofType = (type: string) => resources.filter((resource) => resource.Type === type);
      expect(
        ofType('AWS::Lambda::Function')
          .map((fn) => fn.Properties?.Description)
          .sort(),
      ).toEqual(area.routes.map(functionDescription).sort());
      expect(
        ofType('AWS::ApiGateway::Method')
          .map((method) => method.Properties?.OperationName)
          .sort(),
      ).toEqual(area.routes.map((route) => route.name).sort());
      expect(ofType('AWS::Lambda::Permission')).toHaveLength(area.routes.length);
      expect(ofType('AWS::Lambda::Version')).toHaveLength(area.routes.length);
      expect(ofType('AWS::Lambda::Alias')).toHaveLength(area.routes.length);
      // Its errors, its throttles and its handled faults (test/infra/monitoring.test.ts checks what they watch).
      expect(ofType('AWS::CloudWatch::Alarm')).toHaveLength(3 * area.routes.length);
    });
  });

  it.each(routeList.map((route) => [route.name, route] as const))(
    "%s: API Gateway may invoke its function's live alias for its method, path and stage only",
    (_, route) => {
      const permissions = Object.values(resourcesOf(synth.apiTemplate, 'AWS::Lambda::Permission'));
      const [functionId] =
        Object.entries(resourcesOf(synth.apiTemplate, 'AWS::Lambda::Function')).find(
          ([, fn]) => fn.Properties.Description === functionDescription(route),
        ) ?? [];
      const own = permissions.filter(
        (permission) =>
          JSON.stringify(permission.Properties.FunctionName) ===
          JSON.stringify({ Ref: aliasOfFunction(synth.apiTemplate, functionId as string) }),
      );
      expect(own).toHaveLength(1);
      expect(own[0]?.Properties).toMatchObject({
        Action: 'lambda:InvokeFunction',
        Principal: 'apigateway.amazonaws.com',
      });
      // arn:<partition>:execute-api:<region>:<account>:<api id>/dev/<METHOD><path with * for params>
      const sourceArn = JSON.stringify(own[0]?.Properties.SourceArn);
      const apiId = Object.keys(resourcesOf(synth.apiStackTemplate, 'AWS::ApiGateway::RestApi'))[0];
      expect(sourceArn).toContain(`{"Ref":"${apiId}"},"/dev/${route.method}${pathForArn(route.path)}"]`);
    },
  );
});

describe('routes and areas', () => {
  const template = ROUTE_AREAS.find((area) => area.name === 'Orders')?.routes[0] as GrantedRoute;
  const extra: GrantedRoute = { ...template, name: 'TestOrderNotes', path: '/v1/orders/{orderId}/notes' };
  const withExtra = ROUTE_AREAS.map((area) =>
    area.name === 'Orders' ? { ...area, routes: [...area.routes, extra] } : area,
  );

  it('puts every route of the route table in exactly one area', () => {
    expect(
      checkRouteAreas(ROUTE_AREAS, routeList)
        .map((route) => route.name)
        .sort(),
    ).toEqual(routeList.map((route) => route.name).sort());
  });

  it('refuses a route in no area, a route in two areas and duplicate area names', () => {
    expect(() => checkRouteAreas(ROUTE_AREAS, [...routeList, extra])).toThrow(/TestOrderNotes/);
    expect(() => checkRouteAreas([...ROUTE_AREAS, { name: 'Again', routes: [template] }], routeList)).toThrow(
      new RegExp(`${template.name} is in two areas`),
    );
    expect(() => checkRouteAreas([...ROUTE_AREAS, { name: 'Orders', routes: [extra] }], routeList)).toThrow(
      /duplicate area Orders/,
    );
  });

  it('deploys a new route in its area’s stack, and the API stack’s deployment follows it', () => {
    const before = synthesize();
    const after = synthesize({ areas: withExtra });
    const functions = Object.values(areaTemplate(after, { name: 'Orders' }).json.Resources ?? {}).filter(
      (resource) => resource.Type === 'AWS::Lambda::Function',
    );
    expect(functions.map((fn) => fn.Properties?.Description)).toContain(functionDescription(extra));

    const deploymentOf = (synth: Synthesized) => {
      const deployments = Object.entries(resourcesOf(synth.apiStackTemplate, 'AWS::ApiGateway::Deployment'));
      expect(deployments).toHaveLength(1);
      return deployments[0] as [string, { DependsOn?: string[] }];
    };
    // A new logical id: CloudFormation creates a new deployment, and the stage moves to it.
    expect(deploymentOf(after)[0]).not.toBe(deploymentOf(before)[0]);
    // After every area stack, so that it deploys the methods as they now are.
    for (const area of after.api.areas.values()) {
      const stackResource = after.api.getLogicalId(
        area.nestedStackResource as NonNullable<typeof area.nestedStackResource>,
      );
      expect(deploymentOf(after)[1].DependsOn).toContain(stackResource);
    }
  }, 120_000);
});
