import type { RoutePorts } from '../../shared/app/ports.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';
import { sealer } from '../../shared/webhooks/composition/sealer.ts';
import { webhookEndpoints } from '../../shared/webhooks/composition.ts';
import { assertEndpointReadable, findEndpoint, rotateSecret } from '../../shared/webhooks/endpoints.ts';
import * as webhookRoutes from '../../shared/webhooks/routes.ts';

export const createHandler = (ports: RoutePorts<typeof webhookRoutes.rotateWebhookSecret>) =>
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

export const handler = createHandler(
  awsRoutePorts(webhookRoutes.rotateWebhookSecret, { webhookEndpoints, sealer }),
);
