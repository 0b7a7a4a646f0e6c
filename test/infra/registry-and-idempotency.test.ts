/**
 * The wiring of the company and extract routes, checked on the shared route table by name: the
 * idempotency table for purchases, read-only sections, and the registry's URL, credential secret,
 * extension layer and timeout only where the registry is called. Names and values are written
 * out (not derived from the route flags) so that a flag that goes missing fails here.
 */

import { beforeAll, describe, expect, it } from 'vitest';
import { TABLE_ACTIONS } from '../../lib/constructs/api-function.ts';
import { DEFAULT_REGISTRY_URL } from '../../lib/settings.ts';
import { routeList as allRoutes } from '../../shared/app/routes.ts';
import { passkeyRoutes } from '../../shared/console/passkey-routes.ts';
import { consoleRoutes } from '../../shared/console/routes.ts';
import type { RouteDefinition } from '../../shared/kernel/http/route.ts';
import { monitoringRoutes } from '../../shared/monitoring/routes.ts';
import { orderRoutes } from '../../shared/orders/routes.ts';
import { recordRoutes } from '../../shared/records/routes.ts';
import { spendCapRoutes } from '../../shared/spend-caps/routes.ts';
import { webhookRoutes } from '../../shared/webhooks/routes.ts';
import { undocumentedCapabilityRoutes } from './new-capabilities.ts';
import {
  actionsIn,
  actionsOf,
  environmentOf,
  functionOfRoute,
  type Grants,
  grantsOf,
  routeFunctions,
  synthesize,
} from './synth.ts';

/** The routes of this file; the order routes are checked in fulfilment.test.ts. */
// Orders, monitoring and the console have their own infrastructure tests.
const otherRouteNames = new Set(
  [orderRoutes, monitoringRoutes, consoleRoutes, passkeyRoutes].flatMap((routes) =>
    Object.values(routes).map((route) => route.name),
  ),
);
const routeList = allRoutes.filter((route) => !otherRouteNames.has(route.name));

const WRITE_ACTION = /^dynamodb:(PutItem|UpdateItem|DeleteItem|BatchWriteItem|\*)$/;
/** What the Powertools DynamoDB persistence layer calls. */
const POWERTOOLS_ACTIONS = [
  'dynamodb:GetItem',
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
];

const REGISTRY_ROUTES = [
  'SearchCompanies',
  'GetCompany',
  'PurchaseCompanyExtract',
  'ListOfficeholders',
  'ListCompanyAddresses',
  'GetShareStructure',
  'ListCompanyDocuments',
  'GetExternalAdministration',
  'ListCompanyRelationships',
  'ListCompanyCharges',
  'GetCharge',
  'SearchPeople',
  'PurchasePersonExtracts',
  'PurchaseWeeklySummary',
  // Free record lookups (shared/records/routes.ts)
  ...Object.values(recordRoutes).map((r) => r.name),
  'BrowseRegister',
  'GetRegisterEntry',
  'PurchaseRegisterExtract',
];
const NON_REGISTRY_ROUTES = [
  'Mcp',
  'GetPerson',
  'ListPersonRoles',
  'ValidateIdentifier',
  'ListCodeTables',
  'GetCodeTable',
  'ListForms',
  'GetExtract',
  'ListExtracts',
  'GetUsage',
  // Held weekly summaries are read without the registry.
  'GetWeeklySummary',
  'ListWeeklySummaries',
  // The register list is static.
  'ListRegisters',
  // The contract and its docs (public, no key).
  'GetOpenApiDocument',
  'GetApiReference',
  'GetApiReferenceScript',
  'GetErrorReference',
  // Events and webhook endpoints (shared/webhooks/routes.ts)
  ...Object.values(webhookRoutes).map((r) => r.name),
  // Spend caps (shared/spend-caps/routes.ts)
  ...Object.values(spendCapRoutes).map((r) => r.name),
];

const route = (name: string): RouteDefinition => {
  const found = routeList.find((candidate) => candidate.name === name);
  if (!found) throw new Error(`no route ${name} in shared/app/routes.ts`);
  return found;
};

