import { systemClock } from '../../shared/domain/clock.ts';
import { workflowTask } from '../../shared/orders/services/instrumented.ts';
import { registries } from '../../shared/orders/services/registry.ts';
import { orderStore } from '../../shared/orders/services/stores.ts';
import {
  type CheckImagesInput,
  type CheckImagesPorts,
  checkImages,
} from '../../shared/orders/steps/check-images.ts';

/** The task given its ports (the local stack passes its own). */
export const createHandler = (ports: CheckImagesPorts) =>
  workflowTask('CheckImages', (input: CheckImagesInput) => checkImages(ports, input));

export const handler = createHandler({
  orders: orderStore(),
  registryFor: registries(),
  now: () => systemClock.now(),
});
