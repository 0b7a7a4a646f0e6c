/**
 * The audit trail and the bounded consumers, on the synthesized prod templates: every log group
 * keeps a year and outlives its stack, the WAF keeps no credential (no samples, data protection and
 * redaction of every credential field), the
 * orders bucket keeps overwritten objects for a while, and both SQS consumers are capped.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { functionDescription } from '../../lib/api-stack.ts';
import { NONCURRENT_VERSION_DAYS } from '../../lib/data-stack.ts';
import { registryAccountShare } from '../../lib/registry-capacity.ts';
import { PROJECT_ROOT } from '../../lib/routes.ts';
import { CONSUMER_CONCURRENCY, LIVE_LOG_RETENTION_DAYS } from '../../lib/settings.ts';
import { routeList } from '../../shared/app/routes.ts';
import { SIGN_IN_PATH, SIGN_IN_TOKEN_PARAM } from '../../shared/console/sign-in.ts';
import { REGISTRY_ACCOUNT_IN_FLIGHT_ENV } from '../../shared/kernel/config.ts';
import { CSRF_HEADER, SESSION_COOKIE } from '../../shared/kernel/sessions.ts';
import { WORKFLOW_TIMEOUT } from '../../shared/orders/cdk/fulfilment.ts';
import { IMAGE_POLLING } from '../../shared/orders/steps/common.ts';
import { undocumentedCapabilityRoutes } from './new-capabilities.ts';
import {
  environmentOf,
  evaluate,
  resourcesOf,
  routeFunctions,
  type Synthesized,
  stackIdOf,
  synthesize,
  workflowDefinition,
} from './synth.ts';

const FIRST_CREATION = '5a6f4c10-8b1e-11ef-9c1d-0a1b2c3d4e5f';
const SECOND_CREATION = 'c2e9d7a0-8b1f-11ef-a3b4-06f7e8d9c0b1';

describe('prod: audit trail and bounded consumers', () => {
  let synth: Synthesized;
  beforeAll(() => {
    synth = synthesize({ context: { stage: 'prod' } });
  }, 120_000);

  it('keeps every log group of every template a year, and keeps it when a stack is deleted', () => {
    const groups = Object.entries(resourcesOf(synth.apiTemplate, 'AWS::Logs::LogGroup'));
    // Access, execution, WAF, workflow logs and one per function.
    const functions = Object.keys(resourcesOf(synth.apiTemplate, 'AWS::Lambda::Function')).length;
    expect(groups.length).toBe(functions + 4);
    for (const [id, group] of groups) {
      expect(group.Properties.RetentionInDays, id).toBe(LIVE_LOG_RETENTION_DAYS);
      expect(group.DeletionPolicy, id).toBe('Retain');
      expect(group.UpdateReplacePolicy, id).toBe('Retain');
    }
    expect(LIVE_LOG_RETENTION_DAYS).toBeGreaterThanOrEqual(365);
  });

  describe('no credential in WAF data', () => {
    /** Every credential a request may carry, where it is carried (docs/infrastructure.md, "WAF"). */
    const CREDENTIALS = {
      headers: ['authorization', 'cookie', CSRF_HEADER],
      cookies: [SESSION_COOKIE],
      queryArguments: ['token'],
    };
    const acl = () => {
      const [entry] = Object.entries(resourcesOf(synth.apiTemplate, 'AWS::WAFv2::WebACL'));
      return { id: entry?.[0] as string, properties: entry?.[1].Properties as Record<string, unknown> };
    };

    it('names the credentials the service reads: the key, the console cookie, the CSRF token, the link token', () => {
      expect(CREDENTIALS.cookies).toStrictEqual(['__Host-crds_console']);
      expect(CSRF_HEADER).toBe('x-csrf-token');
      expect(new URL(`https://x${SIGN_IN_PATH}?${SIGN_IN_TOKEN_PARAM}=t`).searchParams.get('token')).toBe(
        't',
      );
    });

    it('keeps no sampled request: sampling is off on the web ACL and on every rule', () => {
      const { properties } = acl();
      const visibilities = [
        properties.VisibilityConfig,
        ...(properties.Rules as { VisibilityConfig: unknown }[]).map((rule) => rule.VisibilityConfig),
      ] as { SampledRequestsEnabled: boolean }[];
      expect(visibilities.length).toBe(4);
      for (const visibility of visibilities) expect(visibility.SampledRequestsEnabled).toBe(false);
    });

    it('substitutes every credential field in what WAF stores (samples and logs alike)', () => {
      const { DataProtections } = acl().properties.DataProtectionConfig as {
        DataProtections: { Action: string; Field: { FieldType: string; FieldKeys: string[] } }[];
      };
      const protectedKeys = (type: string) =>
        DataProtections.filter((p) => p.Field.FieldType === type && p.Action === 'SUBSTITUTION').flatMap(
          (p) => p.Field.FieldKeys,
        );
      for (const header of CREDENTIALS.headers) expect(protectedKeys('SINGLE_HEADER')).toContain(header);
      for (const cookie of CREDENTIALS.cookies) expect(protectedKeys('SINGLE_COOKIE')).toContain(cookie);
      for (const argument of CREDENTIALS.queryArguments)
        expect(protectedKeys('SINGLE_QUERY_ARGUMENT')).toContain(argument);
    });

    it('logs every request to a WAF log group, with every credential header and the query string redacted', () => {
      const [logging] = Object.values(resourcesOf(synth.apiTemplate, 'AWS::WAFv2::LoggingConfiguration'));
      expect(logging?.Properties.ResourceArn).toStrictEqual({ 'Fn::GetAtt': [acl().id, 'Arn'] });
      const redacted = logging?.Properties.RedactedFields as Record<string, unknown>[];
      for (const header of CREDENTIALS.headers)
        expect(redacted).toContainEqual({ SingleHeader: { Name: header } });
      // Logging cannot redact one query argument; the sign-in token is one, so the whole string goes.
      expect(redacted).toContainEqual({ QueryString: {} });
      const groups = Object.values(resourcesOf(synth.apiTemplate, 'AWS::Logs::LogGroup'));
      const wafGroup = groups.find((group) =>
        JSON.stringify(group.Properties.LogGroupName ?? '').includes('aws-waf-logs-'),
      );
      const destinations = logging?.Properties.LogDestinationConfigs as unknown[];
      expect(destinations).toHaveLength(1);
      const [destination] = destinations;
      // Two creations of the stack (a destroy and a redeploy): two names, so the group the first
      // retained never blocks the second; within one creation the logging names the same group.
      const names = [FIRST_CREATION, SECOND_CREATION].map((guid) => {
        const { account, region, stackName } = synth.api;
        const refs = { 'AWS::Partition': 'aws', 'AWS::StackId': stackIdOf(stackName, guid) };
        const name = evaluate(wafGroup?.Properties.LogGroupName, refs);
        expect(evaluate(destination, refs)).toBe(`arn:aws:logs:${region}:${account}:log-group:${name}`);
        return name;
      });
      expect(names).toEqual([
        `aws-waf-logs-company-register-prod-${FIRST_CREATION}`,
        `aws-waf-logs-company-register-prod-${SECOND_CREATION}`,
      ]);
    });
  });

  it('versions the orders bucket and expires its noncurrent versions', () => {
    const buckets = Object.values(resourcesOf(synth.dataTemplate, 'AWS::S3::Bucket'));
    const orders = buckets.find((bucket) => JSON.stringify(bucket.Properties).includes('orders-bucket/'));
    expect(orders?.Properties.VersioningConfiguration).toEqual({ Status: 'Enabled' });
    const rules = (
      orders?.Properties.LifecycleConfiguration as { Rules: Record<string, unknown>[] } | undefined
    )?.Rules;
    expect(rules).toContainEqual(
      expect.objectContaining({
        Id: 'ExpireNoncurrentVersions',
        Status: 'Enabled',
        NoncurrentVersionExpiration: { NoncurrentDays: NONCURRENT_VERSION_DAYS },
      }),
    );
  });

  it("limits each account on each registry route to part of the route's reserved concurrency", () => {
    const functions = routeFunctions(synth, routeList);
    const registryRoutes = routeList.filter((route) => route.usesRegistry);
    expect(registryRoutes.length).toBeGreaterThan(10);
    for (const [id, fn] of functions) {
      const route = routeList.find(
        (candidate) => functionDescription(candidate) === fn.Properties.Description,
      );
      const env = environmentOf(fn);
      if (!route?.usesRegistry) {
        expect(env[REGISTRY_ACCOUNT_IN_FLIGHT_ENV], id).toBeUndefined();
        continue;
      }
      const reserved = fn.Properties.ReservedConcurrentExecutions as number;
      const perAccount = Number(env[REGISTRY_ACCOUNT_IN_FLIGHT_ENV]);
      expect(perAccount, route.name).toBe(registryAccountShare(reserved));
      expect(perAccount, route.name).toBeLessThan(reserved);
    }
  });

  it('has docs/operations.md and docs/infrastructure.md give the reserved concurrency the template has', () => {
    const reserved = Object.values(resourcesOf(synth.apiTemplate, 'AWS::Lambda::Function'))
      .map((fn) => fn.Properties.ReservedConcurrentExecutions as number | undefined)
      .filter((value) => value !== undefined);
    const shares = [...new Set(reserved)];
    expect(shares).toHaveLength(1);
    const [share] = shares as [number];
    // The docs count the app's own callers; a capability not yet in docs/infrastructure.md adds its registry routes.
    const callers =
      reserved.length - undocumentedCapabilityRoutes().filter((route) => route.usesRegistry).length;
    const flat = (file: string) =>
      readFileSync(join(PROJECT_ROOT, 'docs', file), 'utf8').replace(/\s+/g, ' ');
    expect(flat('operations.md')).toContain(
      `(${callers} on prod, company monitoring's \`RunMonitoring\` among them) | \`160\` (${share} each)`,
    );
    expect(flat('operations.md')).toContain(
      `${callers} on prod) gets \`floor(registryConcurrency / ${callers})\``,
    );
    expect(flat('operations.md')).toContain(
      `(${share} on prod; one account holds at most ${registryAccountShare(share)} of a registry route's ${share} instances)`,
    );
    expect(flat('infrastructure.md')).toContain(`the monitoring run: ${callers} on prod, ${share} each)`);
  });

  it('stops a fulfilment execution that outlives the longest healthy order', () => {
    const timeout = WORKFLOW_TIMEOUT.toSeconds();
    const deployed = JSON.parse(workflowDefinition(synth).text) as { TimeoutSeconds?: number };
    expect(deployed.TimeoutSeconds).toBe(timeout);
    expect(timeout).toBeGreaterThan(IMAGE_POLLING.giveUpAfterSeconds + IMAGE_POLLING.maxWaitSeconds);
  });

  it('caps every SQS consumer at its named maximum concurrency', () => {
    const mappings = Object.values(resourcesOf(synth.apiTemplate, 'AWS::Lambda::EventSourceMapping'));
    expect(mappings).toHaveLength(3);
    const caps = mappings.map(
      (mapping) => (mapping.Properties.ScalingConfig as { MaximumConcurrency: number }).MaximumConcurrency,
    );
    expect(caps.sort((a, b) => a - b)).toEqual(
      [
        CONSUMER_CONCURRENCY.fulfilmentStarter,
        CONSUMER_CONCURRENCY.webhookDispatcher,
        CONSUMER_CONCURRENCY.monitoringRun,
      ].sort((a, b) => a - b),
    );
    for (const cap of caps) expect(cap).toBeGreaterThanOrEqual(2);
  });
});
