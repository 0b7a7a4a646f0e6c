import type { RoutePorts } from '../../shared/app/ports.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';
import { monitors } from '../../shared/monitoring/composition.ts';
import { deleteMonitor } from '../../shared/monitoring/monitors.ts';
import * as monitoringRoutes from '../../shared/monitoring/routes.ts';

export const createHandler = (ports: RoutePorts<typeof monitoringRoutes.deleteMonitor>) =>
  createHttpHandler(monitoringRoutes.deleteMonitor, ports, async ({ path, auth }) => ({
    body: await deleteMonitor(ports.monitors, auth, path.monitorId),
  }));

export const handler = createHandler(awsRoutePorts(monitoringRoutes.deleteMonitor, { monitors }));
