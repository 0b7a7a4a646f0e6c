import { eventLog } from '../../shared/composition/aws/event-log.ts';
import { awsHttpPorts } from '../../shared/composition/aws/http.ts';
import { webhookDeliveries } from '../../shared/composition/aws/webhooks.ts';
import { createHttpHandler } from '../../shared/http/pipeline.ts';
import { webhookRoutes } from '../../shared/http/routes/webhooks.ts';
import type { HttpPorts } from '../../shared/ports/app.ts';
import { PAGE_SIZE } from '../../shared/schemas/common.ts';
import { assertEventReadable, findEvent, presentDelivery } from '../../shared/webhooks/endpoints.ts';

export const createHandler = (ports: HttpPorts<'eventLog' | 'webhookDeliveries'>) =>
  createHttpHandler(webhookRoutes.listEventDeliveries, ports, async ({ path, query, auth }) => {
    const event = assertEventReadable(await findEvent(ports.eventLog, path.eventId), auth, ports.clock.now());
    const scope = {
      route: webhookRoutes.listEventDeliveries.name,
      filters: { eventId: event.id },
      owner: auth,
    };
    const after = await ports.cursors.decode<string>(scope, query.cursor);
    const page = await ports.webhookDeliveries.forEvent(event.id, {
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

export const handler = createHandler(awsHttpPorts({ eventLog, webhookDeliveries }));
