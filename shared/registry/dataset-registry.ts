import { createHash } from 'node:crypto';
/**
 * A `Registry` (companies, people and orders) over an in-memory `Dataset`: the sandbox registry
 * (test keys) and the registry simulator's back end (live keys, locally). It applies the
 * registry's own rules (spec document 1, sections 2.4, 2.5, 2.6 and 2.9; document 3, sections
 * 7.4, 7.5, 7.7 and 8): rejection codes, product support by organisation type, extract content by
 * type, record orders, charges extract plans, image requests and offline searches.
 *
 * Answers are deep copies, so a caller cannot change the shared, memoised dataset. Image requests
 * complete at once; they and postal hand-overs are kept in the registry object's memory only.
 */

import { isCalendarDate, toTimestamp } from '../domain/clock.ts';
import { acnFromAbn, isValidAbn, isValidAcn } from '../domain/identifiers.ts';
import { PERSON_NAME_PATTERN } from '../domain/person-names.ts';
import { organisationTypesFor, productAvailableFor } from '../domain/products.ts';
import {
  type CompanyExtractType,
  type CompanySearchScope,
  companyExtractTypes,
  companySearchScopes,
  type IsoDate,
  MAX_ROLES_PER_NAME,
  type PeopleSearchQuery,
  type PersonExtractOptions,
  type Registry,
  type RegistryCaller,
  type RegistryCharge,
  type RegistryChargesExtractPlan,
  type RegistryCompany,
  type RegistryCompanyExtract,
  type RegistryCompanyMatch,
  type RegistryImageableDocument,
  type RegistryImageRequestItem,
  type RegistryImageRequestStatus,
  type RegistryPersonExtract,
  type RegistryPersonMatch,
  type RegistryPersonNotice,
  type RegistryPostalDelivery,
  type RegistryPurchaseOutcome,
  RegistryRejection,
} from '../ports/registry.ts';
import {
  type CompanyRecord,
  type Dataset,
  type DocumentEntry,
  imageAvailableIn,
  isRegistryIdentifier,
  type NameEntry,
  nameWords,
  normalizeName,
  normalizePersonName,
  type PersonEntry,
  type PersonRecord,
  personEntry,
} from './dataset.ts';
import {
  compareByStatus,
  compareText,
  isCurrentStatus,
  MEMBER_ROLE,
  sortAddressRecords,
  sortCharges,
  sortDocuments,
  sortLicences,
  sortOfficeholders,
  sortPersonRoles,
  sortRelationships,
} from './ordering.ts';
import type { DocumentImagesRequest } from './page-images.ts';

/**
 * Draws the page images of a document (`renderDocumentImages`). Passed in rather than imported:
 * it brings pdf-lib, which only the functions that fetch images should bundle.
 */
export type PageImageRenderer = (request: DocumentImagesRequest) => Promise<Uint8Array>;

/** Most names a search may select; more is ON52 (PN52 for people). */
export const MAX_SEARCH_MATCHES = 100;

/** Most roles a name may hold for a person extract; more is PE51. */

const isIsoDate = (value: unknown): value is IsoDate => typeof value === 'string' && isCalendarDate(value);

/** Registry identifiers compare as numbers: shorter first, then by digits. */
const compareIdentifiers = (a: string, b: string): number => a.length - b.length || compareText(a, b);

/** The people search order: family name, given names, birth date (none last), identifier. */
function comparePersonMatches(a: RegistryPersonMatch, b: RegistryPersonMatch): number {
  const byFamily = compareText(a.name.familyName, b.name.familyName);
  if (byFamily !== 0) return byFamily;
  const byGiven = compareText(a.name.givenNames.join(' '), b.name.givenNames.join(' '));
  if (byGiven !== 0) return byGiven;
  const aBorn = a.birth?.date ?? null;
  const bBorn = b.birth?.date ?? null;
  if (aBorn !== bBorn) {
    if (aBorn === null) return 1;
    if (bBorn === null) return -1;
    return compareText(aBorn, bBorn);
  }
  return compareIdentifiers(a.registryIdentifier, b.registryIdentifier);
}

/** The i-th query word begins the person's i-th given name, for every query word. */
const givenNamesMatch = (queryWords: readonly string[], givenWords: readonly string[]): boolean =>
  queryWords.length <= givenWords.length &&
  queryWords.every((word, i) => (givenWords[i] as string).startsWith(word));

