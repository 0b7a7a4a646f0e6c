/** The companies capability over HTTP: each method sends its operation (../registry-protocol.ts). */

import type { RegistryCall } from '../../adapters/registry-http/transport.ts';
import type { CompanyRegistry } from '../registry-port.ts';
import type { companyRegistryProtocol } from '../registry-protocol.ts';

export const httpCompanies = (call: RegistryCall<typeof companyRegistryProtocol>): CompanyRegistry => ({
  getCompany: (number, caller) => call('company.get', { number }, caller),
  getCompanyByAbn: (abn, caller) => call('company.getByAbn', { abn }, caller),
  searchCompanies: (query, caller) =>
    call('company.search', { name: query.name, scope: query.scope }, caller),
  purchaseCompanyExtract: (number, type, caller, clientKey) =>
    call('company.extract', { number, type, clientKey }, caller),
  getCharge: (chargeNumber, caller) => call('charge.get', { chargeNumber }, caller),
  listCompanyDocuments: (number, caller) => call('company.documents', { number }, caller),
});
