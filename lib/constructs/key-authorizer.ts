import { Duration } from 'aws-cdk-lib';
import { IdentitySource, TokenAuthorizer } from 'aws-cdk-lib/aws-apigateway';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';
import { AUTHORIZER_CACHE_SECONDS, BEARER_HEADER_PATTERN } from '../../shared/kernel/http/authorizer.ts';
import { tableDefinitions } from '../../shared/kernel/infra/tables.ts';
import { workflowFunctionDescription } from './api-function.ts';
import { WorkerFunction, type WorkerScope } from './worker-function.ts';

/** The authorizer's function (functions/edge/authorize.ts). */
export const KEY_AUTHORIZER = { handler: 'edge/authorize', name: 'AuthorizeApiKey' } as const;

/** One key lookup (a GetItem): a fraction of a second even cold; API Gateway waits at most 10 s. */
export const KEY_AUTHORIZER_TIMEOUT = Duration.seconds(3);
/** The lookup needs little memory; 256 MB halves the cost of a cold invocation's milliseconds. */
export const KEY_AUTHORIZER_MEMORY_MB = 256;

export const KEY_AUTHORIZER_DESCRIPTION = workflowFunctionDescription(
  KEY_AUTHORIZER,
  'API Gateway TOKEN authorizer: denies unknown, revoked and expired keys and console sessions before any route runs',
);

/** API Gateway invokes the function's live alias. */
export interface KeyAuthorizerProps extends Omit<WorkerScope, 'registryConcurrency'> {
  readonly keysTable: ITable;
}

/**
 * The edge check of every keyed route (docs/decisions/0054-edge-check-token-authorizer.md): a TOKEN authorizer
 * whose validation expression makes API Gateway itself answer 401 to a request without a
 * well-formed bearer key or console edge token (no function runs), and whose function denies a
 * key, or a console session, that is not a usable one (each answer cached per header value for
 * `AUTHORIZER_CACHE_SECONDS`), so that no route function runs and nothing is written for it either.
 */
export class KeyAuthorizer extends Construct {
  readonly authorizer: TokenAuthorizer;
  /** With its `live` alias: what the authorizer invokes. */
  readonly function: WorkerFunction;
  /** The role API Gateway assumes to invoke the alias. */
  readonly invokeRole: Role;

  constructor(scope: Construct, id: string, props: KeyAuthorizerProps) {
    super(scope, id);
    this.function = new WorkerFunction(this, KEY_AUTHORIZER, props, {
      id: 'Function',
      description: KEY_AUTHORIZER_DESCRIPTION,
      timeout: KEY_AUTHORIZER_TIMEOUT,
      memorySize: KEY_AUTHORIZER_MEMORY_MB,
      invocation: 'synchronous',
    });
    this.function.bindTable(props.keysTable, tableDefinitions.keys, 'getItem');

    // API Gateway invokes the alias as this role (`lambda:InvokeFunction` on the alias alone)
    // rather than by a resource permission on the alias: that permission would be made in the
    // alias's stack and name the authorizer, which names the alias: a cycle between two stacks.
    this.invokeRole = new Role(this, 'InvokeRole', {
      assumedBy: new ServicePrincipal('apigateway.amazonaws.com'),
      description: 'API Gateway: invokes the key authorizer',
    });
    this.authorizer = new TokenAuthorizer(this, 'Authorizer', {
      handler: this.function.alias,
      assumeRole: this.invokeRole,
      authorizerName: 'api-key',
      identitySource: IdentitySource.header('Authorization'),
      validationRegex: BEARER_HEADER_PATTERN,
      resultsCacheTtl: Duration.seconds(AUTHORIZER_CACHE_SECONDS),
    });
  }
}
