/**
 * The companies capability's operations of the registry protocol (docs/registry-protocol.md; the row's fields:
 * shared/kernel/registry-protocol.ts).
 */
import { isObject, isSearchResult, ownClientKey, registryOperation } from '../kernel/registry-protocol.ts';
import type { CompanyExtractType, CompanyRegistry, CompanySearchScope } from './registry-port.ts';

const operation = registryOperation<CompanyRegistry>('companies');

const isCompany = (v: unknown) => isObject(v) && typeof v.number === 'string';

export const companyRegistryProtocol = {
  'company.get': operation({
    method: 'getCompany',
    billable: false,
    timeout: 'lookup',
    args: { number: 'string' },
    toPort: (a, caller) => [a.number, caller],
    isResult: isCompany,
    doc: { args: '`number` (nine digits)', result: '`RegistryCompany`' },
  }),
  'company.getByAbn': operation({
    method: 'getCompanyByAbn',
    billable: false,
    timeout: 'lookup',
    args: { abn: 'string' },
    toPort: (a, caller) => [a.abn, caller],
    isResult: isCompany,
    doc: { args: '`abn`', result: '`RegistryCompany`' },
  }),
  'company.documents': operation({
    method: 'listCompanyDocuments',
    billable: false,
    timeout: 'lookup',
    args: { number: 'string' },
    toPort: (a, caller) => [a.number, caller],
    isResult: (v) => Array.isArray(v),
    doc: { args: '`number` (nine digits)', result: '`RegistryDocument[]`, newest first' },
  }),
  'company.search': operation({
    method: 'searchCompanies',
    billable: false,
    timeout: 'lookup',
    args: { name: 'string', scope: 'string' },
    toPort: (a, caller) => [{ name: a.name, scope: a.scope as CompanySearchScope }, caller],
    isResult: isSearchResult,
    doc: { args: '`name`, `scope` (`current` or `all`)', result: '`{found, matches}`' },
  }),
  'company.extract': operation({
    method: 'purchaseCompanyExtract',
    billable: true,
    clientKey: ownClientKey,
    timeout: 'long',
    args: { number: 'string', type: 'string', clientKey: 'string' },
    toPort: (a, caller) => [a.number, a.type as CompanyExtractType, caller, a.clientKey],
    isResult: (v) => isObject(v) && typeof v.type === 'string' && isObject(v.company),
    doc: {
      args: '`number`, `type` (`current`, `historical`, `relational`), `clientKey`',
      result: '`RegistryCompanyExtract`',
    },
  }),
  'charge.get': operation({
    method: 'getCharge',
    billable: false,
    timeout: 'lookup',
    args: { chargeNumber: 'string' },
    toPort: (a, caller) => [a.chargeNumber, caller],
    isResult: (v) => isObject(v) && typeof v.chargeNumber === 'string',
    doc: { args: '`chargeNumber`', result: '`RegistryCharge`' },
  }),
};
