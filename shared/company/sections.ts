import type { AuthContext } from '../http/pipeline.ts';
import { registryFor } from '../registry/registries.ts';
import type { Services } from '../runtime.ts';
import type { recordStatuses } from '../schemas/companies.ts';
import { extractStore } from '../stores.ts';
import { readCompanySection } from './extracts.ts';
import { parseCompanyIdentifier } from './identifier.ts';
import type { CompanySectionName } from './presenters.ts';

interface SectionInput {
  path: { id: string };
  query: { extract?: string | undefined };
  auth: AuthContext;
  requestId: string;
  services: Services;
}

/** The section of the held company extract a free read uses (see `readCompanySection`). */
export function readSection(input: SectionInput, section: CompanySectionName, needsHistorical: boolean) {
  const { services, auth } = input;
  return readCompanySection({
    company: parseCompanyIdentifier(input.path.id),
    section,
    needsHistorical,
    extractId: input.query.extract,
    owner: auth,
    now: services.clock.now(),
    requestId: input.requestId,
    registry: registryFor(auth.environment, services),
    store: extractStore(),
  });
}

/** Any presented record with a record-status (`C`, `E`, `F`). */
export interface StatusRecord {
  status: { code: string };
}

/**
 * `current` keeps current and future records (C, F); `ceased` (a company's sections) or `former`
 * (a person's roles) keeps E; filters never reorder.
 */
export const byRecordStatus =
  (filter: (typeof recordStatuses)[number] | 'former') =>
  (record: StatusRecord): boolean =>
    filter === 'all' || (filter === 'current' ? record.status.code !== 'E' : record.status.code === 'E');
