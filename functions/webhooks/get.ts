import type { RoutePorts } from '../../shared/app/ports.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';
import { webhookEndpoints } from '../../shared/webhooks/composition.ts';
import { assertEndpointReadable, findEndpoint, presentEndpoint } from '../../shared/webhooks/endpoints.ts';
import * as webhookRoutes from '../../shared/webhooks/routes.ts';

export const createHandler = (ports: RoutePorts<typeof webhookRoutes.getWebhookEndpoint>) =>
  createHttpHandler(webhookRoutes.getWebhookEndpoint, ports, async ({ path, auth }) => ({
    body: presentEndpoint(
      assertEndpointReadable(await findEndpoint(ports.webhookEndpoints, path.endpointId), auth),
    ),
  }));

export const handler = createHandler(awsRoutePorts(webhookRoutes.getWebhookEndpoint, { webhookEndpoints }));
