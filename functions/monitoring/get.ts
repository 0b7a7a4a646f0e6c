import type { RoutePorts } from '../../shared/app/ports.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';
import { monitors } from '../../shared/monitoring/composition.ts';
import { readMonitor } from '../../shared/monitoring/monitors.ts';
import { presentMonitor } from '../../shared/monitoring/present.ts';
import * as monitoringRoutes from '../../shared/monitoring/routes.ts';

export const createHandler = (ports: RoutePorts<typeof monitoringRoutes.getMonitor>) =>
  createHttpHandler(monitoringRoutes.getMonitor, ports, async ({ path, auth }) => ({
    body: presentMonitor(await readMonitor(ports.monitors, auth, path.monitorId)),
  }));

export const handler = createHandler(awsRoutePorts(monitoringRoutes.getMonitor, { monitors }));
