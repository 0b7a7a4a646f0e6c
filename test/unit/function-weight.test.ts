import { describe, expect, it } from 'vitest';
import { bundleFunctions, deployedFunctions, weightsOf } from '../../scripts/function-weight.ts';
import { routes } from '../../shared/app/routes.ts';

let bundles: ReturnType<typeof bundleFunctions> | undefined;
/**
 * Every deployed function bundled as deployed, once for this file's tests (a build of them all
 * costs several seconds of CPU).
 */
const everyBundle = () => {
  bundles ??= bundleFunctions(deployedFunctions());
  return bundles;
};

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
  // The page is rendered when the function is bundled (lib/bundling.ts).
  [routes.getErrorReference.name]: [
    /^shared\/app\//,
    /^shared\/kernel\/errors\/guide\.ts$/,
    /error-guide\.ts$/,
  ],
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
    const { metafile } = await everyBundle();
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
// Lowered again the same day, when Lambda bundles stopped building the route entries' response
// schemas and the error reference page came to be rendered at bundling time; the spend-cap and
// newer console functions, which had the new function's budget, listed by the same rule
// (docs/decisions/0119-responses-out-of-lambda.md).
const BUDGET_KB: Readonly<Record<string, number>> = {
  ValidateIdentifier: 125,
  ListCodeTables: 140,
  GetCodeTable: 140,
  ListForms: 140,
  SearchCompanies: 180,
  GetCompany: 170,
  PurchaseCompanyExtract: 225,
  ListOfficeholders: 185,
  ListCompanyAddresses: 180,
  GetShareStructure: 180,
  ListCompanyDocuments: 190,
  GetExternalAdministration: 180,
  ListCompanyRelationships: 180,
  ListCompanyCharges: 180,
  GetCharge: 170,
  SearchPeople: 175,
  GetPerson: 150,
  PurchasePersonExtracts: 230,
  ListPersonRoles: 170,
  GetExtract: 155,
  ListExtracts: 155,
  GetUsage: 150,
  PurchaseWeeklySummary: 225,
  GetWeeklySummary: 160,
  ListWeeklySummaries: 140,
  ListRegisters: 140,
  BrowseRegister: 175,
  GetRegisterEntry: 170,
  PurchaseRegisterExtract: 225,
  OrderChargesExtract: 225,
  OrderDocumentImages: 230,
  GetOrder: 135,
  ListOrders: 140,
  DownloadOrder: 135,
  CreateOfflineSearch: 200,
  ListOfflineSearches: 135,
  GetOfflineSearch: 130,
  ListOfflineSearchResults: 145,
  GetDocument: 170,
  ListDocuments: 170,
  GetBusinessName: 165,
  FindBusinessNames: 170,
  GetNameReservation: 165,
  ListEvents: 135,
  GetEvent: 130,
  ListEventDeliveries: 140,
  ResendEvent: 145,
  CreateWebhookEndpoint: 145,
  ListWebhookEndpoints: 135,
  GetWebhookEndpoint: 130,
  UpdateWebhookEndpoint: 140,
  DeleteWebhookEndpoint: 130,
  RotateWebhookSecret: 135,
  ListEndpointDeliveries: 145,
  RecoverWebhookEndpoint: 140,
  TestWebhookEndpoint: 140,
  ImportMonitors: 185,
  GetMonitorImport: 145,
  CreateMonitor: 220,
  ListMonitors: 175,
  GetMonitor: 165,
  UpdateMonitor: 170,
  DeleteMonitor: 140,
  CreateSandboxMonitorEvent: 190,
  ListMonitorEvents: 150,
  CreateConsoleLink: 125,
  OpenConsoleLink: 130,
  SignInWithConsoleLink: 130,
  GetConsoleSession: 120,
  SignOutOfConsole: 125,
  ListConsoleKeys: 125,
  RollConsoleKey: 130,
  RevokeConsoleKey: 130,
  FindConsoleRequest: 125,
  GetConsolePage: 125,
  GetConsoleScript: 125,
  GetConsoleStyles: 125,
  ListConsolePasskeys: 140,
  StartConsolePasskeyRegistration: 140,
  RemoveConsolePasskey: 140,
  StartPasskeySignIn: 140,
  // The two that verify load SimpleWebAuthn's server half (about 300 KB) from a file beside the
  // bundle on their first verification (lib/bundling.ts, `WEBAUTHN_CHUNK`). By the rule above from
  // 130 and 132 KB (were 433 and 415 KB with it).
  RegisterConsolePasskey: 140,
  SignInWithPasskey: 140,
  // The MCP server's bundle is its pipeline only: its tools, the SDK and the route table are files
  // beside it (lib/bundling.ts, `MCP_TOOLS`, `MCP_CHUNK`). By the rule above from 113 KB (was 539).
  Mcp: 120,
  GetOpenApiDocument: 125,
  GetApiReference: 130,
  GetApiReferenceScript: 125,
  // Serves the page rendered beside its bundle when it was bundled, not the catalogue.
  GetErrorReference: 125,
  ListSpendCaps: 165,
  GetAccountSpendCap: 165,
  SetAccountSpendCap: 175,
  DeleteAccountSpendCap: 165,
  GetKeySpendCap: 165,
  SetKeySpendCap: 170,
  DeleteKeySpendCap: 165,
  ShowEmailSignIn: 125,
  RequestEmailSignIn: 140,
  CreateConsoleKey: 130,
  LabelConsoleKey: 130,
  ListConsoleMembers: 125,
  InviteConsoleMember: 135,
  ChangeConsoleMemberRole: 130,
  RemoveConsoleMember: 130,
  ListConsoleAudit: 125,
  MarkProcessing: 90,
  RequestImages: 115,
  CheckImages: 115,
  CompilePdf: 570,
  SendEmail: 90,
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
    const weights = weightsOf(functions, (await everyBundle()).metafile);
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

describe('the bundle of every deployed function', () => {
  it('carries no AWS SDK client (DynamoDB, SQS, EventBridge, Step Functions, S3, SES and KMS go through the lean clients) and nothing of the local stack', async () => {
    const { outputFiles, metafile } = await everyBundle();
    expect(outputFiles).toHaveLength(deployedFunctions().length);
    for (const [output, { inputs }] of Object.entries(metafile.outputs)) {
      const clients = Object.keys(inputs).filter((input) => /@aws-sdk\/(client-|lib-dynamodb)/.test(input));
      expect(clients, output).toEqual([]);
      // The credential reader is the service's own: not the SDK's client core and INI-file loader.
      const credentialChain = Object.keys(inputs).filter((input) =>
        /@aws-sdk\/(core|credential-provider-)|@smithy\/core\/dist-es\/submodules\/config/.test(input),
      );
      expect(credentialChain, output).toEqual([]);
      const jmespath = Object.keys(inputs).filter((input) =>
        input.includes('@aws-lambda-powertools/jmespath'),
      );
      expect(jmespath, output).toEqual([]);
    }
    for (const [output, { inputs }] of Object.entries(metafile.outputs)) {
      // The local stack and the capabilities' local wiring (shared/<capability>/local/) are named by
      // path in the capability modules, never imported: no function carries them.
      const local = Object.keys(inputs).filter((input) => /^(?:local\/|shared\/[^/]+\/local\/)/.test(input));
      expect(local, output).toEqual([]);
    }
    for (const file of outputFiles) {
      expect(file.text, file.path).not.toContain('x-amz-user-agent');
      expect(file.text, file.path).not.toContain('fromSSO');
    }
  }, 180_000);
});
