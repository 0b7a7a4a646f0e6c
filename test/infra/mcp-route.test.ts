/**
 * The MCP server, deployed (issue 43 part 2): POST /mcp is a route like any other, behind the key
 * authorizer, integrated with its own function's alias; the function reads the cursor signing
 * secret (quote tokens), knows the API's base URL (each tool call is a request to the route) and
 * is granted no table beyond the pipeline's own; its quotes price from the stage's schedule.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { PLATFORM_ENV } from '../../shared/kernel/infra/platform-env.ts';
import { PRICE_SCHEDULE_ENV } from '../../shared/kernel/prices.ts';
import { mcpRoutes } from '../../shared/mcp/routes.ts';
import { EXAMPLE_PRICE_SCHEDULE } from '../../shared/usage/prices.ts';
import {
  aliasOfFunction,
  environmentOf,
  functionOfRoute,
  grantsOf,
  resourcePaths,
  resourcesOf,
  type Synthesized,
  synthesize,
} from './synth.ts';

const route = mcpRoutes.mcp;
/** What every function's bundle defines, so that esbuild drops the route entries' response schemas (lib/bundling.ts). */
const RESPONSES_OMITTED = 'process.env.ROUTE_RESPONSES_OMITTED';

describe('/mcp, deployed', () => {
  let synth: Synthesized;
  beforeAll(() => {
    synth = synthesize();
  }, 120_000);

  it('walks from POST /mcp through the key authorizer to the MCP function', () => {
    const paths = resourcePaths(synth.apiTemplate);
    const methods = Object.values(resourcesOf(synth.apiTemplate, 'AWS::ApiGateway::Method')).filter(
      (m) =>
        m.Properties.HttpMethod === 'POST' &&
        paths.get((m.Properties.ResourceId as { Ref: string }).Ref) === '/mcp',
    );
    expect(methods).toHaveLength(1);
    const [authorizerId] = Object.keys(resourcesOf(synth.apiTemplate, 'AWS::ApiGateway::Authorizer'));
    const method = methods[0];
    expect(method?.Properties).toMatchObject({
      AuthorizationType: 'CUSTOM',
      AuthorizerId: { Ref: authorizerId },
      OperationName: route.name,
      Integration: { Type: 'AWS_PROXY', IntegrationHttpMethod: 'POST' },
    });
    const functions = resourcesOf(synth.apiTemplate, 'AWS::Lambda::Function');
    const fn = functionOfRoute(synth, route);
    const fnId = Object.entries(functions).find(
      ([, f]) => f.Properties.Description === fn.Properties.Description,
    )?.[0] as string;
    const uri = JSON.stringify((method?.Properties.Integration as { Uri?: unknown } | undefined)?.Uri);
    expect(uri).toContain(`/functions/",{"Ref":"${aliasOfFunction(synth.apiTemplate, fnId)}"},"/invocations`);
  });

  it('gives the function the API base URL and the signing secret, and no table of a capability', () => {
    const fn = functionOfRoute(synth, route);
    expect(environmentOf(fn)[PLATFORM_ENV.apiBaseUrl]).toBeDefined();
    const grants = grantsOf(synth);
    expect(grants.onSecret(route, 'cursor').length).toBeGreaterThan(0);
    expect(grants.onSecret(route, 'registryCredential')).toEqual([]);
    expect(grants.on(route, 'main')).toEqual([]);
    expect(grants.on(route, 'idempotency')).toEqual([]);
  });

  it("gives the function the stage's price schedule, which its quotes price from", () => {
    const schedule = environmentOf(functionOfRoute(synth, route))[PRICE_SCHEDULE_ENV];
    expect(JSON.parse(String(schedule))).toEqual(EXAMPLE_PRICE_SCHEDULE);
  });

  // A synth here skips bundling, so the options the area stack gave the function stand for the bundle.
  it("leaves the route entries' response schemas out of every function, the MCP server's too (its tools are worked out at bundling)", () => {
    const bundling = (name: string) => synth.api.functions.get(name)?.bundling;
    const names = [...synth.api.functions.keys()];
    expect(names).toContain(route.name);
    expect(names.length).toBeGreaterThan(10);
    for (const name of names)
      expect(bundling(name)?.define, name).toHaveProperty([RESPONSES_OMITTED], 'true');
  });
});