describe('company, people, extract and usage routes', () => {
  let grants: Grants;
  beforeAll(() => {
    grants = grantsOf(synthesize());
  }, 120_000);

  const envOf = (name: string) => environmentOf(functionOfRoute(grants.synth, route(name)));

  it('has one function per route of the route table, named after it', () => {
    const functions = routeFunctions(grants.synth, routeList).map(([, fn]) => fn);
    expect(functions).toHaveLength(routeList.length);
    const names = functions.map((fn) => String(fn.Properties.Description).split(':')[0]).sort();
    expect(names).toEqual(routeList.map((r) => r.name).sort());
    // The app's own routes by hand; a capability not yet in docs/infrastructure.md by its grants.
    const added = undocumentedCapabilityRoutes();
    expect(names).toEqual([...REGISTRY_ROUTES, ...NON_REGISTRY_ROUTES, ...added.map((r) => r.name)].sort());
  });

  describe('PurchaseCompanyExtract', () => {
    it('is told the idempotency and main tables', () => {
      expect(envOf('PurchaseCompanyExtract')).toMatchObject({
        IDEMPOTENCY_TABLE: expect.anything(),
        MAIN_TABLE: expect.anything(),
      });
    });

    // Deletes from both: a purchase the registry refused is forgotten, a failed request's record goes.
    it.each(['idempotency', 'main'] as const)('may read, write and delete in the %s table', (table) => {
      const granted = actionsIn(grants.on(route('PurchaseCompanyExtract'), table));
      expect(granted).toEqual([...TABLE_ACTIONS.readWriteDelete].sort());
      for (const action of POWERTOOLS_ACTIONS) expect(granted).toContain(action);
    });
  });

  describe('ListCompanyCharges (a section read)', () => {
    it('may read the main table and never write to it', () => {
      const granted = actionsIn(grants.on(route('ListCompanyCharges'), 'main'));
      expect(granted).toEqual([...TABLE_ACTIONS.read].sort());
      expect(granted.filter((action) => WRITE_ACTION.test(action))).toEqual([]);
      expect(envOf('ListCompanyCharges')).toHaveProperty('MAIN_TABLE');
    });

    it('has nothing to do with the idempotency table', () => {
      expect(grants.on(route('ListCompanyCharges'), 'idempotency')).toEqual([]);
      expect(envOf('ListCompanyCharges')).not.toHaveProperty('IDEMPOTENCY_TABLE');
    });
  });

  it('grants the idempotency table to the three purchases alone (among these routes)', () => {
    const withIdempotency = routeList
      .filter((r) => grants.on(r, 'idempotency').length > 0)
      .map((r) => r.name);
    expect(withIdempotency).toEqual([
      'PurchaseCompanyExtract',
      'PurchasePersonExtracts',
      'PurchaseWeeklySummary',
      'PurchaseRegisterExtract',
      ...undocumentedCapabilityRoutes()
        .filter((route) => route.idempotent)
        .map((route) => route.name),
    ]);
  });

  describe('registers', () => {
    it.each(['idempotency', 'main'] as const)(
      'the purchase may read, write and delete in the %s table',
      (table) => {
        expect(actionsIn(grants.on(route('PurchaseRegisterExtract'), table))).toEqual(
          [...TABLE_ACTIONS.readWriteDelete].sort(),
        );
        expect(envOf('PurchaseRegisterExtract')).toHaveProperty('REGISTRY_URL');
      },
    );

    it.each(['BrowseRegister', 'GetRegisterEntry'])('%s calls the registry and touches no table', (name) => {
      expect(grants.on(route(name), 'main')).toEqual([]);
      expect(grants.on(route(name), 'idempotency')).toEqual([]);
      expect(envOf(name)).toHaveProperty('REGISTRY_URL');
    });

    it('ListRegisters touches no table and never calls the registry', () => {
      expect(grants.on(route('ListRegisters'), 'main')).toEqual([]);
      expect(envOf('ListRegisters')).not.toHaveProperty('REGISTRY_URL');
    });
  });

  describe('weekly summaries', () => {
    it.each(['idempotency', 'main'] as const)(
      'the purchase may read, write and delete in the %s table',
      (table) => {
        expect(actionsIn(grants.on(route('PurchaseWeeklySummary'), table))).toEqual(
          [...TABLE_ACTIONS.readWriteDelete].sort(),
        );
        expect(envOf('PurchaseWeeklySummary')).toHaveProperty('REGISTRY_URL');
      },
    );

    it.each(['GetWeeklySummary', 'ListWeeklySummaries'])(
      '%s reads the main table, never writes, never calls the registry',
      (name) => {
        const granted = actionsIn(grants.on(route(name), 'main'));
        expect(granted).toEqual([...TABLE_ACTIONS.read].sort());
        expect(grants.on(route(name), 'idempotency')).toEqual([]);
        expect(envOf(name)).not.toHaveProperty('REGISTRY_URL');
      },
    );
  });

  describe('PurchasePersonExtracts', () => {
    it.each(['idempotency', 'main'] as const)('may read, write and delete in the %s table', (table) => {
      const granted = actionsIn(grants.on(route('PurchasePersonExtracts'), table));
      expect(granted).toEqual([...TABLE_ACTIONS.readWriteDelete].sort());
      for (const action of POWERTOOLS_ACTIONS) expect(granted).toContain(action);
      expect(envOf('PurchasePersonExtracts')).toMatchObject({
        IDEMPOTENCY_TABLE: expect.anything(),
        MAIN_TABLE: expect.anything(),
      });
    });
  });

  it('lets SearchPeople write the main table (it keeps the search), but not the idempotency table', () => {
    expect(actionsIn(grants.on(route('SearchPeople'), 'main'))).toEqual([...TABLE_ACTIONS.readWrite].sort());
    expect(grants.on(route('SearchPeople'), 'idempotency')).toEqual([]);
  });

  it.each(['GetPerson', 'ListPersonRoles'])('lets %s read the main table and never write to it', (name) => {
    const granted = actionsIn(grants.on(route(name), 'main'));
    expect(granted).toEqual([...TABLE_ACTIONS.read].sort());
    expect(granted.filter((action) => WRITE_ACTION.test(action))).toEqual([]);
    expect(envOf(name)).not.toHaveProperty('REGISTRY_URL');
  });

  describe.each(REGISTRY_ROUTES)('%s (calls the registry)', (name) => {
    it('gets REGISTRY_URL, REGISTRY_CREDENTIAL_ARN, the extension layer and 29 s', () => {
      const fn = functionOfRoute(grants.synth, route(name));
      const env = environmentOf(fn);
      expect(env.REGISTRY_URL).toBe(DEFAULT_REGISTRY_URL);
      expect(JSON.stringify(env.REGISTRY_CREDENTIAL_ARN)).toContain(
        grants.secretLogicalId('registryCredential'),
      );
      expect(JSON.stringify(fn.Properties.Layers ?? [])).toMatch(/Paramsandsecrets.*arm64/i);
      expect(fn.Properties.Timeout).toBe(29);
    });

    it('may GetSecretValue on the registry credential secret, and on nothing but named secrets', () => {
      const r = route(name);
      expect(actionsIn(grants.onSecret(r, 'registryCredential'))).toEqual(['secretsmanager:GetSecretValue']);
      const secretStatements = grants
        .statements(r)
        .filter((s) => actionsOf(s).some((action) => action.startsWith('secretsmanager:')));
      for (const statement of secretStatements) {
        expect(JSON.stringify(statement.Resource)).not.toContain('*');
        expect(actionsOf(statement)).toEqual(['secretsmanager:GetSecretValue']);
      }
    });
  });

  describe.each(NON_REGISTRY_ROUTES)('%s (never calls the registry)', (name) => {
    it('gets neither the registry URL nor its credential, and the default 10 s (29 s long-running: the MCP server)', () => {
      const fn = functionOfRoute(grants.synth, route(name));
      const env = environmentOf(fn);
      expect(env).not.toHaveProperty('REGISTRY_URL');
      expect(env).not.toHaveProperty('REGISTRY_CREDENTIAL_ARN');
      expect(grants.onSecret(route(name), 'registryCredential')).toEqual([]);
      expect(fn.Properties.Timeout).toBe(route(name).longRunning ? 29 : 10);
    });
  });
});

