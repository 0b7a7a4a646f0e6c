import type { RoutePorts } from '../../../shared/app/ports.ts';
import { eventLog } from '../../../shared/composition/aws/event-log.ts';
import { awsRoutePorts } from '../../../shared/composition/aws/http.ts';
import { createHttpHandler } from '../../../shared/kernel/http/pipeline.ts';
import { assertEventReadable, findEvent, presentEvent } from '../../../shared/webhooks/endpoints.ts';
import * as webhookRoutes from '../../../shared/webhooks/routes.ts';

export const createHandler = (ports: RoutePorts<typeof webhookRoutes.getEvent>) =>
  createHttpHandler(webhookRoutes.getEvent, ports, async ({ path, auth }) => ({
    body: presentEvent(
      assertEventReadable(await findEvent(ports.eventLog, path.eventId), auth, ports.clock.now()),
    ),
  }));

export const handler = createHandler(awsRoutePorts(webhookRoutes.getEvent, { eventLog }));