const sameWords = (a: readonly string[], b: readonly string[]): boolean =>
  a.length === b.length && a.every((word, i) => word === b[i]);

/** Notice texts the registry requires to be shown with a person extract. */
export const personNoticeText = {
  acncCharity: (company: RegistryCompany): string =>
    `${company.name} is registered with the Australian Charities and Not-for-profits Commission. ` +
    `Details of its responsible persons are held on the ACNC Charity Register, which should also be consulted.`,
  sameName:
    'Other people are recorded under the same name. This extract covers only the name record ' +
    'identified; check the birth details before relying on it.',
} as const;

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

/** By score, then name, then number. */
const orderedMatches = (scored: readonly ScoredName[]): RegistryCompanyMatch[] =>
  [...scored]
    .sort(
      (a, b) =>
        b.score - a.score ||
        compareText(a.entry.name, b.entry.name) ||
        compareText(a.entry.record.company.number, b.entry.record.company.number),
    )
    .map(({ entry, score }) => ({
      company: entry.record.company,
      matchedName: entry.name,
      nameStatus: entry.status,
      score,
      address: entry.record.searchAddress,
    }));

/** Most documents in one image request. */
export const MAX_IMAGE_REQUEST_DOCUMENTS = 10;
/** Most numbers in one document lookup. */
export const MAX_DOCUMENT_LOOKUP = 50;

/**
 * The day the charges register moved to the PPSR. Charges still current then were migrated there
 * (status DELT, no satisfaction date); the current charges extract (fee 955C) covers those.
 */
export const PPSR_START: IsoDate = '2012-01-30';

/** Nine characters, digits and capital letters, the first a digit. */
const isDocumentNumber = (value: unknown): value is string =>
  typeof value === 'string' && /^[0-9][0-9A-Z]{8}$/.test(value);

/** Not satisfied, and registered before the PPSR took over. */
const isPrePpsrCurrentCharge = (charge: RegistryCharge): boolean => {
  const registered = (charge.registeredAt ?? charge.createdAt)?.slice(0, 10) ?? null;
  return (
    charge.status !== 'SATF' && charge.satisfiedAt === null && registered !== null && registered < PPSR_START
  );
};

const imageable = (entry: DocumentEntry): RegistryImageableDocument => {
  const { document, subject } = entry;
  return {
    documentNumber: document.documentNumber,
    formCode: document.formCode,
    pageCount: document.pageCount,
    receivedAt: document.receivedAt,
    imaged: document.imaged,
    imageAvailable: entry.imageAvailable,
    subject:
      subject.type === 'organisation'
        ? { type: 'organisation', company: subject.record.company }
        : subject.type === 'person'
          ? { type: 'person', name: subject.record.match.name }
          : { type: 'other' },
  };
};

/** One document of an image request, its page range resolved. */
interface RequestedImage {
  entry: DocumentEntry;
  from: number;
  to: number;
}

interface ImageRequest {
  registryRequestId: string;
  accountId: string;
  documents: RequestedImage[];
}

/** Idempotency keys are per account. */
const keyOf = (accountId: string, clientKey: string): string => JSON.stringify([accountId, clientKey]);

const sequenced = (prefix: string, n: number): string => `${prefix}${String(n).padStart(8, '0')}`;

export class DatasetRegistry implements Registry {
  /**
   * Image requests and postal hand-overs live in this object's memory: they last as long as it,
   * and another instance (another process) does not know them.
   */
  private readonly imageRequests = new Map<string, ImageRequest>();
  private readonly imageRequestKeys = new Map<string, string>();
  private readonly dispatches = new Map<string, string>();

  /**
   * `statelessImages` (the sandbox): request and dispatch ids are derived from the account and
   * client key, and a well-formed request id this instance does not know is taken as complete,
   * its images drawn from the dataset and the `pages` the caller repeats. Deployed, each Lambda
   * container has its own sandbox instance, and the workflow's steps run in different ones.
   * `pageImages` draws the pages `getImages` returns; without it `getImages` throws.
   */
  constructor(
    private readonly dataset: Dataset,
    private readonly now: () => Date = () => new Date(),
    private readonly options: { statelessImages?: boolean; pageImages?: PageImageRenderer } = {},
  ) {}

