import type { RoutePorts } from '../../../shared/app/ports.ts';
import { eventLog } from '../../../shared/composition/aws/event-log.ts';
import { awsRoutePorts } from '../../../shared/composition/aws/http.ts';
import { toTimestamp } from '../../../shared/kernel/clock.ts';
import { pageOfStore } from '../../../shared/kernel/cursor.ts';
import { pageRequest } from '../../../shared/kernel/http/paging.ts';
import { createHttpHandler } from '../../../shared/kernel/http/pipeline.ts';
import { presentEvent } from '../../../shared/webhooks/endpoints.ts';
import { EVENT_RETENTION_MS } from '../../../shared/webhooks/event-port.ts';
import * as webhookRoutes from '../../../shared/webhooks/routes.ts';

export const createHandler = (ports: RoutePorts<typeof webhookRoutes.listEvents>) =>
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

export const handler = createHandler(awsRoutePorts(webhookRoutes.listEvents, { eventLog }));
