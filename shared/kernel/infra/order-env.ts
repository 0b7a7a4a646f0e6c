/**
 * The environment names of the asynchronous tier's resources (the orders bucket and queue, the
 * workflow, the event bus, the sender, the API's own URL): the service's configuration
 * (kernel/config.ts) reads them; CDK and the local stack set them.
 */
export const ORDER_ENV = {
  bucket: 'ORDERS_BUCKET',
  queueUrl: 'FULFILMENT_QUEUE_URL',
  stateMachineArn: 'FULFILMENT_STATE_MACHINE_ARN',
  eventBus: 'EVENT_BUS_NAME',
  mailFrom: 'MAIL_FROM',
  /** Base URL of the API, for `downloadUrl`. */
  apiBaseUrl: 'API_BASE_URL',
} as const;
