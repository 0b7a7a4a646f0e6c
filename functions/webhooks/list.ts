import { awsHttpPorts } from '../../shared/composition/aws/http.ts';
import { webhookEndpoints } from '../../shared/composition/aws/webhooks.ts';
import { createHttpHandler } from '../../shared/http/pipeline.ts';
import { webhookRoutes } from '../../shared/http/routes/webhooks.ts';
import type { HttpPorts } from '../../shared/ports/app.ts';
import { PAGE_SIZE } from '../../shared/schemas/common.ts';
import { presentEndpoint } from '../../shared/webhooks/endpoints.ts';

export const createHandler = (ports: HttpPorts<'webhookEndpoints'>) =>
  createHttpHandler(webhookRoutes.listWebhookEndpoints, ports, async ({ query, auth }) => {
    const scope = { route: webhookRoutes.listWebhookEndpoints.name, filters: {}, owner: auth };
    const after = await ports.cursors.decode<string>(scope, query.cursor);
    const page = await ports.webhookEndpoints.list(auth.accountId, auth.environment, {
      limit: query.limit ?? PAGE_SIZE.default,
      ...(after ? { after } : {}),
    });
    return {
      body: {
        object: 'list',
        data: page.items.map((endpoint) => presentEndpoint(endpoint)),
        hasMore: page.next !== undefined,
        nextCursor: page.next === undefined ? null : await ports.cursors.encode(scope, page.next),
        totalCount: null,
      },
    };
  });

export const handler = createHandler(awsHttpPorts({ webhookEndpoints }));
