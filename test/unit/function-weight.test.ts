import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { esbuildOptions } from '../../lib/bundling.ts';
import { deployedFunctions, functionWeights } from '../../scripts/function-weight.ts';
import { routes } from '../../shared/app/routes.ts';

/**
 * Each function bundles what its route runs (docs/decisions/0079-function-weight.md): modules
 * one area shares with another are kept apart from what only one route needs, so reading a
 * monitor does not bundle the company lookup monitor creation makes, and a webhook or usage read
 * does not build every company schema.
 */
const mustNotCarry: Record<string, readonly RegExp[]> = {
  [routes.getMonitor.name]: [/^shared\/companies\/extracts\.ts$/, /^shared\/monitoring\/snapshot\.ts$/],
  [routes.listMonitors.name]: [/^shared\/companies\/extracts\.ts$/, /^shared\/monitoring\/snapshot\.ts$/],
  [routes.updateMonitor.name]: [/^shared\/companies\/extracts\.ts$/, /^shared\/monitoring\/snapshot\.ts$/],
  [routes.deleteMonitor.name]: [/^shared\/companies\/extracts\.ts$/, /^shared\/monitoring\/snapshot\.ts$/],
  [routes.getWebhookEndpoint.name]: [/^shared\/companies\//],
  [routes.listEvents.name]: [/^shared\/companies\//],
  [routes.createWebhookEndpoint.name]: [/^shared\/companies\//],
  [routes.getUsage.name]: [/^shared\/companies\/schemas\.ts$/, /^shared\/monitoring\/jobs\.ts$/],
};

/** Modules the named routes' functions do bundle: the checks above look at real bundles. */
const mustCarry: Record<string, RegExp> = {
  [routes.createMonitor.name]: /^shared\/monitoring\/creation\.ts$/,
  [routes.getUsage.name]: /^shared\/usage\/schemas\.ts$/,
};

describe('what a function bundles', () => {
  it('leaves out what its route does not run', async () => {
    const names = [...new Set([...Object.keys(mustNotCarry), ...Object.keys(mustCarry)])];
    const entries = Object.values(routes).filter((route) => names.includes(route.name));
    expect(entries.map((route) => route.name).sort()).toEqual([...names].sort());
    const { metafile } = await build({
      ...esbuildOptions,
      sourcemap: false,
      write: false,
      metafile: true,
      entryPoints: Object.fromEntries(entries.map((route) => [route.name, `functions/${route.handler}.ts`])),
      outdir: 'bundles',
    });
    const inputsOf = (name: string) => Object.keys(metafile.outputs[`bundles/${name}.js`]?.inputs ?? {});
    for (const [name, patterns] of Object.entries(mustNotCarry)) {
      const inputs = inputsOf(name);
      expect(inputs.length, name).toBeGreaterThan(0);
      for (const pattern of patterns)
        expect(
          inputs.filter((input) => pattern.test(input)),
          name,
        ).toEqual([]);
    }
    for (const [name, pattern] of Object.entries(mustCarry)) {
      expect(inputsOf(name).filter((input) => pattern.test(input)).length, name).toBe(1);
    }
  }, 120_000);
});

/**
 * Each deployed function's bundle budget, in KB of minified bundle (docs/decisions/0100-sandbox-beside-the-bundle.md):
 * its size when the budgets were set (2026-11-28) plus 4 % and 2 KB, rounded up to 5 KB. A
 * function over its budget carries something its route may not run: find it with `npm run weight`
 * (each function's biggest inputs and its esbuild metafile), and raise the budget only for code the
 * route runs. A function not listed here (a new one) has `NEW_FUNCTION_BUDGET_KB`.
 */
// Lowered on 2026-11-29 by the same rule, after each function came to build only its own route and
// schemas, the spend guard's store lost the key lookup and the free reads' extract store the purchase
// side (docs/decisions/0108-routes-built-on-use.md).
const BUDGET_KB: Readonly<Record<string, number>> = {
  ValidateIdentifier: 135,
  ListCodeTables: 150,
  GetCodeTable: 150,
  ListForms: 145,
  SearchCompanies: 185,
  GetCompany: 180,
  PurchaseCompanyExtract: 240,
  ListOfficeholders: 195,
  ListCompanyAddresses: 190,
  GetShareStructure: 190,
  ListCompanyDocuments: 195,
  GetExternalAdministration: 190,
  ListCompanyRelationships: 190,
  ListCompanyCharges: 190,
  GetCharge: 180,
  SearchPeople: 180,
  GetPerson: 160,
  PurchasePersonExtracts: 240,
  ListPersonRoles: 175,
  GetExtract: 180,
  ListExtracts: 170,
  GetUsage: 155,
  PurchaseWeeklySummary: 235,
  GetWeeklySummary: 170,
  ListWeeklySummaries: 145,
  ListRegisters: 150,
  BrowseRegister: 185,
  GetRegisterEntry: 185,
  PurchaseRegisterExtract: 235,
  OrderChargesExtract: 235,
  OrderDocumentImages: 235,
  GetOrder: 145,
  ListOrders: 150,
  DownloadOrder: 140,
  CreateOfflineSearch: 205,
  ListOfflineSearches: 145,
  GetOfflineSearch: 140,
  ListOfflineSearchResults: 150,
  GetDocument: 185,
  ListDocuments: 185,
  GetBusinessName: 180,
  FindBusinessNames: 180,
  GetNameReservation: 175,
  ListEvents: 145,
  GetEvent: 140,
  ListEventDeliveries: 150,
  ResendEvent: 150,
  CreateWebhookEndpoint: 155,
  ListWebhookEndpoints: 145,
  GetWebhookEndpoint: 140,
  UpdateWebhookEndpoint: 150,
  DeleteWebhookEndpoint: 135,
  RotateWebhookSecret: 145,
  ListEndpointDeliveries: 150,
  RecoverWebhookEndpoint: 150,
  TestWebhookEndpoint: 155,
  ImportMonitors: 190,
  GetMonitorImport: 155,
  CreateMonitor: 230,
  ListMonitors: 185,
  GetMonitor: 180,
  UpdateMonitor: 185,
  DeleteMonitor: 150,
  CreateSandboxMonitorEvent: 195,
  ListMonitorEvents: 165,
  CreateConsoleLink: 135,
  OpenConsoleLink: 130,
  SignInWithConsoleLink: 140,
  GetConsoleSession: 130,
  SignOutOfConsole: 135,
  ListConsoleKeys: 140,
  RollConsoleKey: 145,
  RevokeConsoleKey: 135,
  FindConsoleRequest: 130,
  GetConsolePage: 130,
  GetConsoleScript: 125,
  GetConsoleStyles: 125,
  ListConsolePasskeys: 150,
  StartConsolePasskeyRegistration: 150,
  RemoveConsolePasskey: 150,
  StartPasskeySignIn: 150,
  // The two that verify bundle SimpleWebAuthn's server half (its attestation and certificate
  // parsers, about 290 KB): docs/decisions/0107-passkeys.md.
  RegisterConsolePasskey: 465,
  SignInWithPasskey: 450,
  // The MCP server reads every capability module's error guide since the capabilities declare their
  // own codes (about 6 KB more).
  Mcp: 540,
  GetOpenApiDocument: 130,
  GetApiReference: 135,
  GetApiReferenceScript: 125,
  // Every capability's codes come from the capability list, which brings their modules (record 0093),
  // and with them a capability's own registry rows and sandbox (a scaffolded one: 183 KB).
  GetErrorReference: 185,
  MarkProcessing: 90,
  RequestImages: 115,
  CheckImages: 115,
  CompilePdf: 570,
  SendEmail: 95,
  HandOverForPost: 115,
  Finish: 100,
  RunOfflineSearch: 140,
  StartFulfilment: 70,
  SweepStalledFulfilment: 180,
  DispatchWebhooks: 110,
  RetryWebhooks: 90,
  StartMonitoringRuns: 100,
  RunMonitoring: 195,
};
const NEW_FUNCTION_BUDGET_KB = 250;

/** The sandbox registry is a file beside the bundle (lib/bundling.ts); the PDF compile alone bundles its page renderer. */
const sandboxInBundle = (name: string, path: string) =>
  path.startsWith('shared/adapters/sandbox/') &&
  !(name === 'CompilePdf' && path === 'shared/adapters/sandbox/page-images.ts');

describe('each function within its bundle budget', () => {
  it('bundles no more than its budget, and never the sandbox registry', async () => {
    const functions = deployedFunctions();
    expect(Object.keys(BUDGET_KB).filter((name) => !functions.some((fn) => fn.name === name))).toEqual([]);
    const weights = await functionWeights(functions);
    const over = weights
      .map((weight) => ({
        name: weight.name,
        kb: Math.ceil(weight.bytes / 1024),
        budget: BUDGET_KB[weight.name] ?? NEW_FUNCTION_BUDGET_KB,
      }))
      .filter(({ kb, budget }) => kb > budget);
    expect(over).toEqual([]);
    for (const weight of weights) {
      expect(
        weight.inputs.map((input) => input.path).filter((path) => sandboxInBundle(weight.name, path)),
        weight.name,
      ).toEqual([]);
    }
  }, 180_000);
});
