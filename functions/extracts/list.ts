import * as extractRoutes from '../../shared/app/extract-routes.ts';
import type { RoutePorts } from '../../shared/app/ports.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { heldExtracts } from '../../shared/extracts/composition.ts';
import { pageOfStore } from '../../shared/kernel/cursor.ts';
import { pageRequest } from '../../shared/kernel/http/paging.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';

export const createHandler = (ports: RoutePorts<typeof extractRoutes.listExtracts>) =>
  createHttpHandler(extractRoutes.listExtracts, ports, async ({ query, auth }) => {
    const page = await pageOfStore(
      pageRequest(ports, extractRoutes.listExtracts, auth, query, { kind: query.kind }),
      (position) =>
        ports.heldExtracts.list(auth.accountId, auth.environment, {
          ...(query.kind ? { kind: query.kind } : {}),
          ...position,
          now: ports.clock.now().toISOString(),
        }),
      (item) => item.summary,
    );
    return { body: { object: 'list', ...page } };
  });

export const handler = createHandler(awsRoutePorts(extractRoutes.listExtracts, { heldExtracts }));
