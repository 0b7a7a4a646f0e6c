import {
  AwsIntegration,
  type IntegrationConfig,
  type IntegrationOptions,
  type Method,
} from 'aws-cdk-lib/aws-apigateway';
import { ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';

/** A resource path as an execute-api ARN names it: every `{param}` segment becomes `*`. */
export const pathForArn = (path: string): string => path.replace(/\{[^}]*\}/g, '*');

/**
 * What `LambdaIntegration` with `allowTestInvoke: false` deploys (a proxy integration invoking the
 * handler's ARN, and one `lambda:InvokeFunction` permission for API Gateway on that ARN, scoped to
 * the method's verb, path and stage), except that the permission names the stage by its name
 * instead of referencing the API's `Stage` resource.
 *
 * The methods live in the area stacks (nested stacks), the stage in the API stack, and the stage
 * follows the deployment, which follows every method: a reference from an area stack to the stage
 * would be a cycle (area stack → stage → deployment → area stack). The stage's name is known at
 * synth time (`settings.stage`), so the permission's source ARN is the very same string.
 *
 * The handler is a route function's `live` alias (lib/constructs/live-alias.ts): the integration
 * URI is the alias's ARN and the permission is the alias's, so a deployment's traffic shift is
 * what the gateway invokes.
 */
export class RouteIntegration extends AwsIntegration {
  private readonly handler: IFunction;
  private readonly stageName: string;

  constructor(handler: IFunction, stageName: string, options: IntegrationOptions = {}) {
    super({
      proxy: true,
      service: 'lambda',
      path: `2015-03-31/functions/${handler.functionArn}/invocations`,
      options,
    });
    this.handler = handler;
    this.stageName = stageName;
  }

  override bind(method: Method): IntegrationConfig {
    const config = super.bind(method);
    this.handler.addPermission('ApiPermission', {
      principal: new ServicePrincipal('apigateway.amazonaws.com'),
      scope: method,
      sourceArn: method.api.arnForExecuteApi(
        method.httpMethod,
        pathForArn(method.resource.path),
        this.stageName,
      ),
    });
    return config;
  }
}
