import { awsHttpPorts } from '../../shared/composition/aws/http.ts';
import { sealer } from '../../shared/composition/aws/sealer.ts';
import { webhookEndpoints } from '../../shared/composition/aws/webhooks.ts';
import { createHttpHandler } from '../../shared/http/pipeline.ts';
import { webhookRoutes } from '../../shared/http/routes/webhooks.ts';
import type { HttpPorts } from '../../shared/ports/app.ts';
import { assertEndpointReadable, findEndpoint, rotateSecret } from '../../shared/webhooks/endpoints.ts';

export const createHandler = (ports: HttpPorts<'webhookEndpoints' | 'sealer'>) =>
  createHttpHandler(webhookRoutes.rotateWebhookSecret, ports, async ({ path, auth }) => {
    const endpoint = assertEndpointReadable(
      await findEndpoint(ports.webhookEndpoints, path.endpointId),
      auth,
    );
    return {
      body: await rotateSecret(
        { endpoints: ports.webhookEndpoints, sealer: ports.sealer },
        endpoint,
        ports.clock.now(),
      ),
    };
  });

export const handler = createHandler(awsHttpPorts({ webhookEndpoints, sealer }));
