import type { RoutePorts } from '../../shared/app/ports.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';
import { webhookEndpoints } from '../../shared/webhooks/composition.ts';
import { assertEndpointReadable, findEndpoint } from '../../shared/webhooks/endpoints.ts';
import * as webhookRoutes from '../../shared/webhooks/routes.ts';

export const createHandler = (ports: RoutePorts<typeof webhookRoutes.deleteWebhookEndpoint>) =>
  createHttpHandler(webhookRoutes.deleteWebhookEndpoint, ports, async ({ path, auth }) => {
    const endpoint = assertEndpointReadable(
      await findEndpoint(ports.webhookEndpoints, path.endpointId),
      auth,
    );
    await ports.webhookEndpoints.delete(endpoint);
    return { body: { object: 'webhookEndpoint', id: endpoint.id, deleted: true } };
  });

export const handler = createHandler(
  awsRoutePorts(webhookRoutes.deleteWebhookEndpoint, { webhookEndpoints }),
);
