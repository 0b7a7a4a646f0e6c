/** The metrics every route writes (Powertools `Metrics`, dimensions `service` and `route`), named once for the runtime and CDK. */
export const ROUTE_METRICS = {
  /**
   * Answers of 500 `internal_error`: a fault of ours (a bug, a refused permission, a response off
   * its schema), not the registry's, which a route answers as 502/503/504. A handled fault is no
   * Lambda error, so this is what rolls a route's canary back (lib/constructs/live-alias.ts).
   */
  internalErrors: 'InternalErrors',
} as const;
