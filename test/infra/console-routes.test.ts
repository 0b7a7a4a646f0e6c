/**
 * The console, deployed: its page, script and styles and the sign-in link's route without a key;
 * the key-holding operation and the session's routes through the pipeline; the functions that
 * write links, sessions and key changes granted the keys table, the page's functions no table; the
 * keys table expiring links and sessions by TTL; the built script copied next to its bundle.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import {
  chunkCommand,
  errorsPageCommand,
  MCP_CHUNK,
  mcpToolsCommand,
  SANDBOX_CHUNK,
  WEBAUTHN_CHUNK,
} from '../../lib/bundling.ts';
import { bundlingWithAssets } from '../../lib/constructs/api-function.ts';
import { CONSOLE_SCRIPT, CONSOLE_STYLES, consoleRoutes } from '../../shared/console/routes.ts';
import { tableDefinitions } from '../../shared/kernel/infra/tables.ts';
import {
  actionsOf,
  environmentOf,
  functionOfRoute,
  resourcePaths,
  resourcesOf,
  roleOfFunction,
  type Synthesized,
  statementsOfRole,
  synthesize,
} from './synth.ts';

const routes = Object.values(consoleRoutes);
const KEYS_ENV = tableDefinitions.keys.envVar;

describe('console routes, deployed', () => {
  let synth: Synthesized;
  beforeAll(() => {
    synth = synthesize();
  }, 120_000);

  it('each have their method on their path, behind the key authorizer unless public (the page sends its session marker)', () => {
    const paths = resourcePaths(synth.apiTemplate);
    const methods = Object.values(resourcesOf(synth.apiTemplate, 'AWS::ApiGateway::Method'));
    for (const route of routes) {
      const method = methods.find(
        (candidate) =>
          candidate.Properties.HttpMethod === route.method &&
          paths.get((candidate.Properties.ResourceId as { Ref: string }).Ref) === route.path,
      );
      expect(method?.Properties, `${route.method} ${route.path}`).toMatchObject({
        AuthorizationType: route.public ? 'NONE' : 'CUSTOM',
        OperationName: route.name,
        Integration: { Type: 'AWS_PROXY' },
      });
    }
  });

  it('grant writes to the keys table to the functions that make links, sessions and key changes only', () => {
    const writes = (route: (typeof routes)[number]) => {
      const fn = functionOfRoute(synth, route);
      const statements = statementsOfRole(synth.apiTemplate, roleOfFunction(fn));
      return {
        env: KEYS_ENV in environmentOf(fn),
        put: statements.some(
          (s) =>
            actionsOf(s).includes('dynamodb:PutItem') && JSON.stringify(s.Resource).includes('KeysTable'),
        ),
      };
    };
    for (const route of [
      consoleRoutes.createConsoleLink,
      consoleRoutes.signInWithConsoleLink,
      consoleRoutes.signOut,
      consoleRoutes.createKey,
      consoleRoutes.labelKey,
      consoleRoutes.rollKey,
      consoleRoutes.revokeKey,
    ])
      expect(writes(route), route.name).toEqual({ env: true, put: true });
    // The session is read like a key (GetItem only), a link's page reads its link; the page and its
    // files read no table at all.
    expect(writes(consoleRoutes.getConsoleSession)).toEqual({ env: true, put: false });
    expect(writes(consoleRoutes.openConsoleLink)).toEqual({ env: true, put: false });
    for (const route of [
      consoleRoutes.getConsolePage,
      consoleRoutes.getConsoleScript,
      consoleRoutes.getConsoleStyles,
    ]) {
      const env = environmentOf(functionOfRoute(synth, route));
      expect(
        Object.keys(env).filter((name) => /TABLE|SECRET|REGISTRY/.test(name)),
        route.name,
      ).toEqual([]);
    }
  });

  it('expire links and sessions by TTL in the keys table', () => {
    expect(tableDefinitions.keys.ttlAttribute).toBe('expiresAtEpoch');
    const tables = Object.values(resourcesOf(synth.dataTemplate, 'AWS::DynamoDB::Table'));
    const keys = tables.find((table) =>
      JSON.stringify(table.Properties.GlobalSecondaryIndexes ?? []).includes('byAccount'),
    );
    expect(keys?.Properties.TimeToLiveSpecification).toEqual({
      AttributeName: 'expiresAtEpoch',
      Enabled: true,
    });
  });

  it('copy the built script and the style sheet next to the bundles that serve them', () => {
    expect(consoleRoutes.getConsoleScript.assets).toEqual([CONSOLE_SCRIPT]);
    expect(
      bundlingWithAssets([CONSOLE_SCRIPT, CONSOLE_STYLES]).commandHooks?.afterBundling('/in', '/out'),
    ).toEqual([
      ...[SANDBOX_CHUNK, MCP_CHUNK, WEBAUTHN_CHUNK].map((chunk) => chunkCommand(chunk, '/in', '/out')),
      errorsPageCommand('/in', '/out'),
      mcpToolsCommand('/in', '/out'),
      'cp "/in/shared/console/dist/console.js" "/out/console.js"',
      'cp "/in/shared/console/client/console.css" "/out/console.css"',
    ]);
  });
});
