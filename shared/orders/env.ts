/** Apart from infra.ts, whose workflow tables a function reading a setting must not bundle. */

/**
 * Orders' own resources, which the kernel's configuration does not know: CDK binds them on the
 * functions that use them (cdk/), and its composition (composition/) reads them.
 */
export const ORDERS_ENV = {
  bucket: 'ORDERS_BUCKET',
  queueUrl: 'FULFILMENT_QUEUE_URL',
  stateMachineArn: 'FULFILMENT_STATE_MACHINE_ARN',
} as const;
