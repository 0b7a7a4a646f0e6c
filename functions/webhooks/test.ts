import type { RoutePorts } from '../../shared/app/ports.ts';
import { eventLog } from '../../shared/composition/aws/event-log.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';
import { webhookQueue } from '../../shared/webhooks/composition/webhook-queue.ts';
import { webhookDeliveries, webhookEndpoints } from '../../shared/webhooks/composition.ts';
import { assertEndpointReadable, findEndpoint, presentEvent } from '../../shared/webhooks/endpoints.ts';
import * as webhookRoutes from '../../shared/webhooks/routes.ts';
import { sendTestEvent } from '../../shared/webhooks/tools.ts';

export const createHandler = (ports: RoutePorts<typeof webhookRoutes.testWebhookEndpoint>) =>
  createHttpHandler(webhookRoutes.testWebhookEndpoint, ports, async ({ path, auth }) => {
    const endpoint = assertEndpointReadable(
      await findEndpoint(ports.webhookEndpoints, path.endpointId),
      auth,
    );
    return { body: presentEvent(await sendTestEvent(ports, endpoint, ports.clock.now())) };
  });

export const handler = createHandler(
  awsRoutePorts(webhookRoutes.testWebhookEndpoint, {
    eventLog,
    webhookEndpoints,
    webhookDeliveries,
    webhookQueue,
  }),
);
