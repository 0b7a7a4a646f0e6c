import { Metrics } from '@aws-lambda-powertools/metrics';
import { afterEach, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { lambdaContext } from '../../../local/lambda-context.ts';
import { timeDependencyCall } from '../../../shared/kernel/dependency-calls.ts';
import { logger } from '../../../shared/kernel/observability.ts';
import { instrumented, workflowTask } from '../../../shared/orders/instrumented.ts';
import { StepFailure } from '../../../shared/orders/steps/failure.ts';

/**
 * The fulfilment functions' wrapper (shared/orders/instrumented.ts): one log line per
 * invocation with the order it works on, metrics of invocations, failures and latency.
 */
beforeAll(() => {
  process.env.POWERTOOLS_METRICS_DISABLED = 'true';
});

afterEach(() => {
  vi.restoreAllMocks();
});

const context = () => lambdaContext('MarkProcessing', 30_000);
const input = { kind: 'order' as const, id: 'ord_1' };

function watch() {
  const metrics: [string, number][] = [];
  vi.spyOn(Metrics.prototype, 'addMetric').mockImplementation(function (this: Metrics, name, _unit, value) {
    metrics.push([name, value]);
    return this;
  });
  return {
    metrics: () => metrics.map(([name]) => name),
    info: vi.spyOn(logger, 'info').mockImplementation(() => undefined),
    warn: vi.spyOn(logger, 'warn'),
    error: vi.spyOn(logger, 'error').mockImplementation(() => undefined),
  };
}

describe('a workflow task', () => {
  it('runs its step with the keys of the order in every log line, then logs and measures the invocation', async () => {
    // The level comes from the environment, which another project's set-up may have set to ERROR.
    const level = logger.getLevelName();
    logger.setLogLevel('WARN');
    onTestFinished(() => logger.setLogLevel(level));
    const seen = watch();
    const lines: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      lines.push(String(chunk));
      return true;
    });
    const handler = workflowTask('MarkProcessing', async (given: typeof input) => {
      logger.warn('inside the step');
      return { deliveryMethod: 'web', finished: false, given };
    });
    expect(await handler(input, context())).toStrictEqual({
      deliveryMethod: 'web',
      finished: false,
      given: input,
    });
    vi.mocked(process.stderr.write).mockRestore();
    const inside = lines
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line))
      .find((entry) => entry.message === 'inside the step');
    expect(inside).toMatchObject({
      function: 'MarkProcessing',
      step: 'MarkProcessing',
      kind: 'order',
      id: 'ord_1',
      function_name: 'MarkProcessing',
    });
    expect(seen.info).toHaveBeenCalledWith('invocation completed', { latencyMs: expect.any(Number) });
    expect(seen.metrics()).toStrictEqual(['Invocations', 'Latency']);
  });

  it('returns a registry rejection as the task’s result, logged as a warning, not counted as a failure', async () => {
    const seen = watch();
    const failure = { code: 'product_not_enabled', registryCode: 'ZZ02', message: 'Not enabled.' };
    const handler = workflowTask('RunOfflineSearch', async () => {
      throw new StepFailure('RegistryRejected', failure);
    });
    await expect(handler(input, context())).resolves.toStrictEqual({ failure });
    expect(seen.warn).toHaveBeenCalledWith('registry rejected the order', {
      errorName: 'RegistryRejected',
      failure,
    });
    expect(seen.info).toHaveBeenCalledWith('invocation completed', {
      latencyMs: expect.any(Number),
      rejected: 'product_not_enabled',
    });
    expect(seen.error).not.toHaveBeenCalled();
    expect(seen.metrics()).toStrictEqual(['Invocations', 'Latency']);
  });

  it('throws the registry’s unavailability for the state machine to retry, logged as a warning', async () => {
    const seen = watch();
    const failure = { code: 'registry_unavailable', registryCode: 'ZZ51', message: 'Maintenance.' };
    const handler = workflowTask('RequestImages', async () => {
      throw new StepFailure('RegistryUnavailable', failure);
    });
    await expect(handler(input, context())).rejects.toMatchObject({ name: 'RegistryUnavailable', failure });
    expect(seen.warn).toHaveBeenCalledWith('invocation failed', {
      latencyMs: expect.any(Number),
      errorName: 'RegistryUnavailable',
      failure,
    });
    expect(seen.error).not.toHaveBeenCalled();
    expect(seen.metrics()).toStrictEqual(['Invocations', 'Latency', 'Failures']);
  });

  it('logs any other error as an error and passes it on unchanged', async () => {
    const seen = watch();
    const boom = new TypeError('boom');
    const handler = workflowTask('Finish', async () => {
      throw boom;
    });
    await expect(handler(input, context())).rejects.toBe(boom);
    expect(seen.error).toHaveBeenCalledWith('invocation failed', {
      latencyMs: expect.any(Number),
      error: boom,
    });
  });
});

describe('the starter and the sweeper', () => {
  it('are logged with a summary of their result', async () => {
    const seen = watch();
    const handler = instrumented('SweepStalledFulfilment', async () => ({ restarted: 2 }), {
      summary: (result) => result as Record<string, unknown>,
    });
    expect(await handler({}, lambdaContext('SweepStalledFulfilment', 60_000))).toStrictEqual({
      restarted: 2,
    });
    expect(seen.info).toHaveBeenCalledWith('invocation completed', {
      latencyMs: expect.any(Number),
      restarted: 2,
    });
    expect(seen.metrics()).toStrictEqual(['Invocations', 'Latency']);
  });
});

describe('a worker’s dependency calls', () => {
  it('are summed up on its end line, by dependency and operation', async () => {
    const seen = watch();
    const throttled = Object.assign(new Error('slow down'), { name: 'SlowDown' });
    const handler = workflowTask('CompilePdf', async () => {
      await timeDependencyCall('S3', 'GetObject', async () => 'page');
      await timeDependencyCall('S3', 'GetObject', async () => 'page');
      await timeDependencyCall('S3', 'PutObject', async () => {
        throw throttled;
      }).catch(() => undefined);
      return { pages: 2 };
    });
    await handler(input, context());
    expect(seen.info).toHaveBeenCalledWith('invocation completed', {
      latencyMs: expect.any(Number),
      dependencies: {
        S3: {
          GetObject: { count: 2, totalMs: expect.any(Number), maxMs: expect.any(Number), errors: 0 },
          PutObject: {
            count: 1,
            totalMs: expect.any(Number),
            maxMs: expect.any(Number),
            errors: 1,
            lastError: 'SlowDown',
          },
        },
      },
    });
    expect(seen.warn).toHaveBeenCalledWith('dependency call failed', {
      dependency: 'S3',
      operation: 'PutObject',
      latencyMs: expect.any(Number),
      errorName: 'SlowDown',
    });
  });
});

describe('the trace id, with tracing left to Lambda', () => {
  it('is on every log line, read by the logger from the invocation’s environment', () => {
    const saved = process.env._X_AMZN_TRACE_ID;
    process.env._X_AMZN_TRACE_ID =
      'Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1';
    onTestFinished(() => {
      if (saved === undefined) delete process.env._X_AMZN_TRACE_ID;
      else process.env._X_AMZN_TRACE_ID = saved;
    });
    const lines: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      lines.push(String(chunk));
      return true;
    });
    logger.error('a line with its trace');
    vi.mocked(process.stderr.write).mockRestore();
    const line = lines
      .map((each) => JSON.parse(each))
      .find((each) => each.message === 'a line with its trace');
    expect(line?.xray_trace_id).toBe('1-5759e988-bd862e3fe1be46a994272793');
  });
});
