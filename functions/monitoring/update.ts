import type { RoutePorts } from '../../shared/app/ports.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';
import { monitors } from '../../shared/monitoring/composition.ts';
import { updateMonitor } from '../../shared/monitoring/monitors.ts';
import { presentMonitor } from '../../shared/monitoring/present.ts';
import * as monitoringRoutes from '../../shared/monitoring/routes.ts';

export const createHandler = (ports: RoutePorts<typeof monitoringRoutes.updateMonitor>) =>
  createHttpHandler(monitoringRoutes.updateMonitor, ports, async ({ path, body, auth }) => ({
    body: presentMonitor(
      await updateMonitor(ports.monitors, auth, path.monitorId, body.eventTypes, ports.clock.now()),
    ),
  }));

export const handler = createHandler(awsRoutePorts(monitoringRoutes.updateMonitor, { monitors }));
