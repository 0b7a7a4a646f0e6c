import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BASELINE_TABLE_ACCESS } from '../../lib/api-stack.ts';
import { SECRET_READ_ACTION, TABLE_ACTIONS } from '../../lib/constructs/api-function.ts';
import { paginates, ROUTE_AREAS, signsWithCursorSecret } from '../../lib/routes.ts';
import { routeList } from '../../shared/app/routes.ts';
import type { GrantedRoute } from '../../shared/kernel/http/route.ts';
import type { TableId } from '../../shared/kernel/infra/tables.ts';
import { tableDefinitions } from '../../shared/kernel/infra/tables.ts';
import {
  actionsIn,
  actionsOf,
  environmentOf,
  functionOfRoute,
  type Grants,
  grantsOf,
  resourcesOf,
  roleOfFunction,
  statementsOfRole,
  synthesize,
} from './synth.ts';

const WRITE_ACTION = /^dynamodb:(PutItem|UpdateItem|DeleteItem|BatchWriteItem|\*)$/;

/** Routes that exist only in this test, to exercise the `tables` grants, pagination and the registry. */
const template = routeList[0] as GrantedRoute;
const mainReader: GrantedRoute = {
  ...template,
  name: 'TestMainReader',
  method: 'GET',
  path: '/v1/test/main-reader/{value}',
  request: { path: z.object({ value: z.string() }), query: z.strictObject({}) },
  usesRegistry: false,
  tables: { main: 'read' },
  errors: [],
};
const mainWriter: GrantedRoute = {
  ...template,
  name: 'TestMainWriter',
  method: 'POST',
  path: '/v1/test/main-writer',
  request: { path: z.strictObject({}), query: z.strictObject({ cursor: z.string().optional() }) },
  tables: { main: 'readWrite', keys: 'read' },
  errors: [],
};
/** Calls the registry without paginating: needs the extension for the registry secret alone. */
const registryUser: GrantedRoute = {
  ...template,
  name: 'TestRegistryUser',
  method: 'GET',
  path: '/v1/test/registry-user',
  request: { path: z.strictObject({}), query: z.strictObject({}) },
  usesRegistry: true,
  tables: { idempotency: 'read' },
  errors: [],
};
const testOnlyRoutes = [mainReader, mainWriter, registryUser];
const testRoutes = [...routeList, ...testOnlyRoutes];

/** Tables a function reaches only when its route's `tables` names them. */
const routeScopedTables = (Object.keys(tableDefinitions) as TableId[]).filter(
  (id) => BASELINE_TABLE_ACCESS[id] === undefined,
);

const actions = actionsIn;

