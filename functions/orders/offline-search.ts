import { runIdempotently } from '../../shared/http/idempotency.ts';
import { createHttpHandler, type HandlerResult } from '../../shared/http/pipeline.ts';
import { orderRoutes } from '../../shared/http/routes/orders.ts';
import { parseOfflineSearchDelivery } from '../../shared/orders/delivery.ts';
import { acceptOfflineSearch } from '../../shared/orders/offline-search.ts';
import { apiBaseUrl, presentOfflineSearch } from '../../shared/orders/present.ts';
import { sqsFulfilmentQueue } from '../../shared/orders/services/queue.ts';
import { offlineSearchStore } from '../../shared/orders/services/stores.ts';
import { simulatedFailure } from '../../shared/orders/simulate.ts';
import type { FulfilmentQueue, OfflineSearchRecord } from '../../shared/ports/orders.ts';

const resultOf = (search: OfflineSearchRecord): HandlerResult => ({
  body: presentOfflineSearch(search, apiBaseUrl()),
  billable: search.fees.some((fee) => fee.billable),
});

/** The route given the fulfilment queue (the local stack passes its own). */
export const createHandler = (ports: { queue: FulfilmentQueue }) =>
  createHttpHandler(
    orderRoutes.createOfflineSearch,
    async (input) => {
      const { body, auth } = input;
      const delivery = parseOfflineSearchDelivery(body.delivery);
      const search = await acceptOfflineSearch({
        owner: auth,
        requestId: input.requestId,
        clientReference: input.clientReference,
        recoveryKey: input.recoveryKey,
        now: input.services.clock.now(),
        q: body.q,
        scope: body.scope,
        delivery,
        simulateFailure: simulatedFailure(input.headers, auth.environment),
        store: offlineSearchStore(),
        queue: ports.queue,
      });
      return resultOf(search);
    },
    {
      idempotency: runIdempotently,
      replay: {
        pack: (result) => ({ id: result.body.id }),
        async unpack(packed) {
          const search = await offlineSearchStore().get((packed as { id: string }).id);
          if (!search) throw new Error('replayed offline search is missing');
          return resultOf(search);
        },
      },
    },
  );

export const handler = createHandler({ queue: sqsFulfilmentQueue() });
