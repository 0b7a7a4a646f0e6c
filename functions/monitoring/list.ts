import type { RoutePorts } from '../../shared/app/ports.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { monitors } from '../../shared/composition/aws/monitoring.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';
import { listMonitors } from '../../shared/monitoring/monitors.ts';
import { monitoringRoutes } from '../../shared/monitoring/routes.ts';

export const createHandler = (ports: RoutePorts<typeof monitoringRoutes.listMonitors>) =>
  createHttpHandler(monitoringRoutes.listMonitors, ports, async ({ query, auth }) => {
    const page = await listMonitors({
      monitors: ports.monitors,
      cursors: ports.cursors,
      owner: { accountId: auth.accountId, environment: auth.environment },
      route: monitoringRoutes.listMonitors,
      query,
    });
    return { body: { object: 'list', ...page } };
  });

export const handler = createHandler(awsRoutePorts(monitoringRoutes.listMonitors, { monitors }));
