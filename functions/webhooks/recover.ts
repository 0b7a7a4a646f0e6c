import type { RoutePorts } from '../../shared/app/ports.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';
import { webhookQueue } from '../../shared/webhooks/composition/webhook-queue.ts';
import { webhookDeliveries, webhookEndpoints } from '../../shared/webhooks/composition.ts';
import { assertEndpointReadable, findEndpoint } from '../../shared/webhooks/endpoints.ts';
import * as webhookRoutes from '../../shared/webhooks/routes.ts';
import { recoverEndpoint } from '../../shared/webhooks/tools.ts';

export const createHandler = (ports: RoutePorts<typeof webhookRoutes.recoverWebhookEndpoint>) =>
  createHttpHandler(webhookRoutes.recoverWebhookEndpoint, ports, async ({ path, body, auth }) => {
    const endpoint = assertEndpointReadable(
      await findEndpoint(ports.webhookEndpoints, path.endpointId),
      auth,
    );
    const resent = await recoverEndpoint(ports, endpoint, body.since, ports.clock.now());
    return { body: { object: 'webhookRecovery', endpointId: endpoint.id, since: body.since, resent } };
  });

export const handler = createHandler(
  awsRoutePorts(webhookRoutes.recoverWebhookEndpoint, { webhookEndpoints, webhookDeliveries, webhookQueue }),
);
