/**
 * Synthesizes the CDK app in-process for the infrastructure tests: the context of cdk.json (feature
 * flags) plus `aws:cdk:bundling-stacks: []`, which makes every NodejsFunction skip esbuild, so a
 * synth takes seconds. cdk-nag runs exactly as in `cdk synth`; its findings are read back from the
 * validation report CDK writes into the cloud assembly.
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, type CfnElement, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { Construct } from 'constructs';
import { type ApiStack, functionDescription } from '../../lib/api-stack.ts';
import { type BuildAppOptions, buildApp, type CompanyRegisterApp } from '../../lib/app.ts';
import { tableConstructId } from '../../lib/data-stack.ts';
import { defaultEntryFor, type HandlerModule, PROJECT_ROOT } from '../../lib/routes.ts';
import type { RouteDefinition } from '../../shared/kernel/http/route.ts';
import { type TableId, tableDefinitions } from '../../shared/kernel/infra/tables.ts';
import type { CompanyMonitoring } from '../../shared/monitoring/cdk/jobs.ts';
import type { Fulfilment } from '../../shared/orders/cdk/fulfilment.ts';
import type { ReferenceRefresh } from '../../shared/reference/cdk/refresh.ts';
import type { Webhooks } from '../../shared/webhooks/cdk/webhooks.ts';

export const PLACEHOLDER_ENTRY = join(PROJECT_ROOT, 'test', 'infra', 'fixtures', 'placeholder-handler.ts');

/** A route's or workflow function's real module, or the placeholder while the module is not written yet. */
export const entryOrPlaceholder = (module: HandlerModule): string => {
  const entry = defaultEntryFor(module);
  return existsSync(entry) ? entry : PLACEHOLDER_ENTRY;
};

export interface NagFinding {
  readonly plugin: string;
  readonly rule: string;
  readonly severity: string;
  readonly path: string;
}

/** One template the app synthesizes: a stack's or a nested stack's. */
export interface SynthesizedTemplate {
  /** Construct path of the stack (`CompanyRegister-dev-Api/CompaniesRoutes` for a nested one). */
  readonly path: string;
  readonly stack: Stack;
  /** File name in the cloud assembly directory. */
  readonly file: string;
  readonly json: TemplateJson;
}

export interface TemplateJson {
  readonly Parameters?: Record<string, unknown>;
  readonly Resources?: Record<string, Partial<TemplateResource>>;
  readonly Outputs?: Record<string, unknown>;
  readonly [section: string]: unknown;
}

export interface Synthesized extends CompanyRegisterApp {
  /** The cloud assembly directory (templates, asset manifests, staged assets). */
  readonly outdir: string;
  readonly dataTemplate: Template;
  /**
   * The API stack with its nested stacks (the route areas) as one template: the resources of each
   * nested template join the API stack's, with every reference to a nested stack parameter
   * replaced by the value the API stack passes to it (so a method's `ResourceId` is the API
   * stack's resource, and a route's queue grant names the API stack's queue), and each read of a
   * nested stack's output replaced by the output's value (so the workflow names a task's alias). The outputs are the
   * API stack's own (those a deploy shows). Which template holds what is tested on `templates`.
   */
  readonly apiTemplate: Template;
  /** The API stack's own template, without its nested stacks' resources. */
  readonly apiStackTemplate: Template;
  /** Every template of the app: each stack's and each nested stack's, found in the construct tree. */
  readonly templates: readonly SynthesizedTemplate[];
  /** Every unacknowledged finding of every validation plugin (cdk-nag), errors and warnings. */
  readonly findings: readonly NagFinding[];
}

interface ValidationReport {
  readonly pluginReports: readonly {
    readonly pluginName: string;
    readonly violations: readonly {
      readonly ruleName: string;
      readonly severity: string;
      readonly violatingConstructs: readonly { readonly constructPath: string }[];
    }[];
  }[];
}

