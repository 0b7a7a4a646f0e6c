import { awsHttpPorts } from '../../shared/composition/aws/http.ts';
import { registryFor } from '../../shared/composition/aws/registry.ts';
import { createHttpHandler } from '../../shared/http/pipeline.ts';
import type { HttpPorts } from '../../shared/ports/app.ts';
import { getBusinessName } from '../../shared/records/business-names.ts';
import { presentBusinessName } from '../../shared/records/present.ts';
import { recordRoutes } from '../../shared/records/routes.ts';

export const createHandler = (ports: HttpPorts<'registryFor'>) =>
  createHttpHandler(recordRoutes.getBusinessName, ports, async ({ path, auth, requestId }) => {
    const registry = ports.registryFor(auth.environment);
    const name = await getBusinessName(registry, path.id, { accountId: auth.accountId, requestId });
    return { body: presentBusinessName(name) };
  });

export const handler = createHandler(awsHttpPorts({ registryFor }));