  private newId(prefix: string, accountId: string, clientKey: string, count: number): string {
    if (!this.options.statelessImages) return sequenced(prefix, count);
    const digest = createHash('sha256').update(keyOf(accountId, clientKey)).digest();
    return sequenced(prefix, digest.readUInt32BE(0) % 100_000_000);
  }

  /** A request id another sandbox instance issued. */
  private isForeignRequest(registryRequestId: unknown): boolean {
    return (
      this.options.statelessImages === true &&
      typeof registryRequestId === 'string' &&
      /^IR\d{8}$/.test(registryRequestId) &&
      !this.imageRequests.has(registryRequestId)
    );
  }

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
    const scored = this.scoredNames(query);
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
  async searchCompaniesOffline(
    query: { name: string; scope: CompanySearchScope },
    _caller: RegistryCaller,
    // The sandbox bills nothing and loses no answer, so it has no use for our client key.
    _clientKey?: string,
  ): Promise<{ matches: RegistryCompanyMatch[] }> {
    return structuredClone({ matches: orderedMatches(this.scoredNames(query)) });
  }

  /** One best-scoring name per matching organisation, unordered; ON02 for an unknown scope. */
  private scoredNames(query: { name: string; scope: CompanySearchScope }): ScoredName[] {
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
    return [...best.values()];
  }

  /**
   * The sandbox bills nothing and its answers are never lost (it runs in process), so it keeps no
   * outcomes: every key is unknown to it. The simulator keeps them for the registry it serves.
   */
  async findPurchase(_clientKey: string, _caller: RegistryCaller): Promise<RegistryPurchaseOutcome> {
    return { state: 'none' };
  }

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

  /**
   * Free people search (spec document 3, sections 7.5 and 7.7). The family name must equal the
   * person's after normalisation (`normalizePersonName`); each word of `givenName` must begin the
   * person's given name in the same place. `found` counts the names matched before the birth-date
   * range is applied; the range (both ends included) drops people without a birth date.
   */
  async searchPeople(
    query: PeopleSearchQuery,
    _caller: RegistryCaller,
  ): Promise<{ found: number; matches: RegistryPersonMatch[] }> {
    const familyName: unknown = query?.familyName;
    const givenName: unknown = query?.givenName;
    if (typeof familyName !== 'string' || familyName.trim() === '') {
      throw new RegistryRejection('PN01', 'A family name is required.');
    }
    if (typeof givenName !== 'string' || givenName.trim() === '') {
      throw new RegistryRejection('PN02', 'A given name is required.');
    }
    if (!PERSON_NAME_PATTERN.test(familyName) || !PERSON_NAME_PATTERN.test(givenName)) {
      throw new RegistryRejection('PN03', 'Names may hold only letters, hyphens, apostrophes and spaces.');
    }
    const from: unknown = query.birthDateFrom ?? null;
    const to: unknown = query.birthDateTo ?? null;
    if ((from === null) !== (to === null)) {
      throw new RegistryRejection('PN05', 'A birth-date range needs both a start and an end date.');
    }
    if (from !== null && (!isIsoDate(from) || !isIsoDate(to))) {
      throw new RegistryRejection('PN05', 'Birth dates must be dates written YYYY-MM-DD.');
    }
    const range = from === null ? null : { from: from as IsoDate, to: to as IsoDate };
    if (range) {
      const today = this.now().toISOString().slice(0, 10);
      if (range.from > today) {
        throw new RegistryRejection('PN06', 'The birth-date range cannot start in the future.');
      }
      if (range.from > range.to) {
        throw new RegistryRejection('PN07', 'The birth-date range starts after it ends.');
      }
    }

    const family = normalizePersonName(familyName);
    const queryWords = nameWords(normalizePersonName(givenName));
    const named = (this.dataset.peopleByFamilyName.get(family) ?? []).filter((entry) =>
      givenNamesMatch(queryWords, entry.givenWords),
    );
    const found = named.length;
    const selected = range
      ? named.filter(({ record }) => {
          const born = record.match.birth?.date ?? null;
          return born !== null && born >= range.from && born <= range.to;
        })
      : named;
    if (selected.length === 0) {
      throw new RegistryRejection(
        'PN51',
        found === 0
          ? 'No person matches the names.'
          : `${found} ${found === 1 ? 'name matches' : 'names match'}, but none in the birth-date range.`,
        { counts: { returned: 0, found } },
      );
    }
    if (selected.length > MAX_SEARCH_MATCHES) {
      throw new RegistryRejection(
        'PN52',
        `${selected.length} people match the search; refine it to select at most ${MAX_SEARCH_MATCHES}.`,
        { counts: { returned: 0, found } },
      );
    }
    const matches = selected.map(({ record }) => record.match).sort(comparePersonMatches);
    return structuredClone({ found, matches });
  }

