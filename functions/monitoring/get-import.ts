import type { RoutePorts } from '../../shared/app/ports.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';
import { monitors } from '../../shared/monitoring/composition.ts';
import { readImport } from '../../shared/monitoring/import.ts';
import * as monitoringRoutes from '../../shared/monitoring/routes.ts';

export const createHandler = (ports: RoutePorts<typeof monitoringRoutes.getMonitorImport>) =>
  createHttpHandler(monitoringRoutes.getMonitorImport, ports, async ({ path, auth }) => ({
    body: { ...(await readImport(ports.monitors, auth, path.importId)) },
  }));

export const handler = createHandler(awsRoutePorts(monitoringRoutes.getMonitorImport, { monitors }));
