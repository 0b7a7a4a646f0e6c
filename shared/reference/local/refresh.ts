/**
 * The daily reference refresh on the local stack: the same handler Lambda runs
 * (functions/workers/refresh-reference.ts), against the registry simulator and DynamoDB Local.
 * `POST /__local/refresh-reference` runs it now; `intervalMs` runs it on a timer as EventBridge's
 * schedule does (`npm start` runs it at start and then daily).
 */
import type { RefreshPorts } from '../../../functions/workers/refresh-reference.ts';
import { lazyHandlerWith } from '../../../local/functions.ts';
import { lambdaContext } from '../../../local/lambda-context.ts';
import { REFERENCE_REFRESH, REFERENCE_REFRESH_TIMEOUT_SECONDS } from '../infra.ts';
import { ReferenceRefreshFailed, type RefreshOutcome } from '../refresh.ts';

type RefreshHandler = (
  event: unknown,
  context: ReturnType<typeof lambdaContext>,
) => Promise<{ outcomes: RefreshOutcome[] }>;

export interface LocalReferenceRefresh {
  /** Runs the refresh now: what became of each kind, and whether all were stored. */
  run(): Promise<{ refreshed: boolean; outcomes: readonly RefreshOutcome[] }>;
  stop(): void;
}

export function startLocalReferenceRefresh(ports: RefreshPorts, intervalMs?: number): LocalReferenceRefresh {
  const handler = lazyHandlerWith<RefreshHandler>(REFERENCE_REFRESH.handler, ports);
  const run = async () => {
    try {
      const { outcomes } = await (await handler())(
        {},
        lambdaContext(REFERENCE_REFRESH.name, REFERENCE_REFRESH_TIMEOUT_SECONDS * 1000),
      );
      return { refreshed: true, outcomes };
    } catch (error) {
      if (error instanceof ReferenceRefreshFailed) return { refreshed: false, outcomes: error.outcomes };
      throw error;
    }
  };
  const timer = intervalMs
    ? setInterval(() => {
        run().catch((error) => console.error('reference refresh failed', error));
      }, intervalMs)
    : undefined;
  timer?.unref();
  return { run, stop: () => clearInterval(timer) };
}
