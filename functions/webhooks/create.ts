import type { RoutePorts } from '../../shared/app/ports.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';
import { sealer } from '../../shared/webhooks/composition/sealer.ts';
import { loopbackAllowed, webhookEndpoints } from '../../shared/webhooks/composition.ts';
import { createEndpoint } from '../../shared/webhooks/endpoints.ts';
import * as webhookRoutes from '../../shared/webhooks/routes.ts';

export const createHandler = (ports: RoutePorts<typeof webhookRoutes.createWebhookEndpoint>) =>
  createHttpHandler(webhookRoutes.createWebhookEndpoint, ports, async ({ body, auth }) => ({
    body: await createEndpoint(
      { endpoints: ports.webhookEndpoints, sealer: ports.sealer },
      auth,
      body,
      ports.clock.now(),
      { allowLoopback: loopbackAllowed() },
    ),
  }));

export const handler = createHandler(
  awsRoutePorts(webhookRoutes.createWebhookEndpoint, { webhookEndpoints, sealer }),
);
