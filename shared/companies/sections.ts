import './errors.ts';
import type { HeldExtracts } from '../extracts/store-port.ts';
import type { Environment } from '../kernel/api-keys.ts';
import type { AuthContext } from '../kernel/http/pipeline.ts';
import type { PlatformPorts } from '../kernel/ports/platform.ts';
import { locateCompanySection, readCompanySection } from './extracts.ts';
import { parseCompanyIdentifier } from './identifier.ts';
import type { CompanySectionName } from './present.ts';
import type { CompanyRegistry } from './registry-port.ts';
import type { recordStatuses } from './schemas.ts';

export interface SectionInput {
  path: { id: string };
  query: { extract?: string | undefined };
  auth: AuthContext;
  requestId: string;
}

/** What a section read uses. */
export type SectionPorts = PlatformPorts & {
  heldExtracts: HeldExtracts;
  registryFor: (environment: Environment) => CompanyRegistry;
};

/** The section of the held company extract a free read uses (see `readCompanySection`). */
export function readSection(
  ports: SectionPorts,
  input: SectionInput,
  section: CompanySectionName,
  needsHistorical: boolean,
) {
  return readCompanySection(sectionRequest(ports, input, section, needsHistorical));
}

/** The held company extract a free read uses, without reading its section (for paged lists). */
export function locateSection(
  ports: SectionPorts,
  input: SectionInput,
  section: CompanySectionName,
  needsHistorical: boolean,
) {
  return locateCompanySection(sectionRequest(ports, input, section, needsHistorical));
}

function sectionRequest(
  ports: SectionPorts,
  input: SectionInput,
  section: CompanySectionName,
  needsHistorical: boolean,
) {
  const { auth } = input;
  return {
    company: parseCompanyIdentifier(input.path.id),
    section,
    needsHistorical,
    extractId: input.query.extract,
    owner: auth,
    now: ports.clock.now(),
    requestId: input.requestId,
    registry: ports.registryFor(auth.environment),
    heldExtracts: ports.heldExtracts,
  };
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
