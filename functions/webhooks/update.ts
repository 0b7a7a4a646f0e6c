import type { RoutePorts } from '../../shared/app/ports.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';
import { loopbackAllowed, webhookEndpoints } from '../../shared/webhooks/composition.ts';
import { assertEndpointReadable, findEndpoint, updateEndpoint } from '../../shared/webhooks/endpoints.ts';
import * as webhookRoutes from '../../shared/webhooks/routes.ts';

/** No sealer: changing an endpoint never touches its secrets. */
export const createHandler = (ports: RoutePorts<typeof webhookRoutes.updateWebhookEndpoint>) =>
  createHttpHandler(webhookRoutes.updateWebhookEndpoint, ports, async ({ path, body, auth }) => {
    const endpoint = assertEndpointReadable(
      await findEndpoint(ports.webhookEndpoints, path.endpointId),
      auth,
    );
    return {
      body: await updateEndpoint(ports.webhookEndpoints, endpoint, body, ports.clock.now(), {
        allowLoopback: loopbackAllowed(),
      }),
    };
  });

export const handler = createHandler(
  awsRoutePorts(webhookRoutes.updateWebhookEndpoint, { webhookEndpoints }),
);
