/**
 * The environment names of the platform's resources several capabilities use (the event bus, the
 * sender, the API's own URL): the service's configuration (kernel/config.ts) reads them; CDK and the
 * local stack set them. Orders' own resources (bucket, queue, workflow) are in shared/orders/infra.ts.
 */
export const PLATFORM_ENV = {
  eventBus: 'EVENT_BUS_NAME',
  mailFrom: 'MAIL_FROM',
  /** Base URL of the API, for `downloadUrl`, result links and the passkeys' default relying party. */
  apiBaseUrl: 'API_BASE_URL',
} as const;