const cdkContext = (): Record<string, unknown> => {
  const cdkJson = JSON.parse(readFileSync(join(PROJECT_ROOT, 'cdk.json'), 'utf8')) as {
    context?: Record<string, unknown>;
  };
  return cdkJson.context ?? {};
};

export interface SynthOptions extends BuildAppOptions {
  /** Extra CDK context (`stage`, `docsUrl`, `waf`). */
  readonly context?: Record<string, unknown>;
  /** Runs after the app is built and before synth (to add resources in controls). */
  readonly beforeSynth?: (built: CompanyRegisterApp) => void;
}

/**
 * Apps synthesized with context only, by their context, for the life of the worker: most files
 * assert on the same few apps (dev, prod), and a synth costs seconds of CPU. The infra project
 * runs its files without isolation (vitest.config.ts), so a worker synthesizes each of them once
 * for every file it runs. Tests only read a synthesized app and its templates.
 */
const synthesized = new Map<string, Synthesized>();

/** The app with this context (from the worker's cache when it has one); see `synthesizeApp`. */
export function synthesize(options: SynthOptions = {}): Synthesized {
  if (options.areas || options.entryFor || options.beforeSynth) return synthesizeApp(options);
  const context = options.context ?? {};
  const key = JSON.stringify(
    Object.keys(context)
      .sort()
      .map((name) => [name, context[name]]),
  );
  const cached = synthesized.get(key);
  if (cached) return cached;
  const synth = synthesizeApp(options);
  synthesized.set(key, synth);
  return synth;
}

/** A new app, synthesized. */
function synthesizeApp(options: SynthOptions = {}): Synthesized {
  const outdir = mkdtempSync(join(tmpdir(), 'company-register-cdk-'));
  const app = new App({
    outdir,
    context: { ...cdkContext(), 'aws:cdk:bundling-stacks': [], ...options.context },
  });
  const built = buildApp(app, { entryFor: options.entryFor ?? entryOrPlaceholder, ...withRoutes(options) });
  options.beforeSynth?.(built);

  try {
    app.synth();
  } catch (error) {
    // With findings, synth throws after writing templates and the report; anything else is a bug.
    if (!(error instanceof Error) || !/Validation ?Failed/i.test(`${error.name} ${error.message}`))
      throw error;
  }
  const report = JSON.parse(readFileSync(join(outdir, 'validation-report.json'), 'utf8')) as ValidationReport;
  const findings = report.pluginReports.flatMap((plugin) =>
    plugin.violations.flatMap((violation) =>
      violation.violatingConstructs.map((construct) => ({
        plugin: plugin.pluginName,
        rule: violation.ruleName,
        severity: violation.severity,
        path: construct.constructPath,
      })),
    ),
  );
  const templates = app.node
    .findAll()
    .filter((construct): construct is Stack => Stack.isStack(construct))
    .map((stack) => ({
      path: stack.node.path,
      stack,
      file: stack.templateFile,
      json: readTemplate(outdir, stack),
    }));
  return {
    ...built,
    outdir,
    dataTemplate: Template.fromJSON(readTemplate(outdir, built.data)),
    apiTemplate: Template.fromJSON(withNestedStacks(outdir, built.api)),
    apiStackTemplate: Template.fromJSON(readTemplate(outdir, built.api)),
    templates,
    findings,
  };
}

const readTemplate = (outdir: string, stack: Stack): TemplateJson =>
  JSON.parse(readFileSync(join(outdir, stack.templateFile), 'utf8')) as TemplateJson;

/** The nested stacks whose parent is `stack`. */
export const nestedStacksOf = (stack: Stack): Stack[] =>
  stack.node
    .findAll()
    .filter(
      (construct): construct is Stack => Stack.isStack(construct) && construct.nestedStackParent === stack,
    );

/** `value` with each `{"Ref": <parameter>}` of `parameters` replaced by the parameter's value. */
function substituteParameters(value: unknown, parameters: Readonly<Record<string, unknown>>): unknown {
  if (Array.isArray(value)) return value.map((item) => substituteParameters(item, parameters));
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value);
  const [first] = entries;
  if (entries.length === 1 && first?.[0] === 'Ref' && typeof first[1] === 'string') {
    if (Object.hasOwn(parameters, first[1])) return parameters[first[1]];
  }
  return Object.fromEntries(entries.map(([key, item]) => [key, substituteParameters(item, parameters)]));
}

