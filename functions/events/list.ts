import { eventLog } from '../../shared/composition/aws/event-log.ts';
import { awsHttpPorts } from '../../shared/composition/aws/http.ts';
import { toTimestamp } from '../../shared/domain/clock.ts';
import { pageOfStore } from '../../shared/domain/cursor.ts';
import { EVENT_RETENTION_MS } from '../../shared/events/types.ts';
import { pageRequest } from '../../shared/http/paging.ts';
import { createHttpHandler } from '../../shared/http/pipeline.ts';
import { webhookRoutes } from '../../shared/http/routes/webhooks.ts';
import type { HttpPorts } from '../../shared/ports/app.ts';
import { presentEvent } from '../../shared/webhooks/endpoints.ts';

export const createHandler = (ports: HttpPorts<'eventLog'>) =>
  createHttpHandler(webhookRoutes.listEvents, ports, async ({ query, auth }) => {
    const since = toTimestamp(new Date(ports.clock.now().getTime() - EVENT_RETENTION_MS));
    const page = await pageOfStore(
      pageRequest(ports, webhookRoutes.listEvents, auth, query, { type: query.type }),
      (position) =>
        ports.eventLog.list(auth.accountId, auth.environment, {
          since,
          ...(query.type ? { type: query.type } : {}),
          ...position,
        }),
      presentEvent,
    );
    return { body: { object: 'list', ...page } };
  });

export const handler = createHandler(awsHttpPorts({ eventLog }));
