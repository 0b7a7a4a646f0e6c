import { createHttpHandler } from '../../shared/http/pipeline.ts';
import { referenceRoutes } from '../../shared/http/routes/reference.ts';
import { codeTableSummaries } from '../../shared/reference/presenters.ts';

export const handler = createHttpHandler(referenceRoutes.listCodeTables, async ({ services }) => {
  const data = codeTableSummaries(services.config.docsUrl);
  return { body: { object: 'list', data, hasMore: false, nextCursor: null, totalCount: data.length } };
});
