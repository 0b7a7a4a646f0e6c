import type { RoutePorts } from '../../shared/app/ports.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { registryFor } from '../../shared/composition/aws/registry.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';
import { getBusinessName } from '../../shared/records/business-names.ts';
import { presentBusinessName } from '../../shared/records/present.ts';
import * as recordRoutes from '../../shared/records/routes.ts';

export const createHandler = (ports: RoutePorts<typeof recordRoutes.getBusinessName>) =>
  createHttpHandler(recordRoutes.getBusinessName, ports, async ({ path, auth, requestId }) => {
    const registry = ports.registryFor(auth.environment);
    const name = await getBusinessName(registry, path.id, { accountId: auth.accountId, requestId });
    return { body: presentBusinessName(name) };
  });

export const handler = createHandler(awsRoutePorts(recordRoutes.getBusinessName, { registryFor }));
