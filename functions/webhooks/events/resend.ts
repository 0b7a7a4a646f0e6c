import type { RoutePorts } from '../../../shared/app/ports.ts';
import { eventLog } from '../../../shared/composition/aws/event-log.ts';
import { awsRoutePorts } from '../../../shared/composition/aws/http.ts';
import { createHttpHandler } from '../../../shared/kernel/http/pipeline.ts';
import { webhookQueue } from '../../../shared/webhooks/composition/webhook-queue.ts';
import { webhookDeliveries, webhookEndpoints } from '../../../shared/webhooks/composition.ts';
import { assertEventReadable, findEvent, presentDelivery } from '../../../shared/webhooks/endpoints.ts';
import * as webhookRoutes from '../../../shared/webhooks/routes.ts';
import { resendEvent } from '../../../shared/webhooks/tools.ts';

export const createHandler = (ports: RoutePorts<typeof webhookRoutes.resendEvent>) =>
  createHttpHandler(webhookRoutes.resendEvent, ports, async ({ path, body, auth }) => {
    const now = ports.clock.now();
    const event = assertEventReadable(await findEvent(ports.eventLog, path.eventId), auth, now);
    const deliveries = await resendEvent(ports, event, auth, body.endpointId, now);
    return {
      body: {
        object: 'list',
        data: deliveries.map(presentDelivery),
        hasMore: false,
        nextCursor: null,
        totalCount: deliveries.length,
      },
    };
  });

export const handler = createHandler(
  awsRoutePorts(webhookRoutes.resendEvent, { eventLog, webhookEndpoints, webhookDeliveries, webhookQueue }),
);
