import { awsHttpPorts } from '../../shared/composition/aws/http.ts';
import { webhookQueue } from '../../shared/composition/aws/webhook-queue.ts';
import { webhookDeliveries, webhookEndpoints } from '../../shared/composition/aws/webhooks.ts';
import { createHttpHandler } from '../../shared/http/pipeline.ts';
import { webhookRoutes } from '../../shared/http/routes/webhooks.ts';
import type { HttpPorts } from '../../shared/ports/app.ts';
import { assertEndpointReadable, findEndpoint } from '../../shared/webhooks/endpoints.ts';
import { recoverEndpoint } from '../../shared/webhooks/tools.ts';

export const createHandler = (ports: HttpPorts<'webhookEndpoints' | 'webhookDeliveries' | 'webhookQueue'>) =>
  createHttpHandler(webhookRoutes.recoverWebhookEndpoint, ports, async ({ path, body, auth }) => {
    const endpoint = assertEndpointReadable(
      await findEndpoint(ports.webhookEndpoints, path.endpointId),
      auth,
    );
    const resent = await recoverEndpoint(ports, endpoint, body.since, ports.clock.now());
    return { body: { object: 'webhookRecovery', endpointId: endpoint.id, since: body.since, resent } };
  });

export const handler = createHandler(awsHttpPorts({ webhookEndpoints, webhookDeliveries, webhookQueue }));
