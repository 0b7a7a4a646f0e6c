import { awsHttpPorts } from '../../shared/composition/aws/http.ts';
import { registryFor } from '../../shared/composition/aws/registry.ts';
import { createHttpHandler } from '../../shared/http/pipeline.ts';
import type { HttpPorts } from '../../shared/ports/app.ts';
import { browseRegister } from '../../shared/registers/browse.ts';
import { registerRoutes } from '../../shared/registers/routes.ts';
import { PAGE_SIZE } from '../../shared/schemas/common.ts';

export const createHandler = (ports: HttpPorts<'registryFor'>) =>
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

export const handler = createHandler(awsHttpPorts({ registryFor }));
