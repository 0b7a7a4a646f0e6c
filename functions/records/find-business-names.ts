import { awsHttpPorts } from '../../shared/composition/aws/http.ts';
import { registryFor } from '../../shared/composition/aws/registry.ts';
import { createHttpHandler } from '../../shared/http/pipeline.ts';
import type { HttpPorts } from '../../shared/ports/app.ts';
import { findBusinessNames } from '../../shared/records/business-names.ts';
import { presentBusinessName } from '../../shared/records/present.ts';
import { recordRoutes } from '../../shared/records/routes.ts';

export const createHandler = (ports: HttpPorts<'registryFor'>) =>
  createHttpHandler(recordRoutes.findBusinessNames, ports, async ({ query, auth, requestId }) => {
    const registry = ports.registryFor(auth.environment);
    const names = await findBusinessNames(registry, query, { accountId: auth.accountId, requestId });
    return {
      body: {
        object: 'list',
        data: names.map(presentBusinessName),
        hasMore: false,
        nextCursor: null,
        totalCount: names.length,
      },
    };
  });

export const handler = createHandler(awsHttpPorts({ registryFor }));