/**
 * `value` with each `{"Fn::GetAtt": [<nested stack>, "Outputs.<name>"]}` of `outputs` (by the nested
 * stack's logical id) replaced by the output's value in the nested template.
 */
function substituteOutputs(
  value: unknown,
  outputs: ReadonlyMap<string, Readonly<Record<string, { Value?: unknown }>>>,
): unknown {
  if (Array.isArray(value)) return value.map((item) => substituteOutputs(item, outputs));
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value);
  const [first] = entries;
  if (entries.length === 1 && first?.[0] === 'Fn::GetAtt' && Array.isArray(first[1])) {
    const [logicalId, attribute] = first[1] as [string, string];
    const output = attribute.startsWith('Outputs.')
      ? outputs.get(logicalId)?.[attribute.slice('Outputs.'.length)]
      : undefined;
    if (output !== undefined) return substituteOutputs(output.Value, outputs);
  }
  return Object.fromEntries(entries.map(([key, item]) => [key, substituteOutputs(item, outputs)]));
}

/** A stack's template with the resources of its nested stacks (recursively) merged in; see `apiTemplate`. */
function withNestedStacks(outdir: string, stack: Stack): TemplateJson {
  const own = readTemplate(outdir, stack);
  const resources: Record<string, Partial<TemplateResource>> = { ...own.Resources };
  // Outputs of each nested stack (by its resource's logical id) that the parent or a sibling reads.
  const outputs = new Map<string, Record<string, { Value?: unknown }>>();
  for (const nested of nestedStacksOf(stack)) {
    if (!nested.nestedStackResource) throw new Error(`${nested.node.path} has no stack resource`);
    const resourceId = stack.getLogicalId(nested.nestedStackResource);
    const passed = (resources[resourceId]?.Properties?.Parameters ?? {}) as Record<string, unknown>;
    const child = withNestedStacks(outdir, nested);
    outputs.set(
      resourceId,
      substituteParameters(child.Outputs ?? {}, passed) as Record<string, { Value?: unknown }>,
    );
    for (const [logicalId, resource] of Object.entries(child.Resources ?? {})) {
      // Every stack has its own version-reporting resource (when the context turns it on).
      if (resource.Type === 'AWS::CDK::Metadata') continue;
      if (Object.hasOwn(resources, logicalId))
        throw new Error(`${logicalId} of ${nested.node.path} is also a logical id of ${stack.node.path}`);
      resources[logicalId] = substituteParameters(resource, passed) as Partial<TemplateResource>;
    }
  }
  // A parent's resource (or, through the parameters it passes, a sibling's) reading a nested
  // stack's output reads the nested resource itself: `{"Ref": <alias>}` rather than the output.
  return { ...own, Resources: substituteOutputs(resources, outputs) as typeof resources };
}

const withRoutes = (options: SynthOptions): BuildAppOptions =>
  options.areas ? { areas: options.areas } : {};

/** Logical id of a construct's CloudFormation resource (its default child) in its stack. */
export const logicalIdOf = (stack: Stack, construct: Construct): string =>
  stack.getLogicalId(construct.node.defaultChild as CfnElement);

// ---- template helpers ------------------------------------------------------------------------

export interface TemplateResource {
  readonly Type: string;
  /** Empty when the template gives none. */
  readonly Properties: Record<string, unknown>;
  readonly DeletionPolicy?: string;
  readonly UpdateReplacePolicy?: string;
  readonly DependsOn?: string[];
}

export const resourcesOf = (template: Template, type: string): Record<string, TemplateResource> =>
  Object.fromEntries(
    Object.entries(template.findResources(type) as Record<string, Partial<TemplateResource>>).map(
      ([logicalId, resource]) => [
        logicalId,
        { ...resource, Type: type, Properties: resource.Properties ?? {} },
      ],
    ),
  );

