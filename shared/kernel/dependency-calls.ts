/**
 * What the service's calls to its dependencies (DynamoDB, the registry, S3, SES, SQS, EventBridge,
 * Step Functions) came to: the tracing the service does itself, beside Lambda's own active tracing
 * of each invocation (docs/decisions/0062-tracing-without-the-xray-sdk.md).
 *
 * Each call is recorded where every call of its kind passes (`callDynamo`, `signedRequest`, the
 * registry transport) into the collector of the invocation it belongs to. The local stack serves
 * many requests at once in one process, so the collector travels with the invocation's async
 * context (AsyncLocalStorage), never in a module variable. From it:
 * - the invocation's end line (the access line, a worker's "invocation completed") carries a
 *   summary by dependency and operation: count, total and longest latency, failures, and the
 *   last failure's name. Its size depends on the operations the code uses, not on the number of
 *   calls (a 100-person purchase makes over 200);
 * - the metrics `DependencyLatency` (milliseconds, every call's latency) and `DependencyErrors`
 *   (failed calls), by `Dependency`, as metric lines of at most 100 values each;
 * - a failed call gets its own warn line at once, so it is seen even if the invocation never ends.
 *
 * A call the dependency answered with a refusal the caller expects (a condition not met, a
 * registry code such as "company not found") is `rejected`: counted, not an error.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { putMetric, SERVICE_METRICS } from './metric-line.ts';
import { logger } from './observability.ts';

export type DependencyOutcome = 'ok' | 'rejected' | 'failed';

export interface DependencyCall {
  /** `DynamoDB`, `Registry`, or the AWS service's id (`S3`, `SESv2`, `SQS`…). */
  dependency: string;
  /** `GetItem`, `getCompany`, `PutObject`… */
  operation: string;
  latencyMs: number;
  outcome: DependencyOutcome;
  /** Of a call that did not succeed: the error's name, and its code when it has one. */
  errorName?: string;
  errorCode?: string;
}

/** One dependency and operation in an invocation's summary. */
export interface DependencyTally {
  count: number;
  totalMs: number;
  maxMs: number;
  /** Calls that failed (`DependencyErrors`). */
  errors: number;
  /** Calls answered with an expected refusal. */
  rejected?: number;
  /** The last failure's (or refusal's) error name, and code when it has one. */
  lastError?: string;
}

/** By dependency, then operation: `{ DynamoDB: { GetItem: { count: 3, … } } }`. */
export type DependencySummary = Record<string, Record<string, DependencyTally>>;

/** EMF takes at most 100 values of one metric in one line. */
const VALUES_PER_LINE = 100;

const roundMs = (ms: number) => Math.round(ms * 10) / 10;

class Collector {
  private readonly summary: DependencySummary = {};
  /** Latencies not yet written as a metric line, by dependency. */
  private readonly pending = new Map<string, { latencies: number[]; errors: number }>();
  private finished = false;

  add(call: DependencyCall): void {
    if (this.finished) {
      writeMetrics(call.dependency, [call.latencyMs], call.outcome === 'failed' ? 1 : 0);
      return;
    }
    const byOperation = this.summary[call.dependency] ?? {};
    this.summary[call.dependency] = byOperation;
    const tally = byOperation[call.operation] ?? { count: 0, totalMs: 0, maxMs: 0, errors: 0 };
    byOperation[call.operation] = tally;
    tally.count += 1;
    tally.totalMs = roundMs(tally.totalMs + call.latencyMs);
    tally.maxMs = Math.max(tally.maxMs, roundMs(call.latencyMs));
    if (call.outcome === 'failed') tally.errors += 1;
    if (call.outcome === 'rejected') tally.rejected = (tally.rejected ?? 0) + 1;
    if (call.outcome !== 'ok') tally.lastError = describeError(call);

    let pending = this.pending.get(call.dependency);
    if (!pending) {
      pending = { latencies: [], errors: 0 };
      this.pending.set(call.dependency, pending);
    }
    pending.latencies.push(call.latencyMs);
    if (call.outcome === 'failed') pending.errors += 1;
    if (pending.latencies.length >= VALUES_PER_LINE) {
      writeMetrics(call.dependency, pending.latencies, pending.errors);
      this.pending.delete(call.dependency);
    }
  }

  /** Writes what is left of the metrics and answers the summary; later calls are metrics only. */
  finish(): DependencySummary {
    if (!this.finished) {
      this.finished = true;
      for (const [dependency, { latencies, errors }] of this.pending)
        writeMetrics(dependency, latencies, errors);
      this.pending.clear();
    }
    return this.summary;
  }
}

const describeError = (call: DependencyCall) =>
  call.errorCode && call.errorCode !== call.errorName
    ? `${call.errorName ?? 'Error'} (${call.errorCode})`
    : (call.errorName ?? 'Error');

function writeMetrics(dependency: string, latencies: number[], errors: number): void {
  putMetric(
    SERVICE_METRICS.dependencyLatency,
    { Dependency: dependency },
    latencies.map((ms) => roundMs(ms)),
  );
  putMetric(SERVICE_METRICS.dependencyErrors, { Dependency: dependency }, errors);
}

const invocation = new AsyncLocalStorage<Collector>();

/**
 * Runs one invocation (a request, a worker's event) with its own collector; whatever it calls,
 * concurrently or not, is recorded there. `finishDependencyCalls` inside it ends the collection.
 */
export function withDependencyCalls<T>(run: () => T): T {
  return invocation.run(new Collector(), run);
}

/**
 * The current invocation's summary (undefined when it made no call), its metrics written. Called
 * once, where the invocation writes its end line.
 */
export function finishDependencyCalls(): DependencySummary | undefined {
  const summary = invocation.getStore()?.finish();
  return summary && Object.keys(summary).length > 0 ? summary : undefined;
}

/** Records one call: in the invocation's collector, or straight as metrics outside one. */
export function recordDependencyCall(call: DependencyCall): void {
  if (call.outcome === 'failed') {
    logger.warn('dependency call failed', {
      dependency: call.dependency,
      operation: call.operation,
      latencyMs: roundMs(call.latencyMs),
      errorName: call.errorName,
      ...(call.errorCode ? { errorCode: call.errorCode } : {}),
    });
  }
  const collector = invocation.getStore();
  if (collector) collector.add(call);
  else writeMetrics(call.dependency, [call.latencyMs], call.outcome === 'failed' ? 1 : 0);
}

/** How a thrown error counts: a refusal the caller expects, or a failure; with its name and code. */
export type ClassifyFailure = (error: unknown) => {
  outcome: 'rejected' | 'failed';
  errorName: string;
  errorCode?: string;
};

const failed: ClassifyFailure = (error) => ({
  outcome: 'failed',
  errorName: (error as Error | undefined)?.name ?? 'Error',
});

/** `run`, timed and recorded as one call of `operation` to `dependency` (its retries included). */
export async function timeDependencyCall<T>(
  dependency: string,
  operation: string,
  run: () => Promise<T>,
  classify: ClassifyFailure = failed,
): Promise<T> {
  const startedAt = performance.now();
  try {
    const result = await run();
    recordDependencyCall({ dependency, operation, latencyMs: performance.now() - startedAt, outcome: 'ok' });
    return result;
  } catch (error) {
    const latencyMs = performance.now() - startedAt;
    recordDependencyCall({ dependency, operation, latencyMs, ...classify(error) });
    throw error;
  }
}
