import { createHttpHandler } from '../../shared/http/pipeline.ts';
import { routes } from '../../shared/http/routes.ts';
import { codeTableSummaries } from '../../shared/reference/presenters.ts';

export const handler = createHttpHandler(routes.listCodeTables, async ({ services }) => {
  const data = codeTableSummaries(services.config.docsUrl);
  return { body: { object: 'list', data, hasMore: false, nextCursor: null, totalCount: data.length } };
});
