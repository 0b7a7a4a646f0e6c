import type { RoutePorts } from '../../shared/app/ports.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { registryFor } from '../../shared/composition/aws/registry.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';
import { PAGE_SIZE } from '../../shared/kernel/http/schemas.ts';
import { browseRegister } from '../../shared/registers/browse.ts';
import * as registerRoutes from '../../shared/registers/routes.ts';

export const createHandler = (ports: RoutePorts<typeof registerRoutes.browseRegister>) =>
  createHttpHandler(registerRoutes.browseRegister, ports, async ({ path, query, auth, requestId }) => ({
    body: await browseRegister({
      register: path.register,
      browse: query.browse,
      limit: query.limit ?? PAGE_SIZE.default,
      cursor: query.cursor,
      route: registerRoutes.browseRegister.name,
      owner: auth,
      caller: { accountId: auth.accountId, requestId },
      registry: ports.registryFor(auth.environment),
      cursors: ports.cursors,
    }),
  }));

export const handler = createHandler(awsRoutePorts(registerRoutes.browseRegister, { registryFor }));
