import { type ILambdaDeploymentConfig, LambdaDeploymentConfig } from 'aws-cdk-lib/aws-codedeploy';

/**
 * How a new version of a function takes its traffic, by setting name (`deployment` in
 * lib/stages.ts). Every function is invoked through its `live` alias (lib/constructs/live-alias.ts);
 * with a CodeDeploy configuration the alias gets a deployment group that shifts traffic to the new
 * version as configured and rolls back when the function's errors alarm fires; `direct` has no
 * deployment group, CloudFormation moves the alias to the new version at once.
 *
 * The canary window is 10 minutes, not 5: the errors alarm sums 5-minute periods and CloudWatch
 * evaluates a period a minute or two after it ends, so a 5-minute canary could finish before the
 * first period holding the new version's errors is judged
 * (docs/decisions/0059-safe-deployments.md).
 */
export const DEPLOYMENT_STRATEGIES = {
  direct: undefined,
  allAtOnce: LambdaDeploymentConfig.ALL_AT_ONCE,
  canary10Percent10Minutes: LambdaDeploymentConfig.CANARY_10PERCENT_10MINUTES,
  canary10Percent15Minutes: LambdaDeploymentConfig.CANARY_10PERCENT_15MINUTES,
  canary10Percent30Minutes: LambdaDeploymentConfig.CANARY_10PERCENT_30MINUTES,
  linear10PercentEvery2Minutes: LambdaDeploymentConfig.LINEAR_10PERCENT_EVERY_2MINUTES,
  linear10PercentEvery10Minutes: LambdaDeploymentConfig.LINEAR_10PERCENT_EVERY_10MINUTES,
} as const satisfies Record<string, ILambdaDeploymentConfig | undefined>;

export type DeploymentStrategy = keyof typeof DEPLOYMENT_STRATEGIES;

/** The strategy of a live stage that states none. */
export const LIVE_DEPLOYMENT: DeploymentStrategy = 'canary10Percent10Minutes';
/** The strategy of other stages: no CodeDeploy, a deploy takes effect at once. */
export const DEV_DEPLOYMENT: DeploymentStrategy = 'direct';
