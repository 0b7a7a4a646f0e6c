import { eventLog } from '../../shared/composition/aws/event-log.ts';
import { awsHttpPorts } from '../../shared/composition/aws/http.ts';
import { webhookQueue } from '../../shared/composition/aws/webhook-queue.ts';
import { webhookDeliveries, webhookEndpoints } from '../../shared/composition/aws/webhooks.ts';
import { createHttpHandler } from '../../shared/http/pipeline.ts';
import { webhookRoutes } from '../../shared/http/routes/webhooks.ts';
import type { HttpPorts } from '../../shared/ports/app.ts';
import { assertEndpointReadable, findEndpoint, presentEvent } from '../../shared/webhooks/endpoints.ts';
import { sendTestEvent } from '../../shared/webhooks/tools.ts';

export const createHandler = (
  ports: HttpPorts<'eventLog' | 'webhookEndpoints' | 'webhookDeliveries' | 'webhookQueue'>,
) =>
  createHttpHandler(webhookRoutes.testWebhookEndpoint, ports, async ({ path, auth }) => {
    const endpoint = assertEndpointReadable(
      await findEndpoint(ports.webhookEndpoints, path.endpointId),
      auth,
    );
    return { body: presentEvent(await sendTestEvent(ports, endpoint, ports.clock.now())) };
  });

export const handler = createHandler(
  awsHttpPorts({ eventLog, webhookEndpoints, webhookDeliveries, webhookQueue }),
);
