import { Duration, Stack, Validations } from 'aws-cdk-lib';
import {
  Alarm,
  ComparisonOperator,
  type IAlarm,
  MathExpression,
  Metric,
  Stats,
  TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch';
import { LambdaApplication, LambdaDeploymentGroup } from 'aws-cdk-lib/aws-codedeploy';
import { Role } from 'aws-cdk-lib/aws-iam';
import { Alias, type Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';
import { DEPLOYMENT_STRATEGIES, type DeploymentStrategy } from '../deployment-strategies.ts';
import { acknowledgements } from '../nag.ts';
import { accountServicePrincipal } from './service-principal.ts';

/** The alias every invoker of every function names: API Gateway, the authorizer, queues, the workflow, schedules. */
export const LIVE_ALIAS = 'live';

/**
 * The share of a new version's invocations that may fail during its canary before it is rolled
 * back, in percent. Measured per minute on the version the alias runs (`ExecutedVersion`), so a
 * version that fails every request of a route called once in the canary's ten minutes fails it,
 * where a count of errors over the whole function would not notice.
 */
export const CANARY_ERROR_RATE_PERCENT = 10;

/** `AWS/Lambda` metric of the alias's invocations run by `version` (the new one during a shift). */
const versionMetric = (fn: LambdaFunction, version: string, metricName: 'Errors' | 'Invocations') =>
  new Metric({
    namespace: 'AWS/Lambda',
    metricName,
    dimensionsMap: {
      FunctionName: fn.functionName,
      Resource: `${fn.functionName}:${LIVE_ALIAS}`,
      ExecutedVersion: version,
    },
    statistic: Stats.SUM,
    period: Duration.minutes(1),
  });

const kebab = (pascal: string): string => pascal.replace(/(?<=[a-z0-9])(?=[A-Z])/g, '-').toLowerCase();

/** What a deploy of a changed function does, on every stack that holds live aliases. */
export interface LiveAliasOptions {
  readonly stage: string;
  readonly strategy: DeploymentStrategy;
}

/**
 * The `live` alias of each function, and with a CodeDeploy strategy its deployment group
 * (docs/decisions/0059-safe-deployments.md). A deploy that changes a function publishes a new
 * version (`currentVersion`); CloudFormation then updates the alias through the deployment group,
 * which shifts traffic to the new version as the stage's strategy says and rolls it back when the
 * function's errors alarm (or a route's internal-errors alarm: its handled 500s) fires during the
 * shift, when the deployment fails, or when an operator stops it. With `direct`, the alias moves to the new version at once.
 *
 * Made per stack (`in(scope)`): one CodeDeploy application per stack (`company-register-<stage>-<part>`),
 * one service role per stack shared by its groups, one group per function, named after it.
 * Nothing here is billed: CodeDeploy is free for Lambda, an alias invocation costs what an
 * unqualified one does.
 */
export class LiveAliases {
  private application?: LambdaApplication;
  private role?: Role;

  private constructor(
    readonly scope: Construct,
    readonly part: string,
    readonly options: LiveAliasOptions,
  ) {}

  /**
   * The aliases (and deployment groups) of one stack: `part` (PascalCase, unique in the app) names
   * its CodeDeploy application (`company-register-<stage>-<part in kebab case>`) and the
   * application's and role's construct ids (logical ids must differ across the nested stacks, whose
   * templates the infrastructure tests merge).
   */
  static in(scope: Construct, part: string, options: LiveAliasOptions): LiveAliases {
    return new LiveAliases(scope, part, options);
  }

  /** The CodeDeploy application of this stack, if the stage deploys through CodeDeploy. */
  get deploymentApplication(): LambdaApplication | undefined {
    return this.application;
  }

  /**
   * The function's `live` alias, in this object's scope, on the function's current version; with a
   * CodeDeploy strategy, a deployment group that rolls back on any of `rollbackAlarms` (the
   * function's errors alarm, and for a route its handled faults).
   */
  aliasOf(name: string, fn: LambdaFunction, ...rollbackAlarms: IAlarm[]): Alias {
    const alias = new Alias(this.scope, `${name}Live`, {
      aliasName: LIVE_ALIAS,
      version: fn.currentVersion,
      description: `What ${name}'s invokers call; moved to each new version by its deployment`,
    });
    const config = DEPLOYMENT_STRATEGIES[this.options.strategy];
    if (config === undefined) return alias;
    const { application, role } = this.codeDeploy();
    // The new version's error rate: the rollback a low-traffic function needs (no notification:
    // the deployment's own rollback is the action).
    const errorRate = new Alarm(this.scope, `${name}NewVersionErrorRate`, {
      alarmName: `company-register-${this.options.stage}-${kebab(name)}-new-version-error-rate`,
      alarmDescription: `${name}: over ${CANARY_ERROR_RATE_PERCENT}% of the live alias's new version's invocations failed in a minute; its deployment rolls back`,
      metric: new MathExpression({
        expression: 'IF(invocations > 0, 100 * errors / invocations, 0)',
        usingMetrics: {
          errors: versionMetric(fn, fn.currentVersion.version, 'Errors'),
          invocations: versionMetric(fn, fn.currentVersion.version, 'Invocations'),
        },
        period: Duration.minutes(1),
        label: `${name} new version error rate (%)`,
      }),
      threshold: CANARY_ERROR_RATE_PERCENT,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
    new LambdaDeploymentGroup(this.scope, `${name}Deployment`, {
      application,
      deploymentGroupName: name,
      alias,
      deploymentConfig: config,
      alarms: [...rollbackAlarms, errorRate],
      role,
      autoRollback: { failedDeployment: true, deploymentInAlarm: true, stoppedDeployment: true },
    });
    return alias;
  }

  private codeDeploy(): { application: LambdaApplication; role: Role } {
    if (this.application && this.role) return { application: this.application, role: this.role };
    this.application = new LambdaApplication(this.scope, `${this.part}Deployments`, {
      applicationName: `company-register-${this.options.stage}-${kebab(this.part)}`,
    });
    this.role = new Role(this.scope, `${this.part}DeploymentRole`, {
      assumedBy: accountServicePrincipal(this.scope, 'codedeploy.amazonaws.com'),
      description: `Shifts the live aliases of ${Stack.of(this.scope).node.id} (CodeDeploy)`,
    });
    Validations.of(this.role).acknowledge(acknowledgements.codeDeployManagedPolicy);
    return { application: this.application, role: this.role };
  }
}
