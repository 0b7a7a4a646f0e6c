import { presentCompanyExtract } from '../company/extracts.ts';
import { presentPersonExtract } from '../people/presenters.ts';
import type { StoredExtract } from '../ports/extracts.ts';

/** The extract object of any kind, as GET /v1/extracts/{id} shows it. */
export function presentStoredExtract({ header, sections }: StoredExtract) {
  const { summary: _summary, ...rest } = sections;
  return header.kind === 'person'
    ? presentPersonExtract(header.summary, rest)
    : presentCompanyExtract(header.summary, rest);
}