  /**
   * Billable purchase of a personal name extract. Rejects RS02 when an option is not a boolean,
   * PE03 for an unknown identifier and PE51 when the name holds more than 999 roles.
   */
  async purchasePersonExtract(
    registryIdentifier: string,
    options: PersonExtractOptions,
    _caller: RegistryCaller,
    // The sandbox bills nothing and loses no answer, so it has no use for our client key.
    _clientKey?: string,
  ): Promise<RegistryPersonExtract> {
    const history: unknown = options?.history;
    const includeShareholdings: unknown = options?.includeShareholdings;
    if (typeof history !== 'boolean' || typeof includeShareholdings !== 'boolean') {
      throw new RegistryRejection('RS02', 'history and includeShareholdings must be true or false.');
    }
    const record = isRegistryIdentifier(registryIdentifier)
      ? this.dataset.byRegistryIdentifier.get(registryIdentifier)
      : undefined;
    if (!record) {
      throw new RegistryRejection('PE03', `No name record has the identifier ${String(registryIdentifier)}.`);
    }
    if (record.match.roleCount > MAX_ROLES_PER_NAME) {
      throw new RegistryRejection(
        'PE51',
        `The name holds ${record.match.roleCount} roles; an extract is available up to ${MAX_ROLES_PER_NAME}.`,
      );
    }
    const keep = <T extends { status: string }>(list: readonly T[]): T[] =>
      history ? [...list] : list.filter((item) => isCurrentStatus(item.status));
    const roles = sortPersonRoles(
      keep(record.roles).filter((role) => includeShareholdings || role.role !== MEMBER_ROLE),
    );
    return structuredClone({
      type: history ? 'historical' : 'current',
      asOf: toTimestamp(this.now()),
      person: record.match,
      roles,
      licences: sortLicences(keep(record.licences)),
      shareholdings: includeShareholdings ? keep(record.shareholdings).sort(compareByStatus) : [],
      documents: sortDocuments(record.documents),
      notices: this.personNotices(record),
    });
  }

  /**
   * One acnc_charity notice per registered charity the person is a current director of (in role
   * order), then a same_name notice when another name record has the same normalised names.
   */
  private personNotices(record: PersonRecord): RegistryPersonNotice[] {
    const notices: RegistryPersonNotice[] = [];
    const charities = new Set<string>();
    for (const role of sortPersonRoles(record.roles)) {
      if (role.role !== 'DR' || !isCurrentStatus(role.status) || !role.company.registeredCharity) continue;
      if (charities.has(role.company.number)) continue;
      charities.add(role.company.number);
      notices.push({
        type: 'acnc_charity',
        acn: role.company.number,
        text: personNoticeText.acncCharity(role.company),
      });
    }
    const self: PersonEntry = personEntry(record);
    const namesakes = (this.dataset.peopleByFamilyName.get(self.familyName) ?? []).some(
      (other) => other.record !== record && sameWords(other.givenWords, self.givenWords),
    );
    if (namesakes) notices.push({ type: 'same_name', acn: null, text: personNoticeText.sameName });
    return notices;
  }

  /**
   * The documents of every charge of the company, charge by charge in the registry's order, each
   * charge's notification first and discharge last. CC01, CE03, CC51, CC52.
   */
  async planChargesExtract(number: string, _caller: RegistryCaller): Promise<RegistryChargesExtractPlan> {
    const record = this.record(number, 'CC01', 'CE03');
    const { company } = record;
    if (!productAvailableFor('charges', company.type)) {
      throw new RegistryRejection('CC51', `Organisation type ${company.type} has no charges extract.`);
    }
    if (record.charges.length === 0) {
      throw new RegistryRejection('CC52', `No charges are recorded for organisation ${company.number}.`);
    }
    const charges = sortCharges(record.charges);
    const documents = charges.flatMap((charge) =>
      charge.documents.map((document) =>
        imageable({
          document,
          subject: { type: 'organisation', record },
          imageAvailable: imageAvailableIn(record, document),
        }),
      ),
    );
    return structuredClone({
      company,
      scope: charges.every(isPrePpsrCurrentCharge) ? 'current' : 'satisfied',
      documents,
    });
  }

