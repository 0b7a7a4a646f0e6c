/**
 * The people capability over the dataset: the people search (spec document 3, sections 7.5 and
 * 7.7) and personal name extracts, with their notices.
 */

import {
  isRegistryIdentifier,
  nameWords,
  normalizePersonName,
  type PersonEntry,
  type PersonRecord,
  personEntry,
} from '../../adapters/sandbox/dataset.ts';
import { DatasetPart, MAX_SEARCH_MATCHES } from '../../adapters/sandbox/lookups.ts';
import { isCalendarDate, toTimestamp } from '../../kernel/clock.ts';
import {
  compareByStatus,
  compareText,
  isCurrentStatus,
  MEMBER_ROLE,
  sortDocuments,
  sortLicences,
  sortPersonRoles,
} from '../../kernel/registry-ordering.ts';
import {
  type IsoDate,
  type RegistryCaller,
  type RegistryCompany,
  RegistryRejection,
} from '../../kernel/registry-port.ts';
import { PERSON_NAME_PATTERN } from '../person-names.ts';
import {
  MAX_ROLES_PER_NAME,
  type PeopleRegistry,
  type PeopleSearchQuery,
  type PersonExtractOptions,
  type RegistryPersonExtract,
  type RegistryPersonMatch,
  type RegistryPersonNotice,
} from '../registry-port.ts';

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

export class DatasetPeople extends DatasetPart implements PeopleRegistry {
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
}