/**
 * What CloudFormation would make of a value built with `Fn::Join`, `Fn::Select`, `Fn::Split` and
 * `Ref` to the given parameters (pseudo parameters such as `AWS::StackId` included); anything else
 * throws, so a test cannot pass on a value it did not evaluate.
 */
export function evaluate(value: unknown, refs: Readonly<Record<string, string>>): string | string[] {
  if (typeof value === 'string') return value;
  const [[fn, args] = []] = Object.entries((value ?? {}) as Record<string, unknown>);
  const text = (v: unknown): string => {
    const result = evaluate(v, refs);
    if (typeof result !== 'string') throw new Error(`not a string: ${JSON.stringify(v)}`);
    return result;
  };
  if (fn === 'Ref' && typeof args === 'string' && args in refs) return refs[args] as string;
  if (fn === 'Fn::Join') {
    const [separator, parts] = args as [string, unknown[]];
    return parts.map(text).join(separator);
  }
  if (fn === 'Fn::Split') {
    const [separator, source] = args as [string, unknown];
    return text(source).split(separator);
  }
  if (fn === 'Fn::Select') {
    const [index, list] = args as [number | string, unknown];
    const items = evaluate(list, refs);
    const item = Array.isArray(items) ? items[Number(index)] : undefined;
    if (item === undefined) throw new Error(`no item ${index} in ${JSON.stringify(items)}`);
    return item;
  }
  throw new Error(`cannot evaluate ${JSON.stringify(value)}`);
}

/** A stack id as CloudFormation gives one: the GUID at its end is new on each creation. */
export const stackIdOf = (stackName: string, guid: string): string =>
  `arn:aws:cloudformation:eu-west-1:123456789012:stack/${stackName}/${guid}`;

export interface PolicyStatementJson {
  readonly Effect: string;
  readonly Action: string | string[];
  readonly Resource: unknown;
}

export const actionsOf = (statement: PolicyStatementJson): string[] =>
  Array.isArray(statement.Action) ? statement.Action : [statement.Action];

/** Every statement of every inline policy attached to a role (by the role's logical id). */
export function statementsOfRole(template: Template, roleLogicalId: string): PolicyStatementJson[] {
  return Object.values(resourcesOf(template, 'AWS::IAM::Policy'))
    .filter((policy) =>
      JSON.stringify(policy.Properties.Roles ?? []).includes(JSON.stringify({ Ref: roleLogicalId })),
    )
    .flatMap(
      (policy) => (policy.Properties.PolicyDocument as { Statement: PolicyStatementJson[] }).Statement,
    );
}

/** Logical id of the role a Lambda function runs as. */
export function roleOfFunction(fn: TemplateResource): string {
  const role = fn.Properties.Role as { 'Fn::GetAtt': [string, string] };
  return role['Fn::GetAtt'][0];
}

/** Full path (`/v1/...`) of every API Gateway resource, by logical id. */
export function resourcePaths(template: Template): Map<string, string> {
  const resources = resourcesOf(template, 'AWS::ApiGateway::Resource');
  const paths = new Map<string, string>();
  const pathOf = (logicalId: string): string => {
    const known = paths.get(logicalId);
    if (known !== undefined) return known;
    const resource = resources[logicalId];
    if (!resource) throw new Error(`no API Gateway resource ${logicalId}`);
    const parent = resource.Properties.ParentId as { Ref?: string; 'Fn::GetAtt'?: [string, string] };
    const parentPath = parent.Ref ? pathOf(parent.Ref) : '';
    const path = `${parentPath}/${String(resource.Properties.PathPart)}`;
    paths.set(logicalId, path);
    return path;
  };
  for (const logicalId of Object.keys(resources)) pathOf(logicalId);
  return paths;
}

// ---- functions and their grants ----------------------------------------------------------------

