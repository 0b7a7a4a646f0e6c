import { extracts } from '../../shared/composition/aws/extracts.ts';
import { awsHttpPorts } from '../../shared/composition/aws/http.ts';
import { createHttpHandler } from '../../shared/http/pipeline.ts';
import { extractRoutes } from '../../shared/http/routes/extracts.ts';
import type { HttpPorts } from '../../shared/ports/app.ts';
import { PAGE_SIZE } from '../../shared/schemas/common.ts';

export const createHandler = (ports: HttpPorts<'extracts'>) =>
  createHttpHandler(extractRoutes.listExtracts, ports, async ({ query, auth }) => {
    const scope = { route: extractRoutes.listExtracts.name, filters: { kind: query.kind }, owner: auth };
    const after = await ports.cursors.decode<string>(scope, query.cursor);
    const page = await ports.extracts.list(auth.accountId, auth.environment, {
      ...(query.kind ? { kind: query.kind } : {}),
      limit: query.limit ?? PAGE_SIZE.default,
      ...(after ? { after } : {}),
      now: ports.clock.now().toISOString(),
    });
    return {
      body: {
        object: 'list',
        data: page.items.map((item) => item.summary),
        hasMore: page.next !== undefined,
        nextCursor: page.next === undefined ? null : await ports.cursors.encode(scope, page.next),
        totalCount: null,
      },
    };
  });

export const handler = createHandler(awsHttpPorts({ extracts }));
