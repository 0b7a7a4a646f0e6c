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
// Billable routes and the sweeper were raised on 2026-11-28 for the spend-cap hold (its store, and the
// key lookup that store uses to check a key cap's owner: about 10 KB; moving that lookup out of the
// hold's bundle is left to do).
const BUDGET_KB: Readonly<Record<string, number>> = {
  ValidateIdentifier: 140,
  ListCodeTables: 155,
  GetCodeTable: 155,
  ListForms: 145,
  SearchCompanies: 195,
  GetCompany: 195,
  PurchaseCompanyExtract: 250,
  ListOfficeholders: 215,
  ListCompanyAddresses: 210,
  GetShareStructure: 210,
  ListCompanyDocuments: 215,
  GetExternalAdministration: 210,
  ListCompanyRelationships: 210,
  ListCompanyCharges: 210,
  GetCharge: 195,
  SearchPeople: 195,
  GetPerson: 175,
  PurchasePersonExtracts: 255,
  ListPersonRoles: 195,
  GetExtract: 200,
  ListExtracts: 195,
  GetUsage: 155,
  PurchaseWeeklySummary: 245,
  GetWeeklySummary: 185,
  ListWeeklySummaries: 160,
  ListRegisters: 170,
  BrowseRegister: 195,
  GetRegisterEntry: 195,
  PurchaseRegisterExtract: 250,
  OrderChargesExtract: 250,
  OrderDocumentImages: 250,
  GetOrder: 165,
  ListOrders: 165,
  DownloadOrder: 170,
  CreateOfflineSearch: 225,
  ListOfflineSearches: 165,
  GetOfflineSearch: 165,
  ListOfflineSearchResults: 165,
  GetDocument: 195,
  ListDocuments: 195,
  GetBusinessName: 190,
  FindBusinessNames: 195,
  GetNameReservation: 190,
  ListEvents: 155,
  GetEvent: 155,
  ListEventDeliveries: 160,
  ResendEvent: 170,
  CreateWebhookEndpoint: 165,
  ListWebhookEndpoints: 155,
  GetWebhookEndpoint: 155,
  UpdateWebhookEndpoint: 160,
  DeleteWebhookEndpoint: 155,
  RotateWebhookSecret: 160,
  ListEndpointDeliveries: 165,
  RecoverWebhookEndpoint: 165,
  TestWebhookEndpoint: 170,
  ImportMonitors: 210,
  GetMonitorImport: 180,
  CreateMonitor: 245,
  ListMonitors: 205,
  GetMonitor: 200,
  UpdateMonitor: 200,
  DeleteMonitor: 180,
  CreateSandboxMonitorEvent: 225,
  ListMonitorEvents: 180,
  CreateConsoleLink: 145,
  OpenConsoleLink: 145,
  // This and RollConsoleKey raised on 2026-11-29 for the passkey codes in the catalogue (about 1 KB).
  SignInWithConsoleLink: 150,
  GetConsoleSession: 140,
  SignOutOfConsole: 145,
  ListConsoleKeys: 145,
  RollConsoleKey: 150,
  RevokeConsoleKey: 145,
  FindConsoleRequest: 140,
  GetConsolePage: 145,
  GetConsoleScript: 145,
  GetConsoleStyles: 145,
  ListConsolePasskeys: 150,
  StartConsolePasskeyRegistration: 150,
  RemoveConsolePasskey: 150,
  StartPasskeySignIn: 150,
  // The two that verify bundle SimpleWebAuthn's server half (its attestation and certificate
  // parsers, about 290 KB): docs/decisions/pending-passkeys.md.
  RegisterConsolePasskey: 465,
  SignInWithPasskey: 450,
  Mcp: 530,
  GetOpenApiDocument: 140,
  GetApiReference: 140,
  GetApiReferenceScript: 140,
  // Every capability's codes come from the capability list, which brings their modules (record 0093).
  GetErrorReference: 180,
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
  StartMonitoringRuns: 145,
  RunMonitoring: 235,
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
