import { extracts } from '../../shared/composition/aws/extracts.ts';
import { awsHttpPorts } from '../../shared/composition/aws/http.ts';
import { pageOfStore } from '../../shared/domain/cursor.ts';
import { pageRequest } from '../../shared/http/paging.ts';
import { createHttpHandler } from '../../shared/http/pipeline.ts';
import { extractRoutes } from '../../shared/http/routes/extracts.ts';
import type { HttpPorts } from '../../shared/ports/app.ts';

export const createHandler = (ports: HttpPorts<'extracts'>) =>
  createHttpHandler(extractRoutes.listExtracts, ports, async ({ query, auth }) => {
    const page = await pageOfStore(
      pageRequest(ports, extractRoutes.listExtracts, auth, query, { kind: query.kind }),
      (position) =>
        ports.extracts.list(auth.accountId, auth.environment, {
          ...(query.kind ? { kind: query.kind } : {}),
          ...position,
          now: ports.clock.now().toISOString(),
        }),
      (item) => item.summary,
    );
    return { body: { object: 'list', ...page } };
  });

export const handler = createHandler(awsHttpPorts({ extracts }));
