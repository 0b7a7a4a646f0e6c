import { readSection, type StatusRecord } from '../../shared/company/sections.ts';
import { createHttpHandler } from '../../shared/http/pipeline.ts';
import { companyRoutes } from '../../shared/http/routes/companies.ts';

const STATUS_CODES = { satisfied: ['SATF'], deleted: ['DELT'], all: ['SATF', 'DELT'] } as const;

export const handler = createHttpHandler(companyRoutes.listCharges, async (input) => {
  const status = input.query.status ?? 'satisfied';
  const { extract, data } = await readSection(input, 'charges', true);
  const wanted: readonly string[] = STATUS_CODES[status];
  // Unknown statuses are kept under `all`: code sets are open.
  const charges = (data as StatusRecord[]).filter(
    (charge) => status === 'all' || wanted.includes(charge.status.code),
  );
  return {
    body: { object: 'list', data: charges, hasMore: false, nextCursor: null, totalCount: null, extract },
  };
});
