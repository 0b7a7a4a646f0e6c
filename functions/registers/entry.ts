import type { RoutePorts } from '../../shared/app/ports.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { registryFor } from '../../shared/composition/aws/registry.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';
import { getRegisterEntry } from '../../shared/registers/entry.ts';
import * as registerRoutes from '../../shared/registers/routes.ts';

export const createHandler = (ports: RoutePorts<typeof registerRoutes.getRegisterEntry>) =>
  createHttpHandler(registerRoutes.getRegisterEntry, ports, async ({ path, auth, requestId }) => ({
    body: await getRegisterEntry({
      register: path.register,
      number: path.number,
      caller: { accountId: auth.accountId, requestId },
      registry: ports.registryFor(auth.environment),
    }),
  }));

export const handler = createHandler(awsRoutePorts(registerRoutes.getRegisterEntry, { registryFor }));
