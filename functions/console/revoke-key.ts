import type { RoutePorts } from '../../shared/app/ports.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { keyAdministration } from '../../shared/console/composition.ts';
import { revokeAccountKey } from '../../shared/console/keys.ts';
import * as consoleRoutes from '../../shared/console/routes.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';

export const createHandler = (ports: RoutePorts<typeof consoleRoutes.revokeKey>) =>
  createHttpHandler(consoleRoutes.revokeKey, ports, async ({ auth, path }) => ({
    body: await revokeAccountKey(ports.keyAdministration, {
      auth,
      keyId: path.keyId,
      now: ports.clock.now(),
    }),
  }));

export const handler = createHandler(awsRoutePorts(consoleRoutes.revokeKey, { keyAdministration }));