  /** DD01 for a malformed number (every number is checked first), then DD51 for an unknown one. */
  async getDocuments(
    numbers: readonly string[],
    _caller: RegistryCaller,
  ): Promise<RegistryImageableDocument[]> {
    if (!Array.isArray(numbers) || numbers.length > MAX_DOCUMENT_LOOKUP) {
      throw new Error(`getDocuments: at most ${MAX_DOCUMENT_LOOKUP} document numbers in a list`);
    }
    const invalid = numbers.find((number) => !isDocumentNumber(number));
    if (invalid !== undefined) {
      throw new RegistryRejection(
        'DD01',
        `Document number ${String(invalid)} is not nine characters starting with a digit.`,
        { documentNumber: invalid },
      );
    }
    return structuredClone(numbers.map((number) => imageable(this.document(number, 'DD51'))));
  }

  /**
   * A repeat of an account's client key returns the first request's id and changes nothing, even
   * when the documents differ. Otherwise DI01 (malformed number), DI07 (a document twice), DI51
   * (unknown), DI52 (not imaged), DI08 (a page range without two whole numbers), DI02 (a range
   * that starts below 1 or ends before it starts), DI53 (pages beyond the document).
   */
  async requestImages(
    request: { clientKey: string; documents: readonly RegistryImageRequestItem[] },
    caller: RegistryCaller,
  ): Promise<{ registryRequestId: string }> {
    const clientKey: unknown = request?.clientKey;
    const items: unknown = request?.documents;
    if (typeof clientKey !== 'string' || clientKey === '') {
      throw new Error('requestImages: clientKey must be a non-empty string');
    }
    if (!Array.isArray(items) || items.length === 0 || items.length > MAX_IMAGE_REQUEST_DOCUMENTS) {
      throw new Error(`requestImages: one to ${MAX_IMAGE_REQUEST_DOCUMENTS} documents per request`);
    }
    const key = keyOf(caller.accountId, clientKey);
    const held = this.imageRequestKeys.get(key);
    if (held !== undefined) return { registryRequestId: held };

    const seen = new Set<string>();
    const documents = (items as RegistryImageRequestItem[]).map((item): RequestedImage => {
      const number: unknown = item?.documentNumber;
      if (!isDocumentNumber(number)) {
        throw new RegistryRejection(
          'DI01',
          `Document number ${String(number)} is not nine characters starting with a digit.`,
          { documentNumber: number },
        );
      }
      if (seen.has(number)) {
        throw new RegistryRejection('DI07', `Document ${number} is asked for twice.`, {
          documentNumber: number,
        });
      }
      seen.add(number);
      const entry = this.document(number, 'DI51');
      const { pageCount } = entry.document;
      if (!entry.document.imaged) {
        throw new RegistryRejection('DI52', `Document ${number} is not in the imaging system.`, {
          documentNumber: number,
        });
      }
      const pages = item.pages ?? null;
      if (pages === null) return { entry, from: 1, to: pageCount };
      const { from, to } = pages as { from: unknown; to: unknown };
      if (!Number.isInteger(from) || !Number.isInteger(to)) {
        throw new RegistryRejection('DI08', 'A page range needs a first and a last page, as whole numbers.', {
          documentNumber: number,
        });
      }
      const [first, last] = [from as number, to as number];
      if (first < 1 || last < first) {
        throw new RegistryRejection('DI02', `Pages ${first} to ${last} are not a page range.`, {
          documentNumber: number,
        });
      }
      if (last > pageCount) {
        throw new RegistryRejection(
          'DI53',
          `Document ${number} has ${pageCount} ${pageCount === 1 ? 'page' : 'pages'}; pages ${first} to ${last} were asked for.`,
          { documentNumber: number },
        );
      }
      return { entry, from: first, to: last };
    });
    const registryRequestId = this.newId('IR', caller.accountId, clientKey, this.imageRequests.size + 1);
    this.imageRequests.set(registryRequestId, { registryRequestId, accountId: caller.accountId, documents });
    this.imageRequestKeys.set(key, registryRequestId);
    return { registryRequestId };
  }

