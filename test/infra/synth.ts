/**
 * Synthesizes the CDK app in-process for the infrastructure tests: the context of cdk.json (feature
 * flags) plus `aws:cdk:bundling-stacks: []`, which makes every NodejsFunction skip esbuild, so a
 * synth takes seconds. cdk-nag runs exactly as in `cdk synth`; its findings are read back from the
 * validation report CDK writes into the cloud assembly.
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, type CfnElement, type Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { Construct } from 'constructs';
import { defaultEntryFor } from '../../lib/api-stack.ts';
import { type BuildAppOptions, buildApp, type CompanyRegisterApp } from '../../lib/app.ts';
import { PROJECT_ROOT } from '../../lib/routes.ts';
import type { RouteDefinition } from '../../shared/http/route.ts';

export const PLACEHOLDER_ENTRY = join(PROJECT_ROOT, 'test', 'infra', 'fixtures', 'placeholder-handler.ts');

/** A route's real module, or the placeholder while the module is not written yet. */
export const entryOrPlaceholder = (route: RouteDefinition): string => {
  const entry = defaultEntryFor(route);
  return existsSync(entry) ? entry : PLACEHOLDER_ENTRY;
};

export interface NagFinding {
  readonly plugin: string;
  readonly rule: string;
  readonly severity: string;
  readonly path: string;
}

export interface Synthesized extends CompanyRegisterApp {
  readonly dataTemplate: Template;
  readonly apiTemplate: Template;
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

export function synthesize(options: SynthOptions = {}): Synthesized {
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
  const template = (stack: Stack): Template =>
    Template.fromJSON(
      JSON.parse(readFileSync(join(outdir, stack.templateFile), 'utf8')) as Record<string, unknown>,
    );
  return { ...built, dataTemplate: template(built.data), apiTemplate: template(built.api), findings };
}

const withRoutes = (options: SynthOptions): BuildAppOptions =>
  options.routes ? { routes: options.routes } : {};

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
