import { registryFor } from '../../../shared/composition/aws/registry.ts';
import { awsPorts, now } from '../../../shared/composition/aws/root.ts';
import { orders } from '../../../shared/orders/composition.ts';
import { workflowTask } from '../../../shared/orders/instrumented.ts';
import {
  type CheckImagesInput,
  type CheckImagesPorts,
  checkImages,
} from '../../../shared/orders/steps/check-images.ts';

/** The task given its ports (the local stack passes its own). */
export const createHandler = (ports: CheckImagesPorts) =>
  workflowTask('CheckImages', (input: CheckImagesInput) => checkImages(ports, input));

export const handler = createHandler(awsPorts({ orders, registryFor, now }));
