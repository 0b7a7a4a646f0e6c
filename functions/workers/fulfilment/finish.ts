import { eventLog } from '../../../shared/composition/aws/event-log.ts';
import { events } from '../../../shared/composition/aws/events.ts';
import { apiBaseUrl, awsPorts, now } from '../../../shared/composition/aws/root.ts';
import { blobs } from '../../../shared/orders/composition/blobs.ts';
import { offlineSearches, orders } from '../../../shared/orders/composition.ts';
import { workflowTask } from '../../../shared/orders/instrumented.ts';
import { type FinishInput, type FinishPorts, finish } from '../../../shared/orders/steps/finish.ts';

/** The task given its ports (the local stack passes its own). */
export const createHandler = (ports: FinishPorts) =>
  workflowTask('Finish', (input: FinishInput) => finish(ports, input));

export const handler = createHandler(
  awsPorts({ orders, searches: offlineSearches, blobs, events, eventLog, apiBaseUrl, now }),
);
