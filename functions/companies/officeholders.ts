import { byRecordStatus, readSection, type StatusRecord } from '../../shared/company/sections.ts';
import { pageOfArray } from '../../shared/domain/cursor.ts';
import { createHttpHandler } from '../../shared/http/pipeline.ts';
import { companyRoutes } from '../../shared/http/routes/companies.ts';
import { PAGE_SIZE } from '../../shared/schemas/common.ts';

export const handler = createHttpHandler(companyRoutes.listOfficeholders, async (input) => {
  const status = input.query.status ?? 'current';
  const { extract, data } = await readSection(input, 'officeholders', status !== 'current');
  const records = (data as StatusRecord[]).filter(byRecordStatus(status));
  const page = await pageOfArray(records, {
    route: companyRoutes.listOfficeholders.name,
    filters: { id: input.path.id, status, extract: extract.id },
    owner: input.auth,
    limit: input.query.limit ?? PAGE_SIZE.default,
    cursor: input.query.cursor,
    codec: input.services.cursors,
  });
  return { body: { object: 'list', ...page, extract } };
});
