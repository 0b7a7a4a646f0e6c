import { renderDocumentImages } from '../../registry/page-images.ts';
import { registryFor } from '../../registry/registries.ts';
import { getServices } from '../../runtime.ts';
import type { FulfilmentDeps } from '../fulfil.ts';
import { apiBaseUrl } from '../present.ts';
import { blobStore } from './blobs.ts';
import { eventPublisher } from './events.ts';
import { mailer } from './mailer.ts';
import { offlineSearchStore, orderStore } from './stores.ts';

/** What the workflow's steps use, built once per process. */
export function fulfilmentDeps(): FulfilmentDeps {
  const services = getServices();
  return {
    now: () => services.clock.now(),
    orders: orderStore(),
    searches: offlineSearchStore(),
    registryFor: (environment) => registryFor(environment, services, { pageImages: renderDocumentImages }),
    blobs: blobStore,
    mailer,
    events: eventPublisher,
    apiBaseUrl: apiBaseUrl(),
  };
}
