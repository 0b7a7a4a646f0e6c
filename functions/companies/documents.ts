import type { RoutePorts } from '../../shared/app/ports.ts';
import { companyRoutes } from '../../shared/companies/routes.ts';
import { readSection } from '../../shared/companies/sections.ts';
import { heldExtracts } from '../../shared/composition/aws/extracts.ts';
import { awsRoutePorts } from '../../shared/composition/aws/http.ts';
import { registryFor } from '../../shared/composition/aws/registry.ts';
import { pageOfArray } from '../../shared/kernel/cursor.ts';
import { ApiError } from '../../shared/kernel/errors/api-error.ts';
import { pageRequest } from '../../shared/kernel/http/paging.ts';
import { createHttpHandler } from '../../shared/kernel/http/pipeline.ts';

interface DocumentRecord {
  receivedAt: string;
  qualifier: string | null;
}

/** `years` or `from`/`to`, never both; a range needs both ends in order. Checked before any read. */
function checkWindow(query: {
  years?: number | undefined;
  from?: string | undefined;
  to?: string | undefined;
}) {
  if (query.years !== undefined && (query.from !== undefined || query.to !== undefined)) {
    throw new ApiError('document_period_conflict', {
      param: 'years',
      message: 'Give either years or a from/to range, not both.',
    });
  }
  if ((query.from === undefined) !== (query.to === undefined)) {
    throw new ApiError('document_date_range_invalid', {
      param: query.from === undefined ? 'from' : 'to',
      message: 'A date range needs both from and to.',
    });
  }
  if (query.from !== undefined && query.to !== undefined && query.from > query.to) {
    throw new ApiError('document_date_range_invalid', { param: 'from', message: 'from is later than to.' });
  }
}

function yearsBefore(asOf: string, years: number): string {
  const start = new Date(asOf);
  start.setUTCFullYear(start.getUTCFullYear() - years);
  return start.toISOString().slice(0, 10);
}

export const createHandler = (ports: RoutePorts<typeof companyRoutes.listCompanyDocuments>) =>
  createHttpHandler(companyRoutes.listCompanyDocuments, ports, async (input) => {
    const { query } = input;
    checkWindow(query);
    const qualifier = query.qualifier;
    // Annual returns and financial reports are only in historical extracts.
    const { extract, data } = await readSection(ports, input, 'documents', qualifier !== undefined);
    const from = query.years !== undefined ? yearsBefore(extract.asOf, query.years) : query.from;
    const to = query.to;
    const documents = (data as DocumentRecord[]).filter(
      (document) =>
        (from === undefined || document.receivedAt >= from) &&
        (to === undefined || document.receivedAt <= to) &&
        (qualifier === undefined || (document.qualifier ?? '').startsWith(qualifier)),
    );
    const page = await pageOfArray(
      documents,
      pageRequest(ports, companyRoutes.listCompanyDocuments, input.auth, query, {
        id: input.path.id,
        years: query.years,
        from,
        to,
        qualifier,
        extract: extract.id,
      }),
    );
    return { body: { object: 'list', ...page, extract } };
  });

export const handler = createHandler(
  awsRoutePorts(companyRoutes.listCompanyDocuments, { heldExtracts, registryFor }),
);
