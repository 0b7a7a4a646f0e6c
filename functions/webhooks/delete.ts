import { awsHttpPorts } from '../../shared/composition/aws/http.ts';
import { webhookEndpoints } from '../../shared/composition/aws/webhooks.ts';
import { createHttpHandler } from '../../shared/http/pipeline.ts';
import { webhookRoutes } from '../../shared/http/routes/webhooks.ts';
import type { HttpPorts } from '../../shared/ports/app.ts';
import { assertEndpointReadable, findEndpoint } from '../../shared/webhooks/endpoints.ts';

export const createHandler = (ports: HttpPorts<'webhookEndpoints'>) =>
  createHttpHandler(webhookRoutes.deleteWebhookEndpoint, ports, async ({ path, auth }) => {
    const endpoint = assertEndpointReadable(
      await findEndpoint(ports.webhookEndpoints, path.endpointId),
      auth,
    );
    await ports.webhookEndpoints.delete(endpoint);
    return { body: { object: 'webhookEndpoint', id: endpoint.id, deleted: true } };
  });

export const handler = createHandler(awsHttpPorts({ webhookEndpoints }));
