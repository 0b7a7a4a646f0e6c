import { awsHttpPorts } from '../../shared/composition/aws/http.ts';
import { webhookEndpoints } from '../../shared/composition/aws/webhooks.ts';
import { createHttpHandler } from '../../shared/http/pipeline.ts';
import { webhookRoutes } from '../../shared/http/routes/webhooks.ts';
import type { HttpPorts } from '../../shared/ports/app.ts';
import { assertEndpointReadable, findEndpoint, presentEndpoint } from '../../shared/webhooks/endpoints.ts';

export const createHandler = (ports: HttpPorts<'webhookEndpoints'>) =>
  createHttpHandler(webhookRoutes.getWebhookEndpoint, ports, async ({ path, auth }) => ({
    body: presentEndpoint(
      assertEndpointReadable(await findEndpoint(ports.webhookEndpoints, path.endpointId), auth),
    ),
  }));

export const handler = createHandler(awsHttpPorts({ webhookEndpoints }));
