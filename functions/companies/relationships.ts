import { byRecordStatus, readSection, type StatusRecord } from '../../shared/company/sections.ts';
import { createHttpHandler } from '../../shared/http/pipeline.ts';
import { companyRoutes } from '../../shared/http/routes/companies.ts';

export const handler = createHttpHandler(companyRoutes.listRelationships, async (input) => {
  const status = input.query.status ?? 'all';
  const { extract, data } = await readSection(input, 'relationships', false);
  const records = (data as StatusRecord[]).filter(byRecordStatus(status));
  return {
    body: {
      object: 'list',
      data: records,
      hasMore: false,
      nextCursor: null,
      totalCount: records.length,
      extract,
    },
  };
});
