import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { functionDescription } from '../../lib/api-stack.ts';
import { TABLE_ACTIONS } from '../../lib/constructs/api-function.ts';
import { tableConstructId } from '../../lib/data-stack.ts';
import { paginates } from '../../lib/routes.ts';
import type { RouteDefinition } from '../../shared/http/route.ts';
import { routeList } from '../../shared/http/routes.ts';
import type { TableId } from '../../shared/infra/tables.ts';
import { tableDefinitions } from '../../shared/infra/tables.ts';
import {
  actionsOf,
  logicalIdOf,
  type PolicyStatementJson,
  resourcesOf,
  roleOfFunction,
  type Synthesized,
  statementsOfRole,
  synthesize,
} from './synth.ts';

const WRITE_ACTION = /^dynamodb:(PutItem|UpdateItem|DeleteItem|BatchWriteItem|\*)$/;

/** Two routes that exist only in this test, to exercise the `tables` grants and pagination. */
const template = routeList[0] as RouteDefinition;
const mainReader: RouteDefinition = {
  ...template,
  name: 'TestMainReader',
  method: 'GET',
  path: '/v1/test/main-reader/{value}',
  request: { path: z.object({ value: z.string() }), query: z.strictObject({}) },
  tables: { main: 'read' },
};
const mainWriter: RouteDefinition = {
  ...template,
  name: 'TestMainWriter',
  method: 'POST',
  path: '/v1/test/main-writer',
  request: { path: z.strictObject({}), query: z.strictObject({ cursor: z.string().optional() }) },
  tables: { main: 'readWrite', keys: 'read' },
};
const testRoutes = [...routeList, mainReader, mainWriter];

interface Grants {
  readonly synth: Synthesized;
  /** Policy statements of a route's function role. */
  statements(route: RouteDefinition): PolicyStatementJson[];
  /** The statements among them whose resources name the table. */
  on(route: RouteDefinition, table: TableId): PolicyStatementJson[];
  /** The statements among them whose resources name the cursor secret. */
  onSecret(route: RouteDefinition): PolicyStatementJson[];
}

function grantsOf(synth: Synthesized): Grants {
  const functions = resourcesOf(synth.apiTemplate, 'AWS::Lambda::Function');
  const statements = (route: RouteDefinition): PolicyStatementJson[] => {
    const fn = Object.values(functions).find((f) => f.Properties.Description === functionDescription(route));
    if (!fn) throw new Error(`no function for ${route.name}`);
    return statementsOfRole(synth.apiTemplate, roleOfFunction(fn));
  };
  // Cross-stack references are imports whose export names contain the data stack's logical ids.
  const naming = (logicalId: string) => (statement: PolicyStatementJson) =>
    JSON.stringify(statement.Resource).includes(logicalId);
  const tableIds = Object.fromEntries(
    (Object.keys(tableDefinitions) as TableId[]).map((id) => [
      id,
      logicalIdOf(synth.data, synth.data.node.findChild(tableConstructId(id))),
    ]),
  ) as Record<TableId, string>;
  const secretId = logicalIdOf(synth.data, synth.data.node.findChild('CursorSigningSecret'));
  return {
    synth,
    statements,
    on: (route, table) => statements(route).filter(naming(tableIds[table])),
    onSecret: (route) => statements(route).filter(naming(secretId)),
  };
}

const actions = (statements: PolicyStatementJson[]): string[] =>
  [...new Set(statements.flatMap(actionsOf))].sort();

describe('paginates', () => {
  const withQuery = (query: z.ZodType): RouteDefinition => ({
    ...template,
    request: { path: z.object({}), query },
  });

  it('is true when the query schema is an object with a cursor key', () => {
    expect(paginates(withQuery(z.object({ cursor: z.string().optional() })))).toBe(true);
    expect(paginates(withQuery(z.strictObject({ limit: z.string(), cursor: z.string() })))).toBe(true);
    expect(paginates(withQuery(z.object({ cursor: z.string() }).transform((q) => q)))).toBe(true);
  });

  it('is false otherwise', () => {
    expect(paginates(withQuery(z.strictObject({})))).toBe(false);
    expect(paginates(withQuery(z.object({ limit: z.string() })))).toBe(false);
    expect(paginates(withQuery(z.string()))).toBe(false);
  });

  it('agrees with the query schemas of the shared routes', () => {
    for (const route of routeList) {
      const shape = route.request.query instanceof z.ZodObject ? route.request.query.shape : {};
      if (Object.hasOwn(shape, 'cursor')) expect(paginates(route), route.name).toBe(true);
    }
  });
});

