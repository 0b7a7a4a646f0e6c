/**
 * How a watched person is matched against weekly summary items (docs/monitoring.md, "Person
 * watching"): the family name and every given name, normalised, in order, and the exact birth
 * date. Normalising folds case and accents (É = E), reads ’ as ', and squeezes runs of spaces; it
 * keeps hyphens and apostrophes, so SMITH-JONES is not SMITH JONES and O'BRIEN is not OBRIEN. A
 * missing or extra middle name, a different order of given names or a birth date a day apart is
 * no match. Licences-granted items carry no birth date: there the names alone match, and the
 * event says so (`match: "names"`).
 */
import type { MonitoredPerson } from './store-port.ts';

export const normalisePersonName = (name: string): string =>
  name.normalize('NFKD').replace(/\p{M}/gu, '').replace(/’/g, "'").toUpperCase().replace(/\s+/g, ' ').trim();

/** The names part of the key: FAMILY|GIVEN ONE GIVEN TWO. */
export const personNamesKey = (familyName: string, givenNames: readonly string[]): string =>
  `${normalisePersonName(familyName)}|${givenNames.map(normalisePersonName).join(' ')}`;

/** What person monitors are found by: the names and the birth date. */
export const personSubjectKey = (person: MonitoredPerson): string =>
  `P#${personNamesKey(person.familyName, person.givenNames)}#${person.birthDate}`;

/** The names-only key (items without a birth date are matched on it). */
export const personNamesSubjectKey = (familyName: string, givenNames: readonly string[]): string =>
  `PN#${personNamesKey(familyName, givenNames)}`;

/** Whether an item's person (with its birth date, or null) is this watched person. */
export function matchesPerson(
  person: MonitoredPerson,
  item: { familyName: string; givenNames: readonly string[]; birthDate: string | null },
): 'names_and_birth_date' | 'names' | null {
  if (
    personNamesKey(person.familyName, person.givenNames) !== personNamesKey(item.familyName, item.givenNames)
  ) {
    return null;
  }
  if (item.birthDate === null) return 'names';
  return item.birthDate === person.birthDate ? 'names_and_birth_date' : null;
}
