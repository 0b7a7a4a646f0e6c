import { ArnFormat, Stack } from 'aws-cdk-lib';
import type { Stage } from 'aws-cdk-lib/aws-apigateway';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import { CfnLoggingConfiguration, CfnWebACL, CfnWebACLAssociation } from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import { SIGN_IN_TOKEN_PARAM } from '../../shared/console/sign-in.ts';
import { CSRF_HEADER, SESSION_COOKIE } from '../../shared/kernel/sessions.ts';
import { WAF_IP_RATE_LIMIT } from '../settings.ts';
import { perCreationLogGroupName } from './log-retention.ts';

/**
 * Every part of a request that carries a credential: the API key (`Authorization`), the console
 * session (its cookie, and the `Cookie` header that holds it), the session's CSRF token, and a
 * sign-in link's token (a query argument). None may reach WAF's sampled requests or its logs.
 */
export const WAF_CREDENTIAL_FIELDS = {
  headers: ['authorization', 'cookie', CSRF_HEADER],
  cookies: [SESSION_COOKIE],
  queryArguments: [SIGN_IN_TOKEN_PARAM],
} as const;

export interface ApiWebAclProps {
  readonly stage: Stage;
  /** Web ACL name and metric prefix. */
  readonly name: string;
}

const visibility = (metricName: string): CfnWebACL.VisibilityConfigProperty => ({
  cloudWatchMetricsEnabled: true,
  metricName,
  // Sampled requests show whole requests in the console, and the logging configuration's
  // redaction does not apply to them: no rule keeps samples (the logs hold every request).
  sampledRequestsEnabled: false,
});

/**
 * Data protection of the web ACL: AWS WAF substitutes each credential field in everything it
 * stores about a request (its logs and sampled requests alike), before the logging configuration's
 * own redaction. Both are set, so that neither alone is relied on.
 */
export const credentialDataProtection: CfnWebACL.DataProtectionConfigProperty = {
  dataProtections: [
    { fieldType: 'SINGLE_HEADER', fieldKeys: WAF_CREDENTIAL_FIELDS.headers },
    { fieldType: 'SINGLE_COOKIE', fieldKeys: WAF_CREDENTIAL_FIELDS.cookies },
    { fieldType: 'SINGLE_QUERY_ARGUMENT', fieldKeys: WAF_CREDENTIAL_FIELDS.queryArguments },
  ].map(({ fieldType, fieldKeys }) => ({
    action: 'SUBSTITUTION',
    field: { fieldType, fieldKeys: [...fieldKeys] },
    excludeRuleMatchDetails: false,
    excludeRateBasedDetails: false,
  })),
};

/**
 * What the logging configuration redacts: each credential header, and the whole query string
 * (logging can redact no single argument, and a sign-in link's token is one).
 */
export const WAF_REDACTED_FIELDS: CfnLoggingConfiguration.FieldToMatchProperty[] = [
  ...WAF_CREDENTIAL_FIELDS.headers.map((name) => ({ singleHeader: { Name: name } })),
  { queryString: {} },
];

const managedGroup = (priority: number, name: string): CfnWebACL.RuleProperty => ({
  name,
  priority,
  overrideAction: { none: {} },
  statement: { managedRuleGroupStatement: { vendorName: 'AWS', name } },
  visibilityConfig: visibility(name),
});

/**
 * A regional WAFv2 web ACL in front of the API stage. Rules are chosen for a JSON API called by
 * servers: AWS IP reputation list, known bad inputs, and a per-IP rate rule that stops one source
 * from using up the stage throttle before requests reach (and are billed by) the functions. The
 * common rule set is left out: its body-size and missing-User-Agent rules block legitimate API
 * clients, and bodies are validated by zod in the functions anyway.
 */
export class ApiWebAcl extends Construct {
  readonly webAcl: CfnWebACL;
  /** Every request the web ACL saw, allowed or blocked, with its credentials redacted. */
  readonly logGroup: LogGroup;

  constructor(scope: Construct, id: string, props: ApiWebAclProps) {
    super(scope, id);
    this.webAcl = new CfnWebACL(this, 'WebAcl', {
      name: props.name,
      scope: 'REGIONAL',
      defaultAction: { allow: {} },
      visibilityConfig: visibility(props.name),
      dataProtectionConfig: credentialDataProtection,
      rules: [
        managedGroup(0, 'AWSManagedRulesAmazonIpReputationList'),
        managedGroup(1, 'AWSManagedRulesKnownBadInputsRuleSet'),
        {
          name: 'RateLimitPerIp',
          priority: 2,
          action: { block: {} },
          statement: {
            rateBasedStatement: {
              aggregateKeyType: 'IP',
              limit: WAF_IP_RATE_LIMIT.limit,
              evaluationWindowSec: WAF_IP_RATE_LIMIT.windowSeconds,
            },
          },
          visibilityConfig: visibility('RateLimitPerIp'),
        },
      ],
    });
    const association = new CfnWebACLAssociation(this, 'Association', {
      resourceArn: props.stage.stageArn,
      webAclArn: this.webAcl.attrArn,
    });
    association.node.addDependency(props.stage);

    // WAF delivers only to log groups whose name starts with `aws-waf-logs-`; retention and
    // removal are the stage's (LogRetentionAspect). No credential is ever written.
    const logGroupName = perCreationLogGroupName(this, `aws-waf-logs-${props.name}`);
    this.logGroup = new LogGroup(this, 'Logs', { logGroupName });
    const logging = new CfnLoggingConfiguration(this, 'Logging', {
      resourceArn: this.webAcl.attrArn,
      // WAF wants the log group's ARN without the `:*` that `logGroupArn` ends with.
      logDestinationConfigs: [
        Stack.of(this).formatArn({
          service: 'logs',
          resource: 'log-group',
          resourceName: logGroupName,
          arnFormat: ArnFormat.COLON_RESOURCE_NAME,
        }),
      ],
      redactedFields: WAF_REDACTED_FIELDS,
    });
    logging.node.addDependency(this.logGroup);
  }
}
