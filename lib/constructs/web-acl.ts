import { ArnFormat, Stack } from 'aws-cdk-lib';
import type { Stage } from 'aws-cdk-lib/aws-apigateway';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import { CfnLoggingConfiguration, CfnWebACL, CfnWebACLAssociation } from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import { WAF_IP_RATE_LIMIT } from '../settings.ts';

/** The header WAF logging redacts: it carries the customer's API key. */
export const WAF_REDACTED_HEADER = 'authorization';

export interface ApiWebAclProps {
  readonly stage: Stage;
  /** Web ACL name and metric prefix. */
  readonly name: string;
}

const visibility = (metricName: string): CfnWebACL.VisibilityConfigProperty => ({
  cloudWatchMetricsEnabled: true,
  metricName,
  sampledRequestsEnabled: true,
});

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
  /** Every request the web ACL saw, allowed or blocked, with its `authorization` header redacted. */
  readonly logGroup: LogGroup;

  constructor(scope: Construct, id: string, props: ApiWebAclProps) {
    super(scope, id);
    this.webAcl = new CfnWebACL(this, 'WebAcl', {
      name: props.name,
      scope: 'REGIONAL',
      defaultAction: { allow: {} },
      visibilityConfig: visibility(props.name),
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
    // removal are the stage's (LogRetentionAspect). The bearer key is never written.
    const logGroupName = `aws-waf-logs-${props.name}`;
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
      redactedFields: [{ singleHeader: { Name: WAF_REDACTED_HEADER } }],
    });
    logging.node.addDependency(this.logGroup);
  }
}
