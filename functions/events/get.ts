import { eventLog } from '../../shared/composition/aws/event-log.ts';
import { awsHttpPorts } from '../../shared/composition/aws/http.ts';
import { createHttpHandler } from '../../shared/http/pipeline.ts';
import { webhookRoutes } from '../../shared/http/routes/webhooks.ts';
import type { HttpPorts } from '../../shared/ports/app.ts';
import { assertEventReadable, findEvent, presentEvent } from '../../shared/webhooks/endpoints.ts';

export const createHandler = (ports: HttpPorts<'eventLog'>) =>
  createHttpHandler(webhookRoutes.getEvent, ports, async ({ path, auth }) => ({
    body: presentEvent(
      assertEventReadable(await findEvent(ports.eventLog, path.eventId), auth, ports.clock.now()),
    ),
  }));

export const handler = createHandler(awsHttpPorts({ eventLog }));