/** The function of a route, found by its description (which names the route). */
export function functionOfRoute(synth: Synthesized, route: RouteDefinition): TemplateResource {
  const matches = Object.values(resourcesOf(synth.apiTemplate, 'AWS::Lambda::Function')).filter(
    (fn) => fn.Properties.Description === functionDescription(route),
  );
  if (matches.length !== 1) throw new Error(`${matches.length} functions for ${route.name}`);
  return matches[0] as TemplateResource;
}

/** Environment variables of a function. */
export const environmentOf = (fn: TemplateResource): Record<string, unknown> =>
  (fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables;

export type SecretName = 'cursor' | 'registryCredential';

const SECRET_CONSTRUCT_IDS: Readonly<Record<SecretName, string>> = {
  cursor: 'CursorSigningSecret',
  registryCredential: 'RegistryCredentialSecret',
};

export interface Grants {
  readonly synth: Synthesized;
  /** Policy statements of a route's function role. */
  statements(route: RouteDefinition): PolicyStatementJson[];
  /** The statements among them whose resources name the table. */
  on(route: RouteDefinition, table: TableId): PolicyStatementJson[];
  /** The statements among them whose resources name the secret. */
  onSecret(route: RouteDefinition, secret: SecretName): PolicyStatementJson[];
  /** Logical id of a secret in the data stack (cross-stack references name it). */
  secretLogicalId(secret: SecretName): string;
}

export function grantsOf(synth: Synthesized): Grants {
  const statements = (route: RouteDefinition): PolicyStatementJson[] =>
    statementsOfRole(synth.apiTemplate, roleOfFunction(functionOfRoute(synth, route)));
  // Cross-stack references are imports whose export names contain the data stack's logical ids.
  const naming = (logicalId: string) => (statement: PolicyStatementJson) =>
    JSON.stringify(statement.Resource).includes(logicalId);
  const tableIds = Object.fromEntries(
    (Object.keys(tableDefinitions) as TableId[]).map((id) => [
      id,
      logicalIdOf(synth.data, synth.data.node.findChild(tableConstructId(id))),
    ]),
  ) as Record<TableId, string>;
  const secretLogicalId = (secret: SecretName): string =>
    logicalIdOf(synth.data, synth.data.node.findChild(SECRET_CONSTRUCT_IDS[secret]));
  return {
    synth,
    statements,
    on: (route, table) => statements(route).filter(naming(tableIds[table])),
    onSecret: (route, secret) => statements(route).filter(naming(secretLogicalId(secret))),
    secretLogicalId,
  };
}

/** The distinct actions of some statements, sorted. */
export const actionsIn = (statements: readonly PolicyStatementJson[]): string[] =>
  [...new Set(statements.flatMap(actionsOf))].sort();

// ---- functions other than routes ---------------------------------------------------------------

/** The one function of a template with this description (routes and workflow functions name themselves). */
export function functionWithDescription(template: Template, description: string): [string, TemplateResource] {
  const matches = Object.entries(resourcesOf(template, 'AWS::Lambda::Function')).filter(
    ([, fn]) => fn.Properties.Description === description,
  );
  if (matches.length !== 1) throw new Error(`${matches.length} functions described "${description}"`);
  return matches[0] as [string, TemplateResource];
}

/** Functions of the API stack that serve a route (the rest belong to the fulfilment workflow). */
export function routeFunctions(
  synth: Synthesized,
  routes: readonly RouteDefinition[],
): [string, TemplateResource][] {
  const descriptions = new Set(routes.map(functionDescription));
  return Object.entries(resourcesOf(synth.apiTemplate, 'AWS::Lambda::Function')).filter(([, fn]) =>
    descriptions.has(String(fn.Properties.Description)),
  );
}

// ---- the fulfilment state machine --------------------------------------------------------------

export interface WorkflowDefinition {
  readonly logicalId: string;
  readonly stateMachine: TemplateResource;
  /** The ASL file as deployed (the staged asset the template points at). */
  readonly text: string;
  /** `DefinitionSubstitutions` of the template, by name. */
  readonly substitutions: Record<string, unknown>;
  /**
   * The definition as CloudFormation will create it, with each `${name}` replaced; a substitution
   * `{"Fn::GetAtt": [<id>, "Arn"]}` is written `arn-of:<id>` and `{"Ref": <id>}` (an alias's ARN)
   * `ref-of:<id>` so that tests can follow them.
   */
  readonly substituted: string;
}

interface AssetManifest {
  readonly files: Record<
    string,
    {
      readonly source: { readonly path: string; readonly packaging?: string };
      readonly destinations: Record<string, { readonly objectKey: string }>;
    }
  >;
}

const substitutionText = (value: unknown): string => {
  if (typeof value === 'string') return value;
  const ref = (value as { Ref?: string }).Ref;
  if (typeof ref === 'string') return `ref-of:${ref}`;
  const getAtt = (value as { 'Fn::GetAtt'?: [string, string] })['Fn::GetAtt'];
  if (getAtt && getAtt[1] === 'Arn') return `arn-of:${getAtt[0]}`;
  return JSON.stringify(value);
};

export function workflowDefinition(synth: Synthesized): WorkflowDefinition {
  const machines = Object.entries(resourcesOf(synth.apiTemplate, 'AWS::StepFunctions::StateMachine'));
  if (machines.length !== 1) throw new Error(`${machines.length} state machines`);
  const [logicalId, stateMachine] = machines[0] as [string, TemplateResource];
  const key = (stateMachine.Properties.DefinitionS3Location as { Key: string }).Key;
  const manifest = JSON.parse(
    readFileSync(join(synth.outdir, `${synth.api.artifactId}.assets.json`), 'utf8'),
  ) as AssetManifest;
  const asset = Object.values(manifest.files).find((file) =>
    Object.values(file.destinations).some((destination) => destination.objectKey === key),
  );
  if (!asset) throw new Error(`no asset for the state machine definition ${key}`);
  const text = readFileSync(join(synth.outdir, asset.source.path), 'utf8');
  const substitutions = (stateMachine.Properties.DefinitionSubstitutions ?? {}) as Record<string, unknown>;
  const substituted = text.replace(/\$\{([^}]+)\}/g, (whole, name: string) =>
    Object.hasOwn(substitutions, name) ? substitutionText(substitutions[name]) : whole,
  );
  return { logicalId, stateMachine, text, substitutions, substituted };
}

