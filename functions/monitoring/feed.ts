import type { RoutePorts } from '../../shared/app/ports.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';
import { monitors } from '../../shared/monitoring/composition.ts';
import { readFeed } from '../../shared/monitoring/feed.ts';
import * as monitoringRoutes from '../../shared/monitoring/routes.ts';

export const createHandler = (ports: RoutePorts<typeof monitoringRoutes.listMonitorEvents>) =>
  createHttpHandler(monitoringRoutes.listMonitorEvents, ports, async ({ query, auth }) => ({
    body: await readFeed(ports.monitors, auth, query, ports.clock.now()),
  }));

export const handler = createHandler(awsRoutePorts(monitoringRoutes.listMonitorEvents, { monitors }));
