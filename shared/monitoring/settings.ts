/**
 * Company monitoring's named settings (docs/monitoring.md,
 * docs/decisions/0065-company-monitoring.md): the cap per account, how long events are kept in the
 * feed, and the settling time of the feed's reads.
 */

/** Monitors an account may hold per environment (company and person monitors together). */
export const MONITOR_CAP = 100_000;

/** Monitoring events are readable from the feed for this long (the issue asks at least 90 days). */
export const MONITORING_EVENT_RETENTION_MS = 90 * 24 * 3600_000;

/**
 * The feed shows only events written at least this long ago: a job's writers take their times
 * before they write, so an event can land behind a newer one by at most the length of one write;
 * a reader that resumes from a position never skips one that lands late.
 */
export const FEED_SETTLE_MS = 60_000;

/** Most rows of one bulk import. */
export const MAX_IMPORT_ROWS = 100_000;

/**
 * An import commit of at most this many rows runs within the request and answers its outcome (200);
 * a larger one answers 202 and runs on the monitoring worker. At DynamoDB's 1,000 write units a
 * second on the owner's partition (two writes a row) a commit creates about 250 rows a second at
 * worst: 1,000 rows take about 4 s, well inside the gateway's 29 s, and a commit that falls back to
 * one transaction a row (the cap nearly reached) about 10 s
 * (docs/decisions/0066-monitoring-imports.md).
 */
export const SYNC_IMPORT_ROWS = 1_000;

/** Rows of an import's chunk: one queue message, one hold of the cap, one outcome. */
export const IMPORT_CHUNK_ROWS = 500;

/**
 * Registry calls a second the daily check may make (free reads: a lookup and, where the type has
 * one, the document list). 1,000,000 distinct companies × 2 calls ÷ 24 registry-hours ≈ 23 a
 * second; with 20 the check of 1,000,000 companies takes about 28 hours, so the setting must be at
 * least 25 for that scale (docs/decisions/0069-monitoring-jobs-and-capacity.md).
 */
export const MONITORING_REGISTRY_CALLS_PER_SECOND = 25;

/**
 * `product` of monitoring's usage entries (our product: no registry fee code), priced per
 * monitored company-day by the stage's price schedule (shared/usage/prices.ts).
 */
export const MONITORING_PRODUCT = 'monitoring';