// ---- live aliases ------------------------------------------------------------------------------

/**
 * What an event source mapping names as its function when it targets an alias: `<function
 * name>:live`, taken from the alias's ARN (so the mapping follows the alias).
 */
export const qualifiedNameOfAlias = (aliasLogicalId: string): unknown => ({
  'Fn::Join': ['', [{ 'Fn::Select': [6, { 'Fn::Split': [':', { Ref: aliasLogicalId }] }] }, ':live']],
});

/** Logical id of a function's `live` alias (lib/constructs/live-alias.ts): what its invokers name. */
export function aliasOfFunction(template: Template, functionLogicalId: string): string {
  const matches = Object.entries(resourcesOf(template, 'AWS::Lambda::Alias')).filter(
    ([, alias]) =>
      JSON.stringify(alias.Properties.FunctionName) === JSON.stringify({ Ref: functionLogicalId }),
  );
  if (matches.length !== 1) throw new Error(`${matches.length} aliases of ${functionLogicalId}`);
  return (matches[0] as [string, TemplateResource])[0];
}

/** The construct a capability built in the API stack (lib/capability-constructs.ts), by its type. */
const builtBy =
  <T>(capability: string) =>
  (api: ApiStack): T => {
    const built = api.capabilities.get(capability);
    if (!built) throw new Error(`capability ${capability} built nothing in the API stack`);
    return built.construct as T;
  };
export const fulfilmentOf = builtBy<Fulfilment>('orders');
export const webhooksOf = builtBy<Webhooks>('webhooks');
export const companyMonitoringOf = builtBy<CompanyMonitoring>('monitoring');
export const referenceRefreshOf = builtBy<ReferenceRefresh>('reference');