  /** Complete at once: unavailable images are listed with `available` false. RO51 for an unknown id. */
  async getImageRequest(
    registryRequestId: string,
    caller: RegistryCaller,
  ): Promise<RegistryImageRequestStatus> {
    if (this.isForeignRequest(registryRequestId)) {
      return { registryRequestId, status: 'complete', failure: null, documents: [] };
    }
    const request = this.imageRequest(registryRequestId, caller);
    return {
      registryRequestId,
      status: 'complete',
      failure: null,
      documents: request.documents.map(({ entry, from, to }) => ({
        documentNumber: entry.document.documentNumber,
        available: entry.imageAvailable,
        pageCount: to - from + 1,
      })),
    };
  }

  /**
   * The requested pages of one document of the request. RO51 (unknown request), DI51 (the
   * document is not part of it), DI58 (its image is unavailable).
   */
  async getImages(
    registryRequestId: string,
    documentNumber: string,
    caller: RegistryCaller,
    pages?: RegistryImageRequestItem['pages'],
  ): Promise<Uint8Array> {
    const requested = this.isForeignRequest(registryRequestId)
      ? this.foreignImage(documentNumber, pages ?? null)
      : this.imageRequest(registryRequestId, caller).documents.find(
          ({ entry }) => entry.document.documentNumber === documentNumber,
        );
    if (!requested) {
      throw new RegistryRejection(
        'DI51',
        `Document ${String(documentNumber)} is not part of image request ${registryRequestId}.`,
        { documentNumber },
      );
    }
    if (!requested.entry.imageAvailable) {
      const message = `The registry could not retrieve the images of document ${documentNumber}.`;
      throw new RegistryRejection('DI58', message, { documentNumber });
    }
    const { document } = requested.entry;
    const render = this.options.pageImages;
    if (!render) throw new Error('DatasetRegistry: getImages needs the pageImages option');
    return render({
      documentNumber: document.documentNumber,
      formCode: document.formCode,
      from: requested.from,
      to: requested.to,
      totalPages: document.pageCount,
    });
  }

  /**
   * A repeat of an account's client key returns the first dispatch id. RO51 when one of the
   * image requests is not the account's.
   */
  async requestPostalDelivery(
    delivery: RegistryPostalDelivery,
    caller: RegistryCaller,
  ): Promise<{ dispatchId: string }> {
    const clientKey: unknown = delivery?.clientKey;
    const ids: unknown = delivery?.registryRequestIds;
    if (typeof clientKey !== 'string' || clientKey === '') {
      throw new Error('requestPostalDelivery: clientKey must be a non-empty string');
    }
    if (!Array.isArray(ids) || ids.length === 0) {
      throw new Error('requestPostalDelivery: registryRequestIds must list at least one image request');
    }
    for (const field of ['recipient', 'address', 'postcode', 'contactName', 'contactPhone'] as const) {
      const value: unknown = delivery[field];
      if (typeof value !== 'string' || value.trim() === '') {
        throw new Error(`requestPostalDelivery: ${field} must be a non-empty string`);
      }
    }
    const key = keyOf(caller.accountId, clientKey);
    const held = this.dispatches.get(key);
    if (held !== undefined) return { dispatchId: held };
    for (const id of ids as unknown[])
      if (!this.isForeignRequest(id)) this.imageRequest(id as string, caller);
    const dispatchId = this.newId('PD', caller.accountId, clientKey, this.dispatches.size + 1);
    this.dispatches.set(key, dispatchId);
    return { dispatchId };
  }

  private foreignImage(documentNumber: string, pages: RegistryImageRequestItem['pages']): RequestedImage {
    const entry = this.document(documentNumber, 'DI51');
    return { entry, from: pages?.from ?? 1, to: pages?.to ?? entry.document.pageCount };
  }

  private document(number: string, unknownCode: string): DocumentEntry {
    const entry = this.dataset.documents.get(number);
    if (!entry) {
      throw new RegistryRejection(unknownCode, `No document has the number ${number}.`, {
        documentNumber: number,
      });
    }
    return entry;
  }

  /** Another account's request is as unknown as one never made. */
  private imageRequest(registryRequestId: string, caller: RegistryCaller): ImageRequest {
    const request =
      typeof registryRequestId === 'string' ? this.imageRequests.get(registryRequestId) : undefined;
    if (!request || request.accountId !== caller.accountId) {
      throw new RegistryRejection('RO51', `No image request has the id ${String(registryRequestId)}.`, {
        registryRequestId,
      });
    }
    return request;
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
