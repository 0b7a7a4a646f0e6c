import { mailer } from '../../../shared/composition/aws/mailer.ts';
import { registryFor } from '../../../shared/composition/aws/registry.ts';
import { awsPorts, now } from '../../../shared/composition/aws/root.ts';
import { blobs } from '../../../shared/orders/composition/blobs.ts';
import { offlineSearches } from '../../../shared/orders/composition.ts';
import { workflowTask } from '../../../shared/orders/instrumented.ts';
import type { WorkflowInput } from '../../../shared/orders/steps/common.ts';
import {
  type RunOfflineSearchPorts,
  runOfflineSearch,
} from '../../../shared/orders/steps/run-offline-search.ts';

/** The task given its ports (the local stack passes its own). */
export const createHandler = (ports: RunOfflineSearchPorts) =>
  workflowTask('RunOfflineSearch', (input: WorkflowInput) => runOfflineSearch(ports, input));

export const handler = createHandler(
  awsPorts({ searches: offlineSearches, registryFor, blobs, mailer, now }),
);
