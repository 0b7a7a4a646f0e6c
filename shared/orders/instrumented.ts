/**
 * The fulfilment functions' handler wrapper: each workflow task, the starter and the sweeper is
 * logged and measured as the HTTP pipeline does a route (shared/kernel/http/pipeline.ts): the
 * Lambda context in every log line, one line per invocation with its latency and what its calls
 * to dependencies came to (an error's name and message when it failed), and `Invocations`,
 * `Failures` and `Latency` metrics with the function's name as a dimension.
 */
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { finishDependencyCalls, withDependencyCalls } from '../kernel/dependency-calls.ts';
import { logger } from '../kernel/observability.ts';
import type { TaskName } from './infra.ts';
import type { WorkflowInput } from './steps/common.ts';
import { type Rejected, STEP_ERRORS, StepFailure } from './steps/failure.ts';

/** Metrics of one fulfilment function, named by a fixed dimension. */
export const functionMetrics = (name: string): Metrics =>
  new Metrics({
    serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'company-register',
    namespace: process.env.POWERTOOLS_METRICS_NAMESPACE ?? 'CompanyRegister',
    defaultDimensions: { function: name },
  });

export type LambdaHandler<E, R> = (event: E, context: Context) => Promise<R>;

export interface InstrumentOptions<E> {
  /** Log keys naming what this invocation works on. */
  keysOf?: (event: E) => Record<string, string>;
  /** What the invocation line says about its result (counts, not personal data). */
  summary?: (result: unknown) => Record<string, unknown> | undefined;
}

/** `handler` with Powertools logging and metrics and its dependency calls' summary, as Lambda runs it. */
export function instrumented<E, R>(
  name: string,
  handler: LambdaHandler<E, R>,
  options: InstrumentOptions<E> = {},
): LambdaHandler<E, R> {
  const metrics = functionMetrics(name);
  const core = async (event: E, context: Context): Promise<R> => {
    const startedAt = Date.now();
    const keys = { function: name, ...options.keysOf?.(event) };
    logger.appendKeys(keys);
    metrics.addMetric('Invocations', MetricUnit.Count, 1);
    const done = () => {
      const latencyMs = Date.now() - startedAt;
      metrics.addMetric('Latency', MetricUnit.Milliseconds, latencyMs);
      return { latencyMs, dependencies: finishDependencyCalls() };
    };
    try {
      const result = await handler(event, context);
      logger.info('invocation completed', { ...done(), ...options.summary?.(result) });
      return result;
    } catch (error) {
      const ended = done();
      metrics.addMetric('Failures', MetricUnit.Count, 1);
      if (error instanceof StepFailure) {
        // A registry failure the workflow retries: expected, not a fault.
        logger.warn('invocation failed', { ...ended, errorName: error.name, failure: error.failure });
      } else {
        logger.error('invocation failed', { ...ended, error: error as Error });
      }
      throw error;
    }
  };
  const run = middy<E, R, Error, Context>(core)
    .use(injectLambdaContext(logger, { resetKeys: true }))
    .use(logMetrics(metrics)) as unknown as LambdaHandler<E, R>;
  return (event, context) => withDependencyCalls(() => run(event, context));
}

/**
 * A workflow task's handler: its step, given the input Step Functions passes, instrumented under
 * the task's name (shared/orders/infra.ts), with the order or search it works on in every log
 * line. A registry rejection is the task's result, `{ failure }` (failure.ts): the
 * state machine reads it as data and sends the execution to its failed outcome.
 */
export const workflowTask = <I extends WorkflowInput, O>(name: TaskName, step: (input: I) => Promise<O>) =>
  instrumented<I, O | Rejected>(
    name,
    async (input) => {
      try {
        return await step(input);
      } catch (error) {
        if (!(error instanceof StepFailure && error.name === STEP_ERRORS.rejected)) throw error;
        logger.warn('registry rejected the order', { errorName: error.name, failure: error.failure });
        return { failure: error.failure };
      }
    },
    {
      keysOf: (input) => ({ step: name, kind: input.kind, id: input.id }),
      summary: (result) => (isRejected(result) ? { rejected: result.failure.code } : undefined),
    },
  );

const isRejected = (result: unknown): result is Rejected =>
  typeof (result as Partial<Rejected> | null)?.failure === 'object';
