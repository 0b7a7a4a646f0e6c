/** The daily reference refresh function (functions/workers/refresh-reference.ts), named once for CDK, the local stack and the bench. */
export const REFERENCE_REFRESH = {
  handler: 'workers/refresh-reference',
  name: 'RefreshReferenceData',
} as const;

/** Its timeout: two registry lookups and two small writes, with the transport's retries. */
export const REFERENCE_REFRESH_TIMEOUT_SECONDS = 60;
