import type { RoutePorts } from '../../../shared/app/ports.ts';
import { eventLog } from '../../../shared/composition/aws/event-log.ts';
import { awsRoutePorts } from '../../../shared/composition/aws/http.ts';
import { pageOfStore } from '../../../shared/kernel/cursor.ts';
import { pageRequest } from '../../../shared/kernel/http/paging.ts';
import { createHttpHandler } from '../../../shared/kernel/http/pipeline.ts';
import { webhookDeliveries } from '../../../shared/webhooks/composition.ts';
import { assertEventReadable, findEvent, presentDelivery } from '../../../shared/webhooks/endpoints.ts';
import * as webhookRoutes from '../../../shared/webhooks/routes.ts';

export const createHandler = (ports: RoutePorts<typeof webhookRoutes.listEventDeliveries>) =>
  createHttpHandler(webhookRoutes.listEventDeliveries, ports, async ({ path, query, auth }) => {
    const event = assertEventReadable(await findEvent(ports.eventLog, path.eventId), auth, ports.clock.now());
    const page = await pageOfStore(
      pageRequest(ports, webhookRoutes.listEventDeliveries, auth, query, { eventId: event.id }),
      (position) => ports.webhookDeliveries.forEvent(event.id, position),
      presentDelivery,
    );
    return { body: { object: 'list', ...page } };
  });

export const handler = createHandler(
  awsRoutePorts(webhookRoutes.listEventDeliveries, { eventLog, webhookDeliveries }),
);
