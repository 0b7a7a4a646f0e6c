import type { RoutePorts } from '../../shared/app/ports.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { idempotency } from '../../shared/composition/aws/idempotency.ts';
import { createHttpHandler, type HandlerResult } from '../../shared/kernel/http/pipeline.ts';
import { queue } from '../../shared/orders/composition/queue.ts';
import { offlineSearches } from '../../shared/orders/composition.ts';
import { parseOfflineSearchDelivery } from '../../shared/orders/delivery.ts';
import { acceptOfflineSearch } from '../../shared/orders/offline-search.ts';
import { presentOfflineSearch } from '../../shared/orders/present.ts';
import * as orderRoutes from '../../shared/orders/routes.ts';
import { simulatedFailure } from '../../shared/orders/simulate.ts';
import type { OfflineSearchRecord } from '../../shared/orders/store-port.ts';
import { spendGuard } from '../../shared/spend-caps/composition.ts';

const resultOf = (search: OfflineSearchRecord, apiBaseUrl: string): HandlerResult => ({
  body: presentOfflineSearch(search, apiBaseUrl),
  billable: search.fees.some((fee) => fee.billable),
});

export const createHandler = (ports: RoutePorts<typeof orderRoutes.createOfflineSearch>) =>
  createHttpHandler(
    orderRoutes.createOfflineSearch,
    ports,
    async (input) => {
      const { body, auth } = input;
      const delivery = parseOfflineSearchDelivery(body.delivery);
      const search = await acceptOfflineSearch({
        owner: auth,
        requestId: input.requestId,
        clientReference: input.clientReference,
        recoveryKey: input.recoveryKey,
        now: ports.clock.now(),
        q: body.q,
        scope: body.scope,
        delivery,
        simulateFailure: simulatedFailure(input.headers, auth.environment),
        store: ports.offlineSearches,
        queue: ports.queue,
      });
      return resultOf(search, ports.config.apiBaseUrl);
    },
    {
      replay: {
        pack: (result) => ({ id: result.body.id }),
        async unpack(packed) {
          const search = await ports.offlineSearches.get((packed as { id: string }).id);
          if (!search) throw new Error('replayed offline search is missing');
          return resultOf(search, ports.config.apiBaseUrl);
        },
      },
    },
  );

export const handler = createHandler(
  awsRoutePorts(orderRoutes.createOfflineSearch, { offlineSearches, queue, idempotency, spendGuard }),
);
