/**
 * The companies capability over the dataset: organisation lookups (by number or ABN), the online
 * name search, company extracts (content by type, product support by organisation type) and
 * charges.
 */

import { companyRecordIn, DatasetPart, MAX_SEARCH_MATCHES } from '../../adapters/sandbox/lookups.ts';
import { orderedMatches, scoredNames } from '../../adapters/sandbox/name-search.ts';
import { toTimestamp } from '../../kernel/clock.ts';
import { acnFromAbn, isValidAbn } from '../../kernel/identifiers.ts';
import {
  compareByStatus,
  isCurrentStatus,
  sortAddressRecords,
  sortCharges,
  sortDocuments,
  sortOfficeholders,
  sortRelationships,
} from '../../kernel/registry-ordering.ts';
import {
  type RegistryCaller,
  type RegistryCharge,
  type RegistryCompany,
  type RegistryDocument,
  RegistryRejection,
} from '../../kernel/registry-port.ts';
import { findCodeTable } from '../../reference/code-tables.ts';
import { organisationTypesFor } from '../products.ts';
import {
  type CompanyExtractType,
  type CompanyRegistry,
  type CompanySearchScope,
  companyExtractTypes,
  type RegistryCompanyExtract,
  type RegistryCompanyMatch,
} from '../registry-port.ts';

/** The organisation types with a document list (document-list-organisation-types). */
const documentListTypes: ReadonlySet<string> = new Set(
  findCodeTable('document-list-organisation-types')?.entries.map((entry) => entry.code) ?? [],
);

/** Annual returns (AR…) and financial reports (FR…) are historical material. */
const isHistoricalOnlyDocument = (qualifier: string | null): boolean =>
  qualifier !== null && (qualifier.startsWith('AR') || qualifier.startsWith('FR'));

export class DatasetCompanies extends DatasetPart implements CompanyRegistry {
  async getCompany(number: string, _caller: RegistryCaller): Promise<RegistryCompany> {
    return structuredClone(companyRecordIn(this.dataset, number, 'CE01', 'CE03').company);
  }

  async getCompanyByAbn(abn: string, _caller: RegistryCaller): Promise<RegistryCompany> {
    if (typeof abn !== 'string' || !isValidAbn(abn)) {
      throw new RegistryRejection('CE10', 'The ABN must be eleven digits and pass its check digit test.');
    }
    const acn = acnFromAbn(abn);
    if (acn === null) throw new RegistryRejection('CE11', 'The ABN does not embed a valid ACN.');
    const record = this.dataset.byNumber.get(acn);
    if (!record) {
      throw new RegistryRejection('CE13', `No organisation has the number ${acn} held in this ABN.`);
    }
    if (record.company.abn !== abn) {
      throw new RegistryRejection('CE12', `No ABN, or a different one, is recorded for organisation ${acn}.`);
    }
    return structuredClone(record.company);
  }

  async searchCompanies(
    query: { name: string; scope: CompanySearchScope },
    _caller: RegistryCaller,
  ): Promise<{ found: number; matches: RegistryCompanyMatch[] }> {
    const scored = scoredNames(this.dataset, query);
    const found = scored.length;
    if (found === 0) {
      throw new RegistryRejection('ON51', 'No organisation name matches the search.', {
        counts: { returned: 0, found: 0 },
      });
    }
    if (found > MAX_SEARCH_MATCHES) {
      throw new RegistryRejection(
        'ON52',
        `${found} names match the search; refine it to select at most ${MAX_SEARCH_MATCHES}.`,
        { counts: { returned: 0, found } },
      );
    }
    return structuredClone({ found, matches: orderedMatches(scored) });
  }

  /** The online search's matching and order, without its cap and without ON51 and ON52. */

  /**
   * Relational extracts reject with the CR codes (CR01, CR03, CR51, CR02); company extracts with
   * CE01, CE03, CE51. An unknown extract type is RS02.
   */
  async purchaseCompanyExtract(
    number: string,
    type: CompanyExtractType,
    _caller: RegistryCaller,
    // The sandbox bills nothing and loses no answer, so it has no use for our client key.
    _clientKey?: string,
  ): Promise<RegistryCompanyExtract> {
    if (!companyExtractTypes.includes(type)) {
      throw new RegistryRejection('RS02', 'The extract type must be current, historical or relational.');
    }
    const relational = type === 'relational';
    const record = relational
      ? companyRecordIn(this.dataset, number, 'CR01', 'CR03')
      : companyRecordIn(this.dataset, number, 'CE01', 'CE03');
    const { company } = record;
    const supported: readonly string[] = organisationTypesFor[relational ? 'relational' : 'current'];
    if (!supported.includes(company.type)) {
      throw new RegistryRejection(
        relational ? 'CR51' : 'CE51',
        `Organisation type ${company.type} has no ${type} extract.`,
      );
    }
    const asOf = toTimestamp(this.now());
    const base: RegistryCompanyExtract = {
      type,
      asOf,
      company,
      officeholders: [],
      addresses: [],
      contactAddress: null,
      shareClasses: [],
      members: [],
      documents: [],
      externalAdministration: null,
      charges: [],
      relationships: [],
    };
    if (relational) {
      if (record.relationships.length === 0) {
        throw new RegistryRejection(
          'CR02',
          `Organisation ${company.number} holds no roles, licences or shareholdings in other organisations.`,
        );
      }
      return structuredClone({ ...base, relationships: sortRelationships(record.relationships) });
    }
    const current = type === 'current';
    const keep = <T extends { status: string }>(list: readonly T[]): T[] =>
      current ? list.filter((item) => isCurrentStatus(item.status)) : [...list];
    const addresses = sortAddressRecords(keep(record.addresses));
    const ea = record.externalAdministration;
    return structuredClone({
      ...base,
      officeholders: sortOfficeholders(keep(record.officeholders)),
      addresses: addresses.filter((address) => address.type !== 'CC'),
      contactAddress: addresses.find((address) => address.type === 'CC') ?? null,
      shareClasses: keep(record.shareClasses).sort(compareByStatus),
      members: keep(record.members).sort(compareByStatus),
      documents: sortDocuments(
        current
          ? record.documents.filter((document) => !isHistoricalOnlyDocument(document.qualifier))
          : record.documents,
      ),
      externalAdministration:
        ea && company.status === 'EXAD'
          ? { appointees: sortOfficeholders(keep(ea.appointees)), documents: sortDocuments(ea.documents) }
          : null,
      charges: current ? [] : sortCharges(record.charges),
    });
  }

  async listCompanyDocuments(number: string, _caller: RegistryCaller): Promise<RegistryDocument[]> {
    const record = companyRecordIn(this.dataset, number, 'CD01', 'CD07');
    if (!documentListTypes.has(record.company.type)) {
      throw new RegistryRejection(
        'CD51',
        `The registry keeps no document list for type ${record.company.type}.`,
      );
    }
    return structuredClone(sortDocuments(record.documents));
  }

  async getCharge(chargeNumber: string, _caller: RegistryCaller): Promise<RegistryCharge> {
    const charge =
      typeof chargeNumber === 'string' && /^\d{1,9}$/.test(chargeNumber)
        ? this.dataset.charges.get(chargeNumber)
        : undefined;
    if (!charge) throw new RegistryRejection('CH01', 'The charge number is invalid or unknown.');
    return structuredClone(charge);
  }
}
