import type { RoutePorts } from '../../shared/app/ports.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { findRequest } from '../../shared/console/requests.ts';
import * as consoleRoutes from '../../shared/console/routes.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';

export const createHandler = (ports: RoutePorts<typeof consoleRoutes.findRequest>) =>
  createHttpHandler(consoleRoutes.findRequest, ports, async ({ auth, path }) => ({
    body: await findRequest(ports.requestLog, auth, path.requestId),
  }));

export const handler = createHandler(awsRoutePorts(consoleRoutes.findRequest, {}));