describe('registryUrl context', () => {
  const registryFunctions = (context: Record<string, unknown>) => {
    const synth = synthesize({ context });
    return {
      synth,
      urls: REGISTRY_ROUTES.map((name) => environmentOf(functionOfRoute(synth, route(name))).REGISTRY_URL),
    };
  };
  it('passes -c registryUrl (without a trailing slash) to every function that calls the registry', () => {
    const { urls } = registryFunctions({ registryUrl: 'https://registry.example.test/api/' });
    expect(urls).toEqual(REGISTRY_ROUTES.map(() => 'https://registry.example.test/api'));
  }, 120_000);

  it('refuses a registryUrl that is not https', () => {
    expect(() => synthesize({ context: { registryUrl: 'http://registry.example.test' } })).toThrow(
      /registryUrl/,
    );
  });

  it('fails a prod synth that would deploy a placeholder, naming the setting', () => {
    expect(() =>
      synthesize({
        context: { stage: 'prod', registryUrl: 'https://registry.company-register.example.com' },
      }),
    ).toThrow(
      /stage prod .*registryUrl is the placeholder https:\/\/registry\.company-register\.example\.com/,
    );
    expect(() => synthesize({ context: { stage: 'prod', mailFrom: 'orders@mail.example.org' } })).toThrow(
      /stage prod .*mailFrom is the placeholder orders@mail\.example\.org.*lib\/stages\.ts/,
    );
    // A dev stage may keep the placeholders: test keys never leave the sandbox.
    const dev = registryFunctions({});
    expect(dev.urls).toEqual(REGISTRY_ROUTES.map(() => DEFAULT_REGISTRY_URL));
  }, 120_000);
});
