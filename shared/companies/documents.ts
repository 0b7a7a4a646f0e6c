/** A company's documents from its held extract, narrowed to a period and a qualifier (free). */
import './errors.ts';
import { type CursorCodec, pageOfArray } from '../kernel/cursor.ts';
import { ApiError } from '../kernel/errors/api-error.ts';
import { pageRequest } from '../kernel/http/paging.ts';
import * as companyRoutes from './routes.ts';
import { readSection, type SectionInput, type SectionPorts } from './sections.ts';

interface DocumentRecord {
  receivedAt: string;
  qualifier: string | null;
}

export interface DocumentsQuery {
  years?: number | undefined;
  from?: string | undefined;
  to?: string | undefined;
  qualifier?: string | undefined;
  extract?: string | undefined;
  limit?: number | undefined;
  cursor?: string | undefined;
}

/** `years` or `from`/`to`, never both; a range needs both ends in order. Checked before any read. */
export function checkDocumentPeriod(query: DocumentsQuery) {
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

/** The day `years` years before the extract's `asOf`: where a `years` period starts. */
export function yearsBefore(asOf: string, years: number): string {
  const start = new Date(asOf);
  start.setUTCFullYear(start.getUTCFullYear() - years);
  return start.toISOString().slice(0, 10);
}

/** The documents received in `[from, to]` (either end open) whose qualifier starts with `qualifier`. */
export const documentsIn = <D extends DocumentRecord>(
  documents: readonly D[],
  {
    from,
    to,
    qualifier,
  }: { from?: string | undefined; to?: string | undefined; qualifier?: string | undefined },
) =>
  documents.filter(
    (document) =>
      (from === undefined || document.receivedAt >= from) &&
      (to === undefined || document.receivedAt <= to) &&
      (qualifier === undefined || (document.qualifier ?? '').startsWith(qualifier)),
  );

/**
 * One page of the documents of the held extract, with the extract it came from. A qualifier asks
 * for annual returns or financial reports, which only historical extracts hold.
 */
export async function listCompanyDocuments(
  ports: SectionPorts & { cursors: CursorCodec },
  input: SectionInput & { query: DocumentsQuery },
) {
  const { query } = input;
  checkDocumentPeriod(query);
  const { qualifier, to } = query;
  const { extract, data } = await readSection(ports, input, 'documents', qualifier !== undefined);
  const from = query.years !== undefined ? yearsBefore(extract.asOf, query.years) : query.from;
  const documents = documentsIn(data as DocumentRecord[], { from, to, qualifier });
  const filters = { id: input.path.id, years: query.years, from, to, qualifier, extract: extract.id };
  const page = await pageOfArray(
    documents,
    pageRequest(ports, companyRoutes.listCompanyDocuments, input.auth, query, filters),
  );
  return { page, extract };
}
