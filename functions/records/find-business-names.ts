import type { RoutePorts } from '../../shared/app/ports.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { registryFor } from '../../shared/composition/aws/registry.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';
import { findBusinessNames } from '../../shared/records/business-names.ts';
import { presentBusinessName } from '../../shared/records/present.ts';
import * as recordRoutes from '../../shared/records/routes.ts';

export const createHandler = (ports: RoutePorts<typeof recordRoutes.findBusinessNames>) =>
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

export const handler = createHandler(awsRoutePorts(recordRoutes.findBusinessNames, { registryFor }));
