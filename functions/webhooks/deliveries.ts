import type { RoutePorts } from '../../shared/app/ports.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { pageOfStore } from '../../shared/kernel/cursor.ts';
import { pageRequest } from '../../shared/kernel/http/paging.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';
import { webhookDeliveries, webhookEndpoints } from '../../shared/webhooks/composition.ts';
import { assertEndpointReadable, findEndpoint, presentDelivery } from '../../shared/webhooks/endpoints.ts';
import * as webhookRoutes from '../../shared/webhooks/routes.ts';

export const createHandler = (ports: RoutePorts<typeof webhookRoutes.listEndpointDeliveries>) =>
  createHttpHandler(webhookRoutes.listEndpointDeliveries, ports, async ({ path, query, auth }) => {
    const endpoint = assertEndpointReadable(
      await findEndpoint(ports.webhookEndpoints, path.endpointId),
      auth,
    );
    const page = await pageOfStore(
      pageRequest(ports, webhookRoutes.listEndpointDeliveries, auth, query, { endpointId: endpoint.id }),
      (position) => ports.webhookDeliveries.forEndpoint(endpoint.id, position),
      presentDelivery,
    );
    return { body: { object: 'list', ...page } };
  });

export const handler = createHandler(
  awsRoutePorts(webhookRoutes.listEndpointDeliveries, { webhookEndpoints, webhookDeliveries }),
);
