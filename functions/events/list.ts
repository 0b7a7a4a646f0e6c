import { eventLog } from '../../shared/composition/aws/event-log.ts';
import { awsHttpPorts } from '../../shared/composition/aws/http.ts';
import { toTimestamp } from '../../shared/domain/clock.ts';
import { EVENT_RETENTION_MS } from '../../shared/events/types.ts';
import { createHttpHandler } from '../../shared/http/pipeline.ts';
import { webhookRoutes } from '../../shared/http/routes/webhooks.ts';
import type { HttpPorts } from '../../shared/ports/app.ts';
import { PAGE_SIZE } from '../../shared/schemas/common.ts';
import { presentEvent } from '../../shared/webhooks/endpoints.ts';

export const createHandler = (ports: HttpPorts<'eventLog'>) =>
  createHttpHandler(webhookRoutes.listEvents, ports, async ({ query, auth }) => {
    const scope = { route: webhookRoutes.listEvents.name, filters: { type: query.type }, owner: auth };
    const after = await ports.cursors.decode<string>(scope, query.cursor);
    const since = toTimestamp(new Date(ports.clock.now().getTime() - EVENT_RETENTION_MS));
    const page = await ports.eventLog.list(auth.accountId, auth.environment, {
      since,
      limit: query.limit ?? PAGE_SIZE.default,
      ...(query.type ? { type: query.type } : {}),
      ...(after ? { after } : {}),
    });
    return {
      body: {
        object: 'list',
        data: page.items.map(presentEvent),
        hasMore: page.next !== undefined,
        nextCursor: page.next === undefined ? null : await ports.cursors.encode(scope, page.next),
        totalCount: null,
      },
    };
  });

export const handler = createHandler(awsHttpPorts({ eventLog }));
