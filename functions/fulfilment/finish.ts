import { systemClock } from '../../shared/domain/clock.ts';
import { apiBaseUrl } from '../../shared/orders/present.ts';
import { s3BlobStore } from '../../shared/orders/services/blobs.ts';
import { eventBridgePublisher } from '../../shared/orders/services/events.ts';
import { workflowTask } from '../../shared/orders/services/instrumented.ts';
import { offlineSearchStore, orderStore } from '../../shared/orders/services/stores.ts';
import { type FinishInput, type FinishPorts, finish } from '../../shared/orders/steps/finish.ts';

/** The task given its ports (the local stack passes its own). */
export const createHandler = (ports: FinishPorts) =>
  workflowTask('Finish', (input: FinishInput) => finish(ports, input));

export const handler = createHandler({
  orders: orderStore(),
  searches: offlineSearchStore(),
  blobs: s3BlobStore(),
  events: eventBridgePublisher(),
  apiBaseUrl: apiBaseUrl(),
  now: () => systemClock.now(),
});
