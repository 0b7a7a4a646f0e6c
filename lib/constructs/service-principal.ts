import { Stack } from 'aws-cdk-lib';
import { ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { Construct } from 'constructs';

/**
 * The services whose roles' trust policies carry `aws:SourceAccount` (cross-service confused
 * deputy prevention): each documents that it sets the key when it assumes a customer's role. API
 * Gateway (the authorizer's invoke role, the account's CloudWatch role) documents no such key for
 * a role it assumes, and Lambda execution roles are assumed by Lambda itself, so their trust
 * policies are left as they are (a condition the service does not send would break the role).
 */
export const SOURCE_ACCOUNT_SERVICES = [
  'states.amazonaws.com',
  'scheduler.amazonaws.com',
  'codedeploy.amazonaws.com',
] as const;

/** A service principal that may assume the role only on behalf of this stack's account. */
export const accountServicePrincipal = (
  scope: Construct,
  service: (typeof SOURCE_ACCOUNT_SERVICES)[number],
): ServicePrincipal =>
  new ServicePrincipal(service, {
    conditions: { StringEquals: { 'aws:SourceAccount': Stack.of(scope).account } },
  });
