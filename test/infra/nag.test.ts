import { Validations } from 'aws-cdk-lib';
import { CfnStage } from 'aws-cdk-lib/aws-apigateway';
import { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { describe, expect, it } from 'vitest';
import { ordersBucketExports } from '../../lib/data-stack.ts';
import { acknowledgements, BUCKET_OBJECT_KEYS_REASON } from '../../lib/nag.ts';
import { WAF_IP_RATE_LIMIT } from '../../lib/settings.ts';
import { resourcesOf, synthesize } from './synth.ts';

const describeFindings = (findings: readonly { severity: string; rule: string; path: string }[]): string[] =>
  findings.map((finding) => `${finding.severity} ${finding.rule} at ${finding.path}`);

describe('cdk-nag (AwsSolutions and Serverless)', () => {
  it('leaves no unacknowledged error or warning on a dev stage (no web ACL)', () => {
    const synth = synthesize();
    expect(describeFindings(synth.findings)).toEqual([]);
    synth.apiTemplate.resourceCountIs('AWS::WAFv2::WebACL', 0);
  }, 120_000);

  it('leaves no unacknowledged error or warning on a prod stage, which gets the web ACL', () => {
    const synth = synthesize({ context: { stage: 'prod' } });
    expect(describeFindings(synth.findings)).toEqual([]);
    synth.apiTemplate.resourceCountIs('AWS::WAFv2::WebACL', 1);
    synth.apiTemplate.resourceCountIs('AWS::WAFv2::WebACLAssociation', 1);
    synth.apiTemplate.hasResourceProperties('AWS::WAFv2::WebACL', {
      Scope: 'REGIONAL',
      DefaultAction: { Allow: {} },
    });
    const acl = Object.values(resourcesOf(synth.apiTemplate, 'AWS::WAFv2::WebACL'))[0];
    expect(JSON.stringify(acl?.Properties?.Rules)).toContain(`"Limit":${WAF_IP_RATE_LIMIT.limit}`);
  }, 120_000);

  it('reports a finding nobody acknowledged (so the checks above can fail)', () => {
    const synth = synthesize({
      beforeSynth: ({ api }) => {
        // A bare stage: no access logs (APIG1, error), no WAF (APIG3, warning), no execution logs (APIG6).
        new CfnStage(api, 'UnacknowledgedStage', { restApiId: 'abc123', stageName: 'control' });
        // A bare function: no dead-letter queue nor failure destination (Serverless-LambdaDLQ).
        new CfnFunction(api, 'UnacknowledgedFunction', {
          role: 'arn:aws:iam::111122223333:role/control',
          code: { zipFile: 'exports.handler = async () => {}' },
          runtime: 'nodejs22.x',
          handler: 'index.handler',
          memorySize: 256,
          timeout: 5,
          tracingConfig: { mode: 'Active' },
        });
      },
    });
    const found = describeFindings(synth.findings);
    expect(found).toContain('error AwsSolutions-APIG1 at CompanyRegister-dev-Api/UnacknowledgedStage');
    expect(found).toContain('warning AwsSolutions-APIG3 at CompanyRegister-dev-Api/UnacknowledgedStage');
    expect(found).toContain('error Serverless-LambdaDLQ at CompanyRegister-dev-Api/UnacknowledgedFunction');
    expect(
      found.every((finding) => /\/Unacknowledged(Stage|Function)$/.test(finding)),
      found.join('\n'),
    ).toBe(true);
  }, 120_000);

  it('acknowledges only rules listed in lib/nag.ts, each with a reason a reviewer can check', () => {
    const synth = synthesize();
    const acknowledged: [construct: string, id: string, reason: string][] = [];
    for (const construct of [...synth.data.node.findAll(), ...synth.api.node.findAll()]) {
      for (const entry of construct.node.metadata) {
        if (entry.type !== Validations.ACKNOWLEDGED_RULES_METADATA_KEY) continue;
        for (const [id, reason] of Object.entries(entry.data as Record<string, string>)) {
          acknowledged.push([construct.node.path, id.replace(/^annotation::/i, ''), reason]);
        }
      }
    }
    const ids = new Set(acknowledged.map(([, id]) => id));
    // One rule may be acknowledged on different constructs for different reasons (SMG4 on each secret).
    const catalogue = new Map<string, string[]>();
    for (const { id, reason } of Object.values(acknowledgements))
      catalogue.set(id, [...(catalogue.get(id) ?? []), reason]);
    // The orders bucket's object grants, one finding per key prefix (`bucketObjectKeys` in lib/nag.ts).
    const bucketArn = ordersBucketExports(synth.data.stackName).arn;
    for (const prefix of ['orders/', 'offline-searches/'])
      catalogue.set(`AwsSolutions-IAM5[Resource::${bucketArn}/${prefix}*]`, [BUCKET_OBJECT_KEYS_REASON]);
    expect(acknowledged.length).toBeGreaterThan(0);
    for (const [construct, id, reason] of acknowledged) {
      expect(catalogue.get(id) ?? [], `${id} at ${construct}`).toContain(reason);
      expect(reason.length, id).toBeGreaterThan(80);
    }
    // Dev has no web ACL, so the WAF rule is acknowledged; nothing broader than a finding id is.
    expect(ids.has(acknowledgements.noWaf.id)).toBe(true);
    expect([...ids].filter((id) => /^AwsSolutions-IAM[45]$/.test(id))).toEqual([]);
    // Each secret's rotation finding is acknowledged on that secret, with that secret's reason.
    const onSecret = (name: string) =>
      acknowledged.filter(([path, id]) => id === 'AwsSolutions-SMG4' && path.endsWith(`/${name}`));
    expect(onSecret('CursorSigningSecret').map(([, , reason]) => reason)).toEqual([
      acknowledgements.cursorSecretRotation.reason,
    ]);
    expect(onSecret('RegistryCredentialSecret').map(([, , reason]) => reason)).toEqual([
      acknowledgements.registryCredentialRotation.reason,
    ]);
  }, 120_000);
});
