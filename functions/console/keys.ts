import type { RoutePorts } from '../../shared/app/ports.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { keyAdministration } from '../../shared/console/composition.ts';
import { listKeys } from '../../shared/console/keys.ts';
import * as consoleRoutes from '../../shared/console/routes.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';

export const createHandler = (ports: RoutePorts<typeof consoleRoutes.listKeys>) =>
  createHttpHandler(consoleRoutes.listKeys, ports, async ({ auth }) => ({
    body: { object: 'list', data: await listKeys(ports.keyAdministration, auth, ports.clock.now()) },
  }));

export const handler = createHandler(awsRoutePorts(consoleRoutes.listKeys, { keyAdministration }));
