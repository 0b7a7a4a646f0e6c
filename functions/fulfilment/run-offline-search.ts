import { systemClock } from '../../shared/domain/clock.ts';
import { s3BlobStore } from '../../shared/orders/services/blobs.ts';
import { workflowTask } from '../../shared/orders/services/instrumented.ts';
import { sesMailer } from '../../shared/orders/services/mailer.ts';
import { registries } from '../../shared/orders/services/registry.ts';
import { offlineSearchStore } from '../../shared/orders/services/stores.ts';
import type { WorkflowInput } from '../../shared/orders/steps/common.ts';
import {
  type RunOfflineSearchPorts,
  runOfflineSearch,
} from '../../shared/orders/steps/run-offline-search.ts';

/** The task given its ports (the local stack passes its own). */
export const createHandler = (ports: RunOfflineSearchPorts) =>
  workflowTask('RunOfflineSearch', (input: WorkflowInput) => runOfflineSearch(ports, input));

export const handler = createHandler({
  searches: offlineSearchStore(),
  registryFor: registries(),
  blobs: s3BlobStore(),
  mailer: sesMailer(),
  now: () => systemClock.now(),
});
