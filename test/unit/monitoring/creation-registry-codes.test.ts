/**
 * A company monitor's baseline reads the company's document list; the registry's CD51 (no document
 * list for the organisation) is a companies code, so creating a monitor must load its catalogue entry
 * and answer 422 `document_list_unavailable` (spec 7.4), not a 502. This file imports only what
 * CreateMonitor's function imports, in a fresh module graph (the unit project isolates files).
 */
import { describe, expect, it } from 'vitest';
import type { CompanyRegistry } from '../../../shared/companies/registry-port.ts';
import { ApiError } from '../../../shared/kernel/errors/api-error.ts';
import { type RegistryCompany, RegistryRejection } from '../../../shared/kernel/registry-port.ts';
import { newMonitor } from '../../../shared/monitoring/creation.ts';
import { checkMonitorRequest } from '../../../shared/monitoring/monitors.ts';
import { hasDocumentList } from '../../../shared/monitoring/snapshot.ts';

const company: RegistryCompany = {
  number: '000000019',
  numberType: 'ACN',
  name: 'EXAMPLE PTY LTD',
  type: 'APTY',
  class: 'LMSH',
  subClass: 'PROP',
  status: 'REGD',
  abn: null,
  registeredCharity: false,
  registeredAt: '2001-01-01',
  governanceType: null,
  schemeCategories: [],
  deregistration: null,
  formerNames: [],
  chargesExtractPages: 1,
};

describe('creating a company monitor when the registry has no document list', () => {
  it('answers 422 document_list_unavailable on company', async () => {
    expect(hasDocumentList(company.type)).toBe(true);
    const registry = {
      getCompany: async () => company,
      getCompanyByAbn: async () => company,
      listCompanyDocuments: async () => {
        throw new RegistryRejection('CD51', 'No document list for this organisation.');
      },
    } as unknown as CompanyRegistry;
    const now = new Date('2026-11-29T00:00:00Z');
    const request = checkMonitorRequest({ company: company.number }, now);
    const error = await newMonitor(
      { registry, now, caller: { accountId: 'acct', requestId: 'req' } },
      { accountId: 'acct', environment: 'test' } as never,
      request,
    ).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('document_list_unavailable');
    expect((error as ApiError).status).toBe(422);
    expect((error as ApiError).param).toBe('company');
  });
});
