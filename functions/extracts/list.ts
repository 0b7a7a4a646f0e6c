import { createHttpHandler } from '../../shared/http/pipeline.ts';
import { extractRoutes } from '../../shared/http/routes/extracts.ts';
import { PAGE_SIZE } from '../../shared/schemas/common.ts';
import { extractStore } from '../../shared/stores.ts';

export const handler = createHttpHandler(extractRoutes.listExtracts, async ({ query, auth, services }) => {
  const scope = { route: extractRoutes.listExtracts.name, filters: { kind: query.kind }, owner: auth };
  const after = await services.cursors.decode<string>(scope, query.cursor);
  const page = await extractStore().list(auth.accountId, auth.environment, {
    ...(query.kind ? { kind: query.kind } : {}),
    limit: query.limit ?? PAGE_SIZE.default,
    ...(after ? { after } : {}),
    now: services.clock.now().toISOString(),
  });
  return {
    body: {
      object: 'list',
      data: page.items.map((item) => item.summary),
      hasMore: page.next !== undefined,
      nextCursor: page.next === undefined ? null : await services.cursors.encode(scope, page.next),
      totalCount: null,
    },
  };
});
