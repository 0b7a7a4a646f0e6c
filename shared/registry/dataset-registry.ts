/**
 * A `CompanyRegistry` over an in-memory `Dataset`: the sandbox registry (test keys) and the
 * registry simulator's back end (live keys, locally). It applies the registry's own rules (spec
 * document 1, section 2.9; document 3, sections 7.4 and 7.5): rejection codes, product support
 * by organisation type, extract content by type and record orders.
 *
 * Answers are deep copies, so a caller cannot change the shared, memoised dataset.
 */

import { toTimestamp } from '../domain/clock.ts';
import { acnFromAbn, isValidAbn, isValidAcn } from '../domain/identifiers.ts';
import { organisationTypesFor } from '../domain/products.ts';
import {
  type CompanyExtractType,
  type CompanyRegistry,
  type CompanySearchScope,
  companyExtractTypes,
  companySearchScopes,
  type RegistryCaller,
  type RegistryCharge,
  type RegistryCompany,
  type RegistryCompanyExtract,
  type RegistryCompanyMatch,
  RegistryRejection,
} from '../ports/registry.ts';
import { type CompanyRecord, type Dataset, type NameEntry, nameWords, normalizeName } from './dataset.ts';
import {
  compareByStatus,
  compareText,
  isCurrentStatus,
  sortAddressRecords,
  sortCharges,
  sortDocuments,
  sortOfficeholders,
  sortRelationships,
} from './ordering.ts';

/** Most names a search may select; more is ON52. */
export const MAX_SEARCH_MATCHES = 100;

/** Annual returns (AR…) and financial reports (FR…) are historical material. */
const isHistoricalOnlyDocument = (qualifier: string | null): boolean =>
  qualifier !== null && (qualifier.startsWith('AR') || qualifier.startsWith('FR'));

const isNineDigitNumber = (value: unknown): value is string => typeof value === 'string' && isValidAcn(value);

/**
 * How well a name matches a query, 0 to 100, or null when it does not match. Both are
 * normalised (`normalizeName`). A name matches when every distinct query word matches a different
 * word of the name, in full or as its beginning ("WIDG" matches "WIDGETS").
 *
 *   exact name (normalised name = normalised query)   100
 *   the name starts with the query text               70 + bonus   (70–99)
 *   the query text appears from the start of a word   40 + bonus   (40–69)
 *   the words appear apart or in another order        10 + bonus   (10–39)
 *
 * bonus = floor(29 × covered ÷ words in the name), where each query word counts 1 when it equals
 * its name word and ½ when it only begins it; so a name with fewer other words scores higher. The
 * bands do not overlap: starts-with always beats contains, which always beats scattered words.
 */
export function scoreName(queryNormalized: string, nameNormalized: string): number | null {
  const queryWords = [...new Set(nameWords(queryNormalized))];
  const words = nameWords(nameNormalized);
  if (queryWords.length === 0 || words.length === 0) return null;
  if (queryNormalized === nameNormalized) return 100;

  // Longest query words first, each taking an unused equal word before an unused prefixed one,
  // so that a short query word cannot take the word a longer one needs.
  const used = new Array<boolean>(words.length).fill(false);
  let covered = 0;
  for (const queryWord of [...queryWords].sort((a, b) => b.length - a.length)) {
    let index = words.findIndex((word, i) => !used[i] && word === queryWord);
    let weight = 1;
    if (index === -1) {
      index = words.findIndex((word, i) => !used[i] && word.startsWith(queryWord));
      weight = 0.5;
    }
    if (index === -1) return null;
    used[index] = true;
    covered += weight;
  }
  const bonus = Math.floor((29 * Math.min(covered, words.length)) / words.length);
  if (nameNormalized.startsWith(queryNormalized)) return 70 + bonus;
  if (` ${nameNormalized}`.includes(` ${queryNormalized}`)) return 40 + bonus;
  return 10 + bonus;
}

interface ScoredName {
  entry: NameEntry;
  score: number;
}

export class DatasetRegistry implements CompanyRegistry {
  constructor(
    private readonly dataset: Dataset,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async getCompany(number: string, _caller: RegistryCaller): Promise<RegistryCompany> {
    return structuredClone(this.record(number, 'CE01', 'CE03').company);
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
    const scope: unknown = query?.scope;
    if (!companySearchScopes.includes(scope as CompanySearchScope)) {
      throw new RegistryRejection('ON02', 'The search scope must be current or all.');
    }
    const queryNormalized = typeof query.name === 'string' ? normalizeName(query.name) : '';
    const best = new Map<CompanyRecord, ScoredName>();
    if (queryNormalized !== '') {
      for (const entry of this.dataset.names) {
        if (entry.status === 'former' && scope !== 'all') continue;
        const score = scoreName(queryNormalized, entry.normalized);
        if (score === null) continue;
        // One match per organisation: its best name, the current name on a tie (it comes first).
        const held = best.get(entry.record);
        if (!held || score > held.score) best.set(entry.record, { entry, score });
      }
    }
    const found = best.size;
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
    const ordered = [...best.values()].sort(
      (a, b) =>
        b.score - a.score ||
        compareText(a.entry.name, b.entry.name) ||
        compareText(a.entry.record.company.number, b.entry.record.company.number),
    );
    const matches = ordered.map(
      ({ entry, score }): RegistryCompanyMatch => ({
        company: entry.record.company,
        matchedName: entry.name,
        nameStatus: entry.status,
        score,
        address: entry.record.searchAddress,
      }),
    );
    return structuredClone({ found, matches });
  }

  /**
   * Relational extracts reject with the CR codes (CR01, CR03, CR51, CR02); company extracts with
   * CE01, CE03, CE51. An unknown extract type is RS02.
   */
  async purchaseCompanyExtract(
    number: string,
    type: CompanyExtractType,
    _caller: RegistryCaller,
  ): Promise<RegistryCompanyExtract> {
    if (!companyExtractTypes.includes(type)) {
      throw new RegistryRejection('RS02', 'The extract type must be current, historical or relational.');
    }
    const relational = type === 'relational';
    const record = relational ? this.record(number, 'CR01', 'CR03') : this.record(number, 'CE01', 'CE03');
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

  async getCharge(chargeNumber: string, _caller: RegistryCaller): Promise<RegistryCharge> {
    const charge =
      typeof chargeNumber === 'string' && /^\d{1,9}$/.test(chargeNumber)
        ? this.dataset.charges.get(chargeNumber)
        : undefined;
    if (!charge) throw new RegistryRejection('CH01', 'The charge number is invalid or unknown.');
    return structuredClone(charge);
  }

  private record(number: string, invalidCode: string, unknownCode: string): CompanyRecord {
    if (!isNineDigitNumber(number)) {
      throw new RegistryRejection(
        invalidCode,
        'The number must be nine digits and pass the check digit test.',
      );
    }
    const record = this.dataset.byNumber.get(number);
    if (!record) throw new RegistryRejection(unknownCode, `No organisation has the number ${number}.`);
    return record;
  }
}
