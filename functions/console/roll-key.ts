import type { RoutePorts } from '../../shared/app/ports.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { keyAdministration } from '../../shared/console/composition.ts';
import { rollKey } from '../../shared/console/keys.ts';
import * as consoleRoutes from '../../shared/console/routes.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';

export const createHandler = (ports: RoutePorts<typeof consoleRoutes.rollKey>) =>
  createHttpHandler(consoleRoutes.rollKey, ports, async ({ auth, path, body }) => ({
    body: await rollKey(ports.keyAdministration, {
      auth,
      keyId: path.keyId,
      grace: body.grace,
      now: ports.clock.now(),
    }),
  }));

export const handler = createHandler(awsRoutePorts(consoleRoutes.rollKey, { keyAdministration }));
