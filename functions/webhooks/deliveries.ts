import { awsHttpPorts } from '../../shared/composition/aws/http.ts';
import { webhookDeliveries, webhookEndpoints } from '../../shared/composition/aws/webhooks.ts';
import { createHttpHandler } from '../../shared/http/pipeline.ts';
import { webhookRoutes } from '../../shared/http/routes/webhooks.ts';
import type { HttpPorts } from '../../shared/ports/app.ts';
import { PAGE_SIZE } from '../../shared/schemas/common.ts';
import { assertEndpointReadable, findEndpoint, presentDelivery } from '../../shared/webhooks/endpoints.ts';

export const createHandler = (ports: HttpPorts<'webhookEndpoints' | 'webhookDeliveries'>) =>
  createHttpHandler(webhookRoutes.listEndpointDeliveries, ports, async ({ path, query, auth }) => {
    const endpoint = assertEndpointReadable(
      await findEndpoint(ports.webhookEndpoints, path.endpointId),
      auth,
    );
    const scope = {
      route: webhookRoutes.listEndpointDeliveries.name,
      filters: { endpointId: endpoint.id },
      owner: auth,
    };
    const after = await ports.cursors.decode<string>(scope, query.cursor);
    const page = await ports.webhookDeliveries.forEndpoint(endpoint.id, {
      limit: query.limit ?? PAGE_SIZE.default,
      ...(after ? { after } : {}),
    });
    return {
      body: {
        object: 'list',
        data: page.items.map(presentDelivery),
        hasMore: page.next !== undefined,
        nextCursor: page.next === undefined ? null : await ports.cursors.encode(scope, page.next),
        totalCount: null,
      },
    };
  });

export const handler = createHandler(awsHttpPorts({ webhookEndpoints, webhookDeliveries }));
