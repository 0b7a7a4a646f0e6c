import type { RoutePorts } from '../../shared/app/ports.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { idempotency } from '../../shared/composition/aws/idempotency.ts';
import { registryFor } from '../../shared/composition/aws/registry.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';
import { monitors } from '../../shared/monitoring/composition.ts';
import { createMonitor } from '../../shared/monitoring/creation.ts';
import { presentMonitor } from '../../shared/monitoring/present.ts';
import * as monitoringRoutes from '../../shared/monitoring/routes.ts';

export const createHandler = (ports: RoutePorts<typeof monitoringRoutes.createMonitor>) =>
  createHttpHandler(monitoringRoutes.createMonitor, ports, async ({ body, auth, requestId }) => {
    const monitor = await createMonitor(
      {
        monitors: ports.monitors,
        registry: ports.registryFor(auth.environment),
        now: ports.clock.now(),
        caller: { accountId: auth.accountId, requestId },
      },
      auth,
      body,
    );
    return { body: presentMonitor(monitor) };
  });

export const handler = createHandler(
  awsRoutePorts(monitoringRoutes.createMonitor, { monitors, idempotency, registryFor }),
);
