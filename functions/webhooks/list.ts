import { awsHttpPorts } from '../../shared/composition/aws/http.ts';
import { webhookEndpoints } from '../../shared/composition/aws/webhooks.ts';
import { pageOfStore } from '../../shared/domain/cursor.ts';
import { pageRequest } from '../../shared/http/paging.ts';
import { createHttpHandler } from '../../shared/http/pipeline.ts';
import { webhookRoutes } from '../../shared/http/routes/webhooks.ts';
import type { HttpPorts } from '../../shared/ports/app.ts';
import { presentEndpoint } from '../../shared/webhooks/endpoints.ts';

export const createHandler = (ports: HttpPorts<'webhookEndpoints'>) =>
  createHttpHandler(webhookRoutes.listWebhookEndpoints, ports, async ({ query, auth }) => {
    const page = await pageOfStore(
      pageRequest(ports, webhookRoutes.listWebhookEndpoints, auth, query, {}),
      (position) => ports.webhookEndpoints.list(auth.accountId, auth.environment, position),
      (endpoint) => presentEndpoint(endpoint),
    );
    return { body: { object: 'list', ...page } };
  });

export const handler = createHandler(awsHttpPorts({ webhookEndpoints }));