describe('function grants', () => {
  let grants: Grants;
  beforeAll(() => {
    grants = grantsOf(synthesize({ routes: testRoutes }));
  }, 120_000);

  describe.each(testRoutes.map((route) => [route.name, route] as const))('%s', (_, route) => {
    it('may read the keys table but never write to it', () => {
      const onKeys = grants.on(route, 'keys');
      expect(actions(onKeys)).toContain('dynamodb:GetItem');
      expect(actions(onKeys).filter((action) => WRITE_ACTION.test(action))).toEqual([]);
      if (route.tables.keys === undefined) {
        expect(actions(onKeys)).toEqual(['dynamodb:GetItem']);
        expect(JSON.stringify(onKeys.map((s) => s.Resource))).not.toContain('/index/');
      }
    });

    it('may read and write the limits table (item actions only)', () => {
      // Statements are minimized (merged) across tables, so the actions on a table are those of
      // every statement that names it.
      expect(actions(grants.on(route, 'limits'))).toEqual([...TABLE_ACTIONS.readWrite].sort());
    });

    it('reaches the main table only when the route table says so, with exactly that access', () => {
      const onMain = grants.on(route, 'main');
      const access = route.tables.main;
      if (access === undefined) {
        expect(onMain).toEqual([]);
      } else {
        expect(actions(onMain)).toEqual([...TABLE_ACTIONS[access]].sort());
        // Each index is named: no `/index/*` wildcard.
        const resources = JSON.stringify(onMain.map((s) => s.Resource));
        for (const index of tableDefinitions.main.globalIndexes)
          expect(resources).toContain(`/index/${index.indexName}`);
        expect(resources).not.toContain('/index/*');
      }
    });

    it('never scans a table', () => {
      expect(actions(grants.statements(route))).not.toContain('dynamodb:Scan');
    });

    it('reads the cursor secret only if it paginates, through the Parameters and Secrets extension', () => {
      const paginating = paginates(route);
      const onSecret = actions(grants.onSecret(route));
      if (paginating) expect(onSecret).toContain('secretsmanager:GetSecretValue');
      else expect(onSecret).toEqual([]);
      const fn = Object.values(resourcesOf(grants.synth.apiTemplate, 'AWS::Lambda::Function')).find(
        (f) => f.Properties.Description === functionDescription(route),
      );
      if (!fn) throw new Error(`no function for ${route.name}`);
      const layers = JSON.stringify(fn.Properties.Layers ?? []);
      const env = (fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
      if (paginating) {
        expect(layers).toMatch(/Paramsandsecrets.*arm64/i);
        expect(env).toHaveProperty('CURSOR_SECRET_ARN');
      } else {
        expect(layers).toBe('[]');
        expect(env).not.toHaveProperty('CURSOR_SECRET_ARN');
      }
    });

    it('has Resource "*" only for the X-Ray actions', () => {
      const wildcards = grants.statements(route).filter((s) => JSON.stringify(s.Resource) === '"*"');
      expect(actions(wildcards)).toEqual(['xray:PutTelemetryRecords', 'xray:PutTraceSegments']);
    });
  });

  it('function roles carry no managed policy (logs go to each function’s own log group only)', () => {
    const roles = resourcesOf(grants.synth.apiTemplate, 'AWS::IAM::Role');
    for (const fn of Object.values(resourcesOf(grants.synth.apiTemplate, 'AWS::Lambda::Function'))) {
      const role = roles[roleOfFunction(fn)];
      expect(role?.Properties?.ManagedPolicyArns).toBeUndefined();
      const logs = statementsOfRole(grants.synth.apiTemplate, roleOfFunction(fn)).filter((s) =>
        actionsOf(s).some((a) => a.startsWith('logs:')),
      );
      expect(actions(logs)).toEqual(['logs:CreateLogStream', 'logs:PutLogEvents']);
      const logGroup = (fn.Properties.LoggingConfig as { LogGroup: { Ref: string } }).LogGroup.Ref;
      expect(JSON.stringify(logs.map((s) => s.Resource))).toContain(`"${logGroup}"`);
    }
  });
});