describe('paginates', () => {
  const withQuery = (query: z.ZodType): GrantedRoute => ({
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
    grants = grantsOf(synthesize({ areas: [...ROUTE_AREAS, { name: 'Test', routes: testOnlyRoutes }] }));
  }, 120_000);

  it('exercises both sides of every switch with the shared routes and the test routes', () => {
    expect(testRoutes.some((route) => route.usesRegistry && !paginates(route))).toBe(true);
    expect(testRoutes.some((route) => route.usesRegistry && paginates(route))).toBe(true);
    expect(testRoutes.some((route) => !route.usesRegistry && paginates(route))).toBe(true);
    expect(testRoutes.some((route) => !route.usesRegistry && !paginates(route))).toBe(true);
    for (const table of routeScopedTables) {
      expect(
        testRoutes.some((route) => route.tables[table] === 'read'),
        `${table} read`,
      ).toBe(true);
      // Writing: with or without deleting (the idempotency table's users all delete).
      expect(
        testRoutes.some((route) => ['readWrite', 'readWriteDelete'].includes(route.tables[table] ?? '')),
        `${table} written`,
      ).toBe(true);
    }
  });

  describe.each(testRoutes.map((route) => [route.name, route] as const))('%s', (_, route) => {
    it("may read the keys table and write only a key's last use (the console's routes: more; a public route: nothing)", () => {
      const onKeys = grants.on(route, 'keys');
      if (route.public) {
        // No key lookup; only the console's sign-in link reaches the table (through its port).
        if (route.tables.keys === undefined) expect(onKeys).toEqual([]);
        else expect(JSON.stringify(onKeys)).not.toContain('lastUsedHour');
        return;
      }
      expect(actions(onKeys)).toContain('dynamodb:GetItem');
      // The one write every keyed function makes: a key's last use, that attribute alone, on key items.
      const lastUse = onKeys.filter((s) => JSON.stringify(s).includes('lastUsedHour'));
      expect(lastUse.map((s) => [actions([s]), (s as { Condition?: unknown }).Condition])).toEqual([
        [
          ['dynamodb:UpdateItem'],
          {
            'ForAllValues:StringEquals': { 'dynamodb:Attributes': ['pk', 'lastUsedHour'] },
            'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['KEY#*'] },
            StringEqualsIfExists: { 'dynamodb:ReturnValues': 'NONE' },
          },
        ],
      ]);
      const others = onKeys.filter((s) => !lastUse.includes(s));
      // Other writes only for the console's routes, which make links, sessions and key changes.
      if (route.tables.keys !== 'readWrite' && route.tables.keys !== 'readWriteDelete')
        expect(actions(others).filter((action) => WRITE_ACTION.test(action))).toEqual([]);
      if (route.tables.keys === undefined) {
        expect(actions(others)).toEqual(['dynamodb:GetItem']);
        expect(JSON.stringify(others.map((s) => s.Resource))).not.toContain('/index/');
      }
    });

    it('may read and write the limits table (item actions only; a public route: not at all)', () => {
      // Statements are minimized (merged) across tables, so the actions on a table are those of
      // every statement that names it.
      expect(actions(grants.on(route, 'limits'))).toEqual(
        route.public ? [] : [...TABLE_ACTIONS.readWrite].sort(),
      );
    });

    it.each(routeScopedTables)(
      'reaches the %s table only when the route table says so, with exactly that access',
      (table) => {
        const onTable = grants.on(route, table);
        const access = route.tables[table];
        const env = environmentOf(functionOfRoute(grants.synth, route));
        if (access === undefined) {
          expect(onTable).toEqual([]);
          expect(env).not.toHaveProperty(tableDefinitions[table].envVar);
        } else {
          expect(actions(onTable)).toEqual([...TABLE_ACTIONS[access]].sort());
          expect(env).toHaveProperty(tableDefinitions[table].envVar);
          // Each index is named: no `/index/*` wildcard; single-item reads reach no index.
          const resources = JSON.stringify(onTable.map((s) => s.Resource));
          if (access === 'getItem') expect(resources).not.toContain('/index/');
          else
            for (const index of tableDefinitions[table].globalIndexes)
              expect(resources).toContain(`/index/${index.indexName}`);
          expect(resources).not.toContain('/index/*');
        }
      },
    );

    it('never scans a table', () => {
      expect(actions(grants.statements(route))).not.toContain('dynamodb:Scan');
    });

    it('reads the cursor secret only if it paginates or signs other tokens with it', () => {
      const onSecret = actions(grants.onSecret(route, 'cursor'));
      const env = environmentOf(functionOfRoute(grants.synth, route));
      if (signsWithCursorSecret(route)) {
        expect(onSecret).toEqual([SECRET_READ_ACTION]);
        expect(env).toHaveProperty('CURSOR_SECRET_ARN');
      } else {
        expect(onSecret).toEqual([]);
        expect(env).not.toHaveProperty('CURSOR_SECRET_ARN');
      }
    });

    it('reads the registry credential and knows the registry URL only if it calls the registry', () => {
      const onSecret = actions(grants.onSecret(route, 'registryCredential'));
      const env = environmentOf(functionOfRoute(grants.synth, route));
      if (route.usesRegistry) {
        expect(onSecret).toEqual([SECRET_READ_ACTION]);
        expect(env).toHaveProperty('REGISTRY_CREDENTIAL_ARN');
        expect(env).toHaveProperty('REGISTRY_URL');
      } else {
        expect(onSecret).toEqual([]);
        expect(env).not.toHaveProperty('REGISTRY_CREDENTIAL_ARN');
        expect(env).not.toHaveProperty('REGISTRY_URL');
      }
    });

    it('gets GetSecretValue on named secrets only, and the extension exactly when it reads one', () => {
      const secretStatements = grants
        .statements(route)
        .filter((s) => actionsOf(s).some((action) => action.startsWith('secretsmanager:')));
      const needed = [
        ...(signsWithCursorSecret(route) ? [grants.secretLogicalId('cursor')] : []),
        ...(route.usesRegistry ? [grants.secretLogicalId('registryCredential')] : []),
      ];
      if (needed.length === 0) expect(secretStatements).toEqual([]);
      else expect(actions(secretStatements)).toEqual([SECRET_READ_ACTION]);
      for (const statement of secretStatements) {
        const resources = [statement.Resource].flat().map((resource) => JSON.stringify(resource));
        for (const resource of resources) {
          expect(
            needed.some((logicalId) => resource.includes(logicalId)),
            resource,
          ).toBe(true);
        }
      }
      const layers = JSON.stringify(functionOfRoute(grants.synth, route).Properties.Layers ?? []);
      if (needed.length > 0) expect(layers).toMatch(/Paramsandsecrets.*arm64/i);
      else expect(layers).toBe('[]');
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
