import { existsSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { BASELINE_TABLE_ACCESS, defaultEntryFor, functionDescription } from '../../lib/api-stack.ts';
import { KEY_AUTHORIZER_DESCRIPTION } from '../../lib/constructs/key-authorizer.ts';
import { CAPACITY_RESPONSE_TYPES, gatewayResponseMappings } from '../../lib/gateway-responses.ts';
import { signsWithCursorSecret } from '../../lib/routes.ts';
import { DEFAULT_REGISTRY_URL } from '../../lib/settings.ts';
import { STAGE_SETTINGS } from '../../lib/stages.ts';
import { routeList } from '../../shared/app/routes.ts';
import { consoleRoutes } from '../../shared/console/routes.ts';
import { bearerToken } from '../../shared/kernel/api-keys.ts';
import { catalogueEntry, type ErrorCode, errorCatalogue } from '../../shared/kernel/errors/catalogue.ts';
import { AUTHORIZER_CACHE_SECONDS, BEARER_HEADER_PATTERN } from '../../shared/kernel/http/authorizer.ts';
import { FUNCTION_UNAVAILABLE } from '../../shared/kernel/http/gateway-answers.ts';
import { type TableId, tableDefinitions } from '../../shared/kernel/infra/tables.ts';
import { LIMITS } from '../../shared/kernel/rate-limit.ts';
import { workflowTasks } from '../../shared/orders/infra.ts';
import {
  actionsIn,
  aliasOfFunction,
  resourcePaths,
  resourcesOf,
  roleOfFunction,
  routeFunctions,
  type Synthesized,
  statementsOfRole,
  synthesize,
  type TemplateResource,
} from './synth.ts';

const functionOf = (synth: Synthesized, description: string): [string, TemplateResource] => {
  const matches = Object.entries(resourcesOf(synth.apiTemplate, 'AWS::Lambda::Function')).filter(
    ([, fn]) => fn.Properties.Description === description,
  );
  expect(matches, description).toHaveLength(1);
  return matches[0] as [string, TemplateResource];
};

const environmentOf = (fn: TemplateResource): Record<string, unknown> =>
  (fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables;

/**
 * Seconds. Written out rather than imported: a function that calls the registry may wait 25 s for
 * an extract, and API Gateway's REST integration gives up at 29 s.
 */
const DEFAULT_TIMEOUT = 10;
const REGISTRY_TIMEOUT = 29;
const INTEGRATION_TIMEOUT_MS = 29_000;

describe('ApiStack functions', () => {
  let synth: Synthesized;
  beforeAll(() => {
    synth = synthesize();
  }, 120_000);

  it('has one Lambda function per route, and besides only the fulfilment, webhook, reference refresh and monitoring functions', () => {
    expect(routeList.length).toBeGreaterThan(0);
    expect(routeFunctions(synth, routeList)).toHaveLength(routeList.length);
    // One per workflow task, the starter and the sweeper (test/infra/fulfilment.test.ts), the
    // webhook dispatcher and retry function (test/infra/webhooks.test.ts), the reference refresh
    // (test/infra/reference-refresh.test.ts), the key authorizer (below), company monitoring's
    // starter and run (test/infra/company-monitoring.test.ts).
    synth.apiTemplate.resourceCountIs('AWS::Lambda::Function', routeList.length + workflowTasks.length + 8);
  });

  it('has a handler module under functions/ for every route', () => {
    const missing = routeList.filter((route) => !existsSync(defaultEntryFor(route))).map((r) => r.handler);
    expect(missing).toEqual([]);
  });

  describe.each(routeList.map((route) => [route.name, route] as const))('%s', (_, route) => {
    it('runs the route handler on nodejs22.x, arm64, with active tracing, the fixed defaults and its timeout', () => {
      const [, fn] = functionOf(synth, functionDescription(route));
      expect(defaultEntryFor(route)).toMatch(new RegExp(`/functions/${route.handler}\\.ts$`));
      expect(fn.Properties).toMatchObject({
        Handler: 'index.handler',
        Runtime: 'nodejs22.x',
        Architectures: ['arm64'],
        TracingConfig: { Mode: 'Active' },
        MemorySize: 512,
        Timeout: route.usesRegistry || route.longRunning ? REGISTRY_TIMEOUT : DEFAULT_TIMEOUT,
        LoggingConfig: { LogGroup: { Ref: expect.any(String) } },
      });
    });

    it('gets Powertools settings, the docs and API URLs and the env vars of its grants', () => {
      const [, fn] = functionOf(synth, functionDescription(route));
      const env = environmentOf(fn);
      // Source maps are shipped but not parsed at every cold start.
      expect(env.NODE_OPTIONS).toBeUndefined();
      expect(env).toMatchObject({
        POWERTOOLS_SERVICE_NAME: 'company-register',
        POWERTOOLS_METRICS_NAMESPACE: 'CompanyRegister',
        POWERTOOLS_LOG_LEVEL: 'INFO',
      });
      // https://<api id>.execute-api.<region>.<suffix>/dev, built from the RestApi's own id.
      const apiBaseUrl = JSON.stringify(env.API_BASE_URL);
      expect(apiBaseUrl).toContain('https://');
      expect(apiBaseUrl).toContain('.execute-api.');
      expect(apiBaseUrl).toMatch(/\/dev"\]\]\}$/);
      // Without a docsUrl setting, error links point at the stage's own /docs pages.
      expect(JSON.stringify(env.DOCS_URL)).toBe(apiBaseUrl.replace(/\/dev"\]\]\}$/, '/dev/docs"]]}'));
      // A public route (the contract and its docs) takes no key: no keys or limits table, unless
      // its own ports use the keys table (the console's link opening).
      expect(Object.hasOwn(env, tableDefinitions.keys.envVar)).toBe(
        !route.public || route.tables.keys !== undefined,
      );
      expect(Object.hasOwn(env, tableDefinitions.limits.envVar)).toBe(!route.public);
      for (const id of Object.keys(tableDefinitions) as TableId[]) {
        if (BASELINE_TABLE_ACCESS[id] !== undefined) continue;
        const envVar = tableDefinitions[id].envVar;
        expect(Object.hasOwn(env, envVar), envVar).toBe(route.tables[id] !== undefined);
      }
      expect(Object.hasOwn(env, 'CURSOR_SECRET_ARN')).toBe(signsWithCursorSecret(route));
      expect(Object.hasOwn(env, 'REGISTRY_CREDENTIAL_ARN')).toBe(route.usesRegistry === true);
      expect(env.REGISTRY_URL).toBe(route.usesRegistry ? DEFAULT_REGISTRY_URL : undefined);
    });
  });

  it('gives every function its own log group with the dev stage retention (a month)', () => {
    const logGroups = resourcesOf(synth.apiTemplate, 'AWS::Logs::LogGroup');
    for (const fn of Object.values(resourcesOf(synth.apiTemplate, 'AWS::Lambda::Function'))) {
      const ref = (fn.Properties.LoggingConfig as { LogGroup: { Ref: string } }).LogGroup.Ref;
      expect(logGroups[ref]?.Properties?.RetentionInDays).toBe(30);
    }
  });
});

describe('ApiStack REST API', () => {
  let synth: Synthesized;
  beforeAll(() => {
    synth = synthesize();
  }, 120_000);

  it("has exactly one method per route, at the route path, proxying to the route function's live alias", () => {
    const paths = resourcePaths(synth.apiTemplate);
    const methods = Object.values(resourcesOf(synth.apiTemplate, 'AWS::ApiGateway::Method'));
    const deployed = methods.map((method) => {
      const resourceId = method.Properties.ResourceId as { Ref?: string };
      return `${String(method.Properties.HttpMethod)} ${resourceId.Ref ? paths.get(resourceId.Ref) : '/'}`;
    });
    expect(deployed.sort()).toEqual(routeList.map((route) => `${route.method} ${route.path}`).sort());

    for (const route of routeList) {
      const [functionId] = functionOf(synth, functionDescription(route));
      const method = methods.find(
        (candidate) =>
          candidate.Properties.HttpMethod === route.method &&
          paths.get((candidate.Properties.ResourceId as { Ref: string }).Ref) === route.path,
      );
      expect(method?.Properties).toMatchObject({
        AuthorizationType: route.public ? 'NONE' : 'CUSTOM',
        OperationName: route.name,
        Integration: {
          Type: 'AWS_PROXY',
          IntegrationHttpMethod: 'POST',
          TimeoutInMillis: INTEGRATION_TIMEOUT_MS,
        },
      });
      expect(JSON.stringify(method?.Properties?.Integration)).toContain(
        `{"Ref":"${aliasOfFunction(synth.apiTemplate, functionId)}"}`,
      );
    }
  });

  it('lets every route function finish within its integration timeout (never runs on after a 504)', () => {
    const functions = routeFunctions(synth, routeList);
    const methods = Object.values(resourcesOf(synth.apiTemplate, 'AWS::ApiGateway::Method')).map((method) => {
      const integration = method.Properties.Integration as { TimeoutInMillis?: number };
      return { integration, text: JSON.stringify(integration) };
    });
    expect(functions).toHaveLength(routeList.length);
    for (const [logicalId, fn] of functions) {
      const alias = `"${aliasOfFunction(synth.apiTemplate, logicalId)}"`;
      const integrations = methods
        .filter(({ text }) => text.includes(alias))
        .map(({ integration }) => integration);
      expect(integrations, logicalId).toHaveLength(1);
      const timeoutMs = Number(fn.Properties.Timeout) * 1000;
      expect(timeoutMs, logicalId).toBeGreaterThan(0);
      expect(timeoutMs, logicalId).toBeLessThanOrEqual(integrations[0]?.TimeoutInMillis ?? 0);
    }
  });

  it('is regional and has no request validator (the functions validate with zod)', () => {
    synth.apiTemplate.hasResourceProperties('AWS::ApiGateway::RestApi', {
      EndpointConfiguration: { Types: ['REGIONAL'] },
    });
    synth.apiTemplate.resourceCountIs('AWS::ApiGateway::RequestValidator', 0);
  });

  it('traces, logs access as JSON, logs errors, records metrics and throttles the stage', () => {
    const stage = Object.values(resourcesOf(synth.apiTemplate, 'AWS::ApiGateway::Stage'))[0];
    expect(stage?.Properties).toMatchObject({
      StageName: 'dev',
      TracingEnabled: true,
      MethodSettings: [
        {
          HttpMethod: '*',
          ResourcePath: '/*',
          MetricsEnabled: true,
          LoggingLevel: 'ERROR',
          DataTraceEnabled: false,
          ThrottlingRateLimit: 100,
          ThrottlingBurstLimit: 200,
        },
      ],
    });
    const accessLog = stage?.Properties?.AccessLogSetting as { DestinationArn: unknown; Format: string };
    expect(accessLog.DestinationArn).toBeDefined();
    const format = JSON.parse(accessLog.Format) as Record<string, string>;
    expect(format).toMatchObject({ requestId: '$context.requestId', status: '$context.status' });
    expect(accessLog.Format).not.toMatch(/authorization|header/i);
  });

  it('creates the execution log group with a retention before the stage', () => {
    const [stageId, stage] =
      Object.entries(resourcesOf(synth.apiTemplate, 'AWS::ApiGateway::Stage'))[0] ?? [];
    const executionLogs = Object.entries(resourcesOf(synth.apiTemplate, 'AWS::Logs::LogGroup')).find(
      ([, group]) =>
        JSON.stringify(group.Properties.LogGroupName ?? '').includes('API-Gateway-Execution-Logs_'),
    );
    expect(stageId).toBeDefined();
    expect(executionLogs?.[1].Properties.RetentionInDays).toBe(30);
    expect(stage?.DependsOn).toContain(executionLogs?.[0]);
  });

  it('sets the account CloudWatch role so that API Gateway can write logs', () => {
    synth.apiTemplate.resourceCountIs('AWS::ApiGateway::Account', 1);
  });

  it('outputs the API URL', () => {
    synth.apiTemplate.hasOutput('ApiUrl', {});
  });
});

describe('ApiStack gateway responses', () => {
  const docsUrl = 'https://docs.example.test/api';
  let synth: Synthesized;
  beforeAll(() => {
    synth = synthesize({ context: { docsUrl: `${docsUrl}/` } });
  }, 120_000);

  const responseFor = (type: string): Record<string, unknown> => {
    const found = Object.values(resourcesOf(synth.apiTemplate, 'AWS::ApiGateway::GatewayResponse')).filter(
      (response) => response.Properties.ResponseType === type,
    );
    expect(found, type).toHaveLength(1);
    return found[0]?.Properties ?? {};
  };

  /** The body API Gateway sends, with its `$context` variables substituted. */
  const renderBody = (properties: Record<string, unknown>): { error: Record<string, unknown> } => {
    const template = (properties.ResponseTemplates as Record<string, string>)['application/json'] ?? '';
    return JSON.parse(
      template
        .replaceAll('$context.error.messageString', JSON.stringify('API Gateway "says" no'))
        .replaceAll('$context.requestId', 'c0ffee-1234'),
    ) as { error: Record<string, unknown> };
  };

  it.each(gatewayResponseMappings.map((mapping) => [mapping.type.responseType, mapping] as const))(
    '%s answers the error envelope of its catalogue code',
    (type, mapping) => {
      const properties = responseFor(type);
      const entry = catalogueEntry(mapping.code);
      expect(properties.StatusCode).toBe(String(mapping.status));
      expect(renderBody(properties)).toEqual({
        error: {
          type: mapping.errorType ?? entry.type,
          code: mapping.code,
          message: mapping.message === 'gateway' ? 'API Gateway "says" no' : entry.message,
          param: null,
          registryCode: null,
          // Spec 7.1: equal to X-Request-Id, which the header mapping below fills with the same id.
          requestId: 'c0ffee-1234',
          docUrl: `${docsUrl}/errors#${mapping.code}`,
        },
      });
      expect(properties.ResponseParameters).toMatchObject({
        'gatewayresponse.header.X-Request-Id': 'context.requestId',
        // Spec 8: on every response; no key was counted, so a key's limits with the window left.
        'gatewayresponse.header.RateLimit-Limit': "'600'",
        'gatewayresponse.header.RateLimit-Remaining': "'600'",
        'gatewayresponse.header.RateLimit-Reset': "'60'",
      });
    },
  );

  it('answers a request API Gateway finds too large with 400 request_too_large', () => {
    expect(responseFor('REQUEST_TOO_LARGE')).toMatchObject({ StatusCode: '400' });
    expect(renderBody(responseFor('REQUEST_TOO_LARGE')).error).toMatchObject({
      type: 'invalid_request_error',
      code: 'request_too_large',
      message: errorCatalogue.request_too_large.message,
    });
  });

  it('puts the same RateLimit and security headers on every gateway response in the template', () => {
    const responses = Object.values(resourcesOf(synth.apiTemplate, 'AWS::ApiGateway::GatewayResponse'));
    expect(responses).toHaveLength(gatewayResponseMappings.length);
    for (const response of responses) {
      expect(response.Properties.ResponseParameters, String(response.Properties.ResponseType)).toMatchObject({
        'gatewayresponse.header.Strict-Transport-Security': "'max-age=31536000; includeSubDomains'",
        'gatewayresponse.header.X-Content-Type-Options': "'nosniff'",
        'gatewayresponse.header.RateLimit-Limit': `'${LIMITS.requestsPerMinute}'`,
        'gatewayresponse.header.RateLimit-Remaining': `'${LIMITS.requestsPerMinute}'`,
        'gatewayresponse.header.RateLimit-Reset': `'${LIMITS.windowMs / 1000}'`,
      });
    }
  });

  it('answers every way capacity can run out with 429 or 503, Retry-After and the spec envelope, never a 500', () => {
    for (const type of CAPACITY_RESPONSE_TYPES) {
      const properties = responseFor(type.responseType);
      const status = Number(properties.StatusCode);
      const error = renderBody(properties).error;
      expect([429, 503], type.responseType).toContain(status);
      // Spec 7.2: 429 is rate_limit_error, 503 registry_unavailable_error; the code is a catalogue code.
      expect(error.type, type.responseType).toBe(
        status === 429 ? 'rate_limit_error' : 'registry_unavailable_error',
      );
      expect(Object.hasOwn(errorCatalogue, error.code as ErrorCode), type.responseType).toBe(true);
      expect(
        (properties.ResponseParameters as Record<string, string>)['gatewayresponse.header.Retry-After'],
        type.responseType,
      ).toMatch(/^'[1-9]\d*'$/);
    }
    // A Lambda throttle behind a proxy integration is an integration failure.
    expect(responseFor('INTEGRATION_FAILURE')).toMatchObject({
      StatusCode: '503',
      ResponseParameters: {
        'gatewayresponse.header.Retry-After': `'${FUNCTION_UNAVAILABLE.retryAfterSeconds}'`,
      },
    });
    expect(renderBody(responseFor('INTEGRATION_FAILURE')).error.code).toBe('service_unavailable');
    expect(renderBody(responseFor('AUTHORIZER_FAILURE')).error.code).toBe('service_unavailable');
    // The only 500 left is DEFAULT_5XX, which no throttle reaches (each has its own type above).
    const fiveHundreds = Object.values(resourcesOf(synth.apiTemplate, 'AWS::ApiGateway::GatewayResponse'))
      .filter((response) => response.Properties.StatusCode === '500')
      .map((response) => response.Properties.ResponseType);
    expect(fiveHundreds).toEqual(['DEFAULT_5XX']);
  });

  it('maps unknown routes to 404 route_not_found, throttling to 429 with Retry-After, 5XX to 500', () => {
    expect(responseFor('MISSING_AUTHENTICATION_TOKEN')).toMatchObject({ StatusCode: '404' });
    expect(renderBody(responseFor('MISSING_AUTHENTICATION_TOKEN')).error.code).toBe('route_not_found');
    expect(responseFor('THROTTLED')).toMatchObject({
      StatusCode: '429',
      ResponseParameters: { 'gatewayresponse.header.Retry-After': "'1'" },
    });
    expect(renderBody(responseFor('THROTTLED')).error).toMatchObject({
      type: 'rate_limit_error',
      code: 'rate_limited',
    });
    expect(renderBody(responseFor('UNAUTHORIZED')).error).toMatchObject({ type: 'authentication_error' });
    expect(responseFor('DEFAULT_5XX')).toMatchObject({
      StatusCode: '500',
      ResponseParameters: expect.objectContaining({ 'gatewayresponse.header.Retry-After': "'1'" }),
    });
    expect(renderBody(responseFor('DEFAULT_5XX')).error).toMatchObject({
      type: 'api_error',
      code: 'internal_error',
    });
  });

  it('passes the docs URL from context to every route function', () => {
    const functions = routeFunctions(synth, routeList);
    expect(functions).toHaveLength(routeList.length);
    for (const [, fn] of functions) expect(environmentOf(fn).DOCS_URL).toBe(docsUrl);
  });
});

describe('the edge check: no function runs for a request without a usable key', () => {
  let synth: Synthesized;
  beforeAll(() => {
    synth = synthesize({ context: { docsUrl: 'https://docs.example.test/api' } });
  }, 120_000);

  const authorizers = () => Object.entries(resourcesOf(synth.apiTemplate, 'AWS::ApiGateway::Authorizer'));

  it('puts the key authorizer on every keyed method, and none on the public documentation', () => {
    const [[authorizerId] = []] = authorizers();
    const paths = resourcePaths(synth.apiTemplate);
    const methods = Object.values(resourcesOf(synth.apiTemplate, 'AWS::ApiGateway::Method'));
    for (const route of routeList) {
      const method = methods.find(
        (candidate) =>
          candidate.Properties.HttpMethod === route.method &&
          paths.get((candidate.Properties.ResourceId as { Ref: string }).Ref) === route.path,
      );
      if (route.public) {
        expect(method?.Properties.AuthorizationType, route.name).toBe('NONE');
        expect(method?.Properties.AuthorizerId, route.name).toBeUndefined();
      } else {
        expect(method?.Properties, route.name).toMatchObject({
          AuthorizationType: 'CUSTOM',
          AuthorizerId: { Ref: authorizerId },
        });
      }
    }
  });

  it('has API Gateway refuse a missing or malformed bearer key itself, by the same rule as the functions', () => {
    expect(authorizers()).toHaveLength(1);
    const [, authorizer] = authorizers()[0] as [string, TemplateResource];
    expect(authorizer.Properties).toMatchObject({
      Type: 'TOKEN',
      IdentitySource: 'method.request.header.Authorization',
      IdentityValidationExpression: BEARER_HEADER_PATTERN,
      AuthorizerResultTtlInSeconds: AUTHORIZER_CACHE_SECONDS,
    });
    // What the gateway lets through is exactly what bearerToken accepts (shared/kernel/api-keys.ts).
    const gateway = new RegExp(BEARER_HEADER_PATTERN);
    for (const header of [
      'Bearer sk_test_localAccountA',
      'bearer   sk_live_abc123',
      'BEARER sk_test_X',
      `Bearer sk_live_${'a'.repeat(128)}`,
      '',
      'sk_test_abc',
      'Basic sk_test_abc',
      'Bearer sk_prod_abc',
      'Bearer sk_test_',
      'Bearer sk_test_ab-c',
      'Bearer sk_test_abc extra',
      `Bearer sk_live_${'a'.repeat(129)}`,
      'Bearersk_test_abc',
    ]) {
      expect(gateway.test(header), header).toBe(bearerToken(header) !== undefined);
    }
    // And a console session's edge token, which the authorizer looks up; no fixed value passes.
    expect(gateway.test(`Console-Session ${'0a'.repeat(32)}`)).toBe(true);
    for (const fixed of [
      'Console-Session',
      'Console-Session ',
      'console-session',
      `Console-Session ${'0a'.repeat(31)}`,
    ])
      expect(gateway.test(fixed), fixed).toBe(false);
  });

  it('walks every keyed route, console routes included, from its method to the authorizer function', () => {
    const [[authorizerId, authorizer] = []] = authorizers();
    // The authorizer invokes the key authorizer function's live alias, the function that looks up
    // keys and console sessions (functions/edge/authorize.ts → authorizeToken).
    const uri = JSON.stringify(authorizer?.Properties.AuthorizerUri);
    const [aliasId] = Object.entries(resourcesOf(synth.apiTemplate, 'AWS::Lambda::Alias')).find(([, alias]) =>
      JSON.stringify(alias.Properties.FunctionName).includes(
        functionOf(synth, KEY_AUTHORIZER_DESCRIPTION)[0],
      ),
    ) ?? [''];
    expect(aliasId).not.toBe('');
    expect(uri).toContain(aliasId);
    const paths = resourcePaths(synth.apiTemplate);
    const methods = Object.values(resourcesOf(synth.apiTemplate, 'AWS::ApiGateway::Method'));
    const consoleKeyed = Object.values(consoleRoutes).filter((route) => !route.public);
    expect(consoleKeyed.map((route) => route.name)).toEqual(
      expect.arrayContaining([
        'GetConsoleSession',
        'SignOutOfConsole',
        'CreateConsoleKey',
        'LabelConsoleKey',
        'RollConsoleKey',
        'RevokeConsoleKey',
      ]),
    );
    for (const route of [
      ...consoleKeyed,
      ...routeList.filter((r) => !r.public && r.path.startsWith('/v1/')),
    ]) {
      const method = methods.find(
        (candidate) =>
          candidate.Properties.HttpMethod === route.method &&
          paths.get((candidate.Properties.ResourceId as { Ref: string }).Ref) === route.path,
      );
      expect(method?.Properties.AuthorizerId, route.name).toEqual({ Ref: authorizerId });
    }
  });

  it('answers those refusals (UNAUTHORIZED, and ACCESS_DENIED for a denied key) with the 401 envelope', () => {
    const responses = Object.values(resourcesOf(synth.apiTemplate, 'AWS::ApiGateway::GatewayResponse'));
    for (const type of ['UNAUTHORIZED', 'ACCESS_DENIED']) {
      const response = responses.find((candidate) => candidate.Properties.ResponseType === type);
      expect(response?.Properties.StatusCode, type).toBe('401');
      const template = (response?.Properties.ResponseTemplates as Record<string, string> | undefined)?.[
        'application/json'
      ];
      const body = JSON.parse(template?.replaceAll('$context.requestId', 'id-1') ?? '{}') as {
        error: Record<string, unknown>;
      };
      expect(body.error).toMatchObject({
        type: 'authentication_error',
        code: 'unauthorized',
        requestId: 'id-1',
      });
      expect(response?.Properties.ResponseParameters).toEqual({
        'gatewayresponse.header.X-Request-Id': 'context.requestId',
        'gatewayresponse.header.Strict-Transport-Security': "'max-age=31536000; includeSubDomains'",
        'gatewayresponse.header.X-Content-Type-Options': "'nosniff'",
        // No key was counted: a key's limits with the whole window left (spec 8, "on every response").
        'gatewayresponse.header.RateLimit-Limit': `'${LIMITS.requestsPerMinute}'`,
        'gatewayresponse.header.RateLimit-Remaining': `'${LIMITS.requestsPerMinute}'`,
        'gatewayresponse.header.RateLimit-Reset': `'${LIMITS.windowMs / 1000}'`,
      });
    }
  });

  it('gives the authorizer function a GetItem on the keys table and nothing that writes', () => {
    const [, fn] = functionOf(synth, KEY_AUTHORIZER_DESCRIPTION);
    expect(fn.Properties).toMatchObject({ Timeout: 3, MemorySize: 256, Runtime: 'nodejs22.x' });
    const statements = statementsOfRole(synth.apiTemplate, roleOfFunction(fn));
    const actions = actionsIn(statements).filter(
      (action) => !action.startsWith('xray:') && !action.startsWith('logs:'),
    );
    expect(actions).toEqual(['dynamodb:GetItem']);
    expect(Object.keys(environmentOf(fn))).toContain(tableDefinitions.keys.envVar);
    expect(Object.keys(environmentOf(fn))).not.toContain(tableDefinitions.limits.envVar);
  });
});

describe('TLS and the stage throttle (prod)', () => {
  let synth: Synthesized;
  beforeAll(() => {
    synth = synthesize({ context: { stage: 'prod' } });
  }, 120_000);

  it('accepts TLS 1.2 or better only, in strict endpoint access mode, and logs the TLS version', () => {
    synth.apiTemplate.hasResourceProperties('AWS::ApiGateway::RestApi', {
      SecurityPolicy: 'SecurityPolicy_TLS13_1_2_PQ_2025_09',
      EndpointAccessMode: 'STRICT',
      DisableExecuteApiEndpoint: false,
    });
    const stage = Object.values(resourcesOf(synth.apiTemplate, 'AWS::ApiGateway::Stage'))[0];
    const format = JSON.parse(
      (stage?.Properties.AccessLogSetting as { Format: string } | undefined)?.Format ?? '{}',
    ) as Record<string, string>;
    expect(format).toMatchObject({ tlsVersion: '$context.tlsVersion', cipherSuite: '$context.cipherSuite' });
  });

  it('throttles the stage from its contracted capacity: every contracted key at its full rate at once', () => {
    const contracted = STAGE_SETTINGS.prod?.contractedKeys ?? 0;
    expect(contracted).toBeGreaterThan(10);
    const stage = Object.values(resourcesOf(synth.apiTemplate, 'AWS::ApiGateway::Stage'))[0];
    const [settings] = (stage?.Properties.MethodSettings ?? []) as Record<string, unknown>[];
    expect(settings).toMatchObject({
      ThrottlingRateLimit: (contracted * LIMITS.requestsPerMinute) / 60,
      ThrottlingBurstLimit: (2 * contracted * LIMITS.requestsPerMinute) / 60,
    });
  });
});

describe('a custom domain', () => {
  const domainName = 'api.company-register-data.net';
  const certificateArn =
    'arn:aws:acm:eu-west-2:111122223333:certificate/0b1c2d3e-aaaa-bbbb-cccc-0123456789ab';
  let synth: Synthesized;
  beforeAll(() => {
    synth = synthesize({ context: { stage: 'prod', domainName, certificateArn } });
  }, 120_000);

  it('serves the API on the domain only, with the same TLS policy, the execute-api endpoint disabled', () => {
    synth.apiTemplate.hasResourceProperties('AWS::ApiGateway::RestApi', { DisableExecuteApiEndpoint: true });
    synth.apiTemplate.hasResourceProperties('AWS::ApiGateway::DomainName', {
      DomainName: domainName,
      RegionalCertificateArn: certificateArn,
      SecurityPolicy: 'SecurityPolicy_TLS13_1_2_PQ_2025_09',
      EndpointAccessMode: 'STRICT',
    });
    synth.apiTemplate.resourceCountIs('AWS::ApiGateway::BasePathMapping', 1);
    // Download links and error docUrls name the domain, the only address that answers.
    const [, fn] = functionOf(
      synth,
      functionDescription(routeList.find((route) => !route.public) as (typeof routeList)[number]),
    );
    expect(environmentOf(fn).API_BASE_URL).toBe(`https://${domainName}`);
    expect(environmentOf(fn).DOCS_URL).toBe(`https://${domainName}/docs`);
  });
});
