import type { RoutePorts } from '../../shared/app/ports.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { keyAdministration } from '../../shared/console/composition.ts';
import { createAccountKey } from '../../shared/console/keys.ts';
import * as consoleRoutes from '../../shared/console/routes.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';

export const createHandler = (ports: RoutePorts<typeof consoleRoutes.createKey>) =>
  createHttpHandler(consoleRoutes.createKey, ports, ({ auth, body }) =>
    createAccountKey(ports.keyAdministration, {
      auth,
      label: body.label,
      clientToken: body.clientToken,
      now: ports.clock.now(),
    }),
  );

export const handler = createHandler(awsRoutePorts(consoleRoutes.createKey, { keyAdministration }));
