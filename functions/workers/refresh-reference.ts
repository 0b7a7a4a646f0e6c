import { awsPorts, now } from '../../shared/composition/aws/root.ts';
import { instrumented } from '../../shared/orders/instrumented.ts';
import { liveReferenceRegistry, referenceStore } from '../../shared/reference/composition/refresh.ts';
import { REFERENCE_REFRESH } from '../../shared/reference/infra.ts';
import {
  ReferenceRefreshFailed,
  type RefreshOutcome,
  refreshReference,
  refreshSucceeded,
} from '../../shared/reference/refresh.ts';
import type { ReferenceRegistry } from '../../shared/reference/registry-port.ts';
import type { ReferenceStore } from '../../shared/reference/store-port.ts';

export interface RefreshPorts {
  /** The live registry: the refresh never reads the sandbox. */
  registry: ReferenceRegistry;
  store: ReferenceStore;
  now(): Date;
}

/**
 * Once a day (EventBridge schedule): refreshes the form schedule and the code tables. Fails when
 * a kind was not stored, so the function's `Failures` metric counts toward the alarm.
 */
export const createHandler = (ports: RefreshPorts) =>
  instrumented<unknown, { outcomes: RefreshOutcome[] }>(
    REFERENCE_REFRESH.name,
    async (_event, context) => {
      const outcomes = await refreshReference({ ...ports, requestId: context.awsRequestId });
      if (!refreshSucceeded(outcomes)) throw new ReferenceRefreshFailed(outcomes);
      return { outcomes };
    },
    { summary: (result) => result as Record<string, unknown> },
  );

export const handler = createHandler(
  awsPorts({ registry: liveReferenceRegistry, store: referenceStore, now }),
);
