import { describe, expect, it } from 'vitest';
import {
  matchesPerson,
  normalisePersonName,
  personNamesSubjectKey,
  personSubjectKey,
} from '../../../shared/monitoring/person-match.ts';

const watched = { familyName: "O'Brien-Smith", givenNames: ['Zoë', 'Ann'], birthDate: '1971-03-04' };
const item = (changes: Partial<{ familyName: string; givenNames: string[]; birthDate: string | null }>) => ({
  familyName: "O'BRIEN-SMITH",
  givenNames: ['ZOE', 'ANN'],
  birthDate: '1971-03-04' as string | null,
  ...changes,
});

describe('person watching: the match rule', () => {
  it('normalises case, accents, curly apostrophes and runs of spaces, and nothing else', () => {
    expect(normalisePersonName('  o’brien   smith ')).toBe("O'BRIEN SMITH");
    expect(normalisePersonName('Zoë')).toBe('ZOE');
    expect(normalisePersonName('SMITH-JONES')).toBe('SMITH-JONES');
  });

  it('matches the same names in any case and accents with the exact birth date', () => {
    expect(matchesPerson(watched, item({}))).toBe('names_and_birth_date');
    expect(matchesPerson(watched, item({ familyName: 'o’brien-smith', givenNames: ['zoe', 'ann'] }))).toBe(
      'names_and_birth_date',
    );
    expect(personSubjectKey(watched)).toBe(
      personSubjectKey({ familyName: "O'BRIEN-SMITH", givenNames: ['ZOE', 'ANN'], birthDate: '1971-03-04' }),
    );
  });

  it('matches on the names alone only where the item carries no birth date (licences), and says so', () => {
    expect(matchesPerson(watched, item({ birthDate: null }))).toBe('names');
    expect(personNamesSubjectKey(watched.familyName, watched.givenNames)).toBe("PN#O'BRIEN-SMITH|ZOE ANN");
  });

  it.each([
    ['a birth date a day apart', { birthDate: '1971-03-05' }],
    ['day and month swapped', { birthDate: '1971-04-03' }],
    ['a missing middle name', { givenNames: ['ZOE'] }],
    ['an extra given name', { givenNames: ['ZOE', 'ANN', 'MARIE'] }],
    ['given names in another order', { givenNames: ['ANN', 'ZOE'] }],
    ['the hyphen as a space', { familyName: "O'BRIEN SMITH" }],
    ['the apostrophe dropped', { familyName: 'OBRIEN-SMITH' }],
    ['a different family name', { familyName: 'SMITH' }],
  ])('does not match a near miss: %s', (_, changes) => {
    expect(matchesPerson(watched, item(changes))).toBeNull();
    const near = item(changes);
    if (near.birthDate) {
      expect(
        personSubjectKey({
          familyName: near.familyName,
          givenNames: near.givenNames,
          birthDate: near.birthDate,
        }),
      ).not.toBe(personSubjectKey(watched));
    }
  });
});
