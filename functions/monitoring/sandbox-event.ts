import type { RoutePorts } from '../../shared/app/ports.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { idempotency } from '../../shared/composition/aws/idempotency.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';
import { monitoringQueue, monitors } from '../../shared/monitoring/composition.ts';
import * as monitoringRoutes from '../../shared/monitoring/routes.ts';
import { fireSandboxEvent } from '../../shared/monitoring/sandbox.ts';

export const createHandler = (ports: RoutePorts<typeof monitoringRoutes.createSandboxMonitorEvent>) =>
  createHttpHandler(
    monitoringRoutes.createSandboxMonitorEvent,
    ports,
    async ({ path, body, auth, recoveryKey, requestId }) => ({
      body: await fireSandboxEvent({
        monitors: ports.monitors,
        queue: ports.monitoringQueue,
        owner: { accountId: auth.accountId, environment: auth.environment },
        monitorId: path.monitorId,
        type: body.type,
        key: recoveryKey ?? requestId,
      }),
    }),
  );

export const handler = createHandler(
  awsRoutePorts(monitoringRoutes.createSandboxMonitorEvent, { monitors, idempotency, monitoringQueue }),
);
