import type { RoutePorts } from '../../shared/app/ports.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { idempotency } from '../../shared/composition/aws/idempotency.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';
import { monitoringQueue, monitors } from '../../shared/monitoring/composition.ts';
import { importMonitors } from '../../shared/monitoring/import.ts';
import * as monitoringRoutes from '../../shared/monitoring/routes.ts';

export const createHandler = (ports: RoutePorts<typeof monitoringRoutes.importMonitors>) =>
  createHttpHandler(monitoringRoutes.importMonitors, ports, async ({ body, auth, recoveryKey }) => {
    const { status, report } = await importMonitors({
      monitors: ports.monitors,
      queue: ports.monitoringQueue,
      owner: { accountId: auth.accountId, environment: auth.environment },
      now: ports.clock.now(),
      body,
      recoveryKey,
    });
    return { status, body: { ...report } };
  });

export const handler = createHandler(
  awsRoutePorts(monitoringRoutes.importMonitors, { monitors, idempotency, monitoringQueue }),
);
