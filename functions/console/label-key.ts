import type { RoutePorts } from '../../shared/app/ports.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { keyAdministration } from '../../shared/console/composition.ts';
import { labelKey } from '../../shared/console/keys.ts';
import * as consoleRoutes from '../../shared/console/routes.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';

export const createHandler = (ports: RoutePorts<typeof consoleRoutes.labelKey>) =>
  createHttpHandler(consoleRoutes.labelKey, ports, async ({ auth, path, body }) => ({
    body: await labelKey(ports.keyAdministration, {
      auth,
      keyId: path.keyId,
      label: body.label,
      now: ports.clock.now(),
    }),
  }));

export const handler = createHandler(awsRoutePorts(consoleRoutes.labelKey, { keyAdministration }));
