import type { RoutePorts } from '../../shared/app/ports.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { pageOfStore } from '../../shared/kernel/cursor.ts';
import { pageRequest } from '../../shared/kernel/http/paging.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';
import { webhookEndpoints } from '../../shared/webhooks/composition.ts';
import { presentEndpoint } from '../../shared/webhooks/endpoints.ts';
import * as webhookRoutes from '../../shared/webhooks/routes.ts';

export const createHandler = (ports: RoutePorts<typeof webhookRoutes.listWebhookEndpoints>) =>
  createHttpHandler(webhookRoutes.listWebhookEndpoints, ports, async ({ query, auth }) => {
    const page = await pageOfStore(
      pageRequest(ports, webhookRoutes.listWebhookEndpoints, auth, query, {}),
      (position) => ports.webhookEndpoints.list(auth.accountId, auth.environment, position),
      (endpoint) => presentEndpoint(endpoint),
    );
    return { body: { object: 'list', ...page } };
  });

export const handler = createHandler(awsRoutePorts(webhookRoutes.listWebhookEndpoints, { webhookEndpoints }));
