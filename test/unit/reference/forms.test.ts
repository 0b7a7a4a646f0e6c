import { describe, expect, it } from 'vitest';
import {
  type FormCategory,
  formCategories,
  forms,
  formsInCategory,
} from '../../../shared/reference/forms.ts';
import { specCommonForms as specNamedForms } from '../../support/spec.ts';

const memberCategories = formCategories.filter(
  (category): category is Exclude<FormCategory, 'all'> => category !== 'all',
);

describe('formCategories', () => {
  it('lists the spec categories in order', () => {
    expect(formCategories).toEqual([
      'all',
      'internal-administration',
      'buy-backs',
      'debt',
      'deregistration',
      'disclosure-notices',
      'financial',
      'fundraising',
      'takeovers-short',
      'takeovers-all',
    ]);
  });
});

describe('forms', () => {
  it('includes every form the spec names', () => {
    const codes = forms.map((definition) => definition.formCode);
    for (const code of specNamedForms) {
      expect(codes).toContain(code);
    }
  });

  it('has unique form codes', () => {
    const codes = forms.map((definition) => definition.formCode);
    expect(new Set(codes).size).toBe(codes.length);
  });

  it('gives every form a description and at least one known category, without duplicates or all', () => {
    for (const definition of forms) {
      expect(definition.description.trim(), definition.formCode).not.toBe('');
      expect(definition.categories.length, definition.formCode).toBeGreaterThanOrEqual(1);
      expect(new Set(definition.categories).size, definition.formCode).toBe(definition.categories.length);
      for (const category of definition.categories) {
        expect(memberCategories, definition.formCode).toContain(category);
      }
    }
  });

  it('keeps the schedule in ascending form code order', () => {
    const codes = forms.map((definition) => definition.formCode);
    expect(codes).toEqual([...codes].sort());
  });

  it('puts the spot-checked forms in the expected categories', () => {
    const categoriesOf = (code: string) =>
      forms.find((definition) => definition.formCode === code)?.categories;
    expect(categoriesOf('309')).toContain('debt');
    expect(categoriesOf('312')).toContain('debt');
    expect(categoriesOf('350')).toContain('debt');
    expect(categoriesOf('6010')).toContain('deregistration');
    expect(categoriesOf('505')).toContain('deregistration');
    expect(categoriesOf('388')).toContain('financial');
    expect(categoriesOf('280')).toContain('buy-backs');
    expect(categoriesOf('603')).toEqual(['disclosure-notices', 'takeovers-short', 'takeovers-all']);
    expect(categoriesOf('484')).toEqual(['internal-administration']);
  });
});

describe('formsInCategory', () => {
  it("returns every form for 'all'", () => {
    expect(formsInCategory('all')).toEqual(forms);
    expect(formsInCategory('all')).toHaveLength(forms.length);
  });

  it.each(memberCategories)('%s keeps schedule order and holds only member forms', (category) => {
    const selected = formsInCategory(category);
    expect(selected).toEqual(forms.filter((definition) => definition.categories.includes(category)));
    const positions = selected.map((definition) => forms.indexOf(definition));
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
  });

  it('returns the exact debt and buy-back schedules', () => {
    expect(formsInCategory('debt').map((definition) => definition.formCode)).toEqual([
      '309',
      '312',
      '350',
      '505',
    ]);
    expect(formsInCategory('buy-backs').map((definition) => definition.formCode)).toEqual([
      '2205',
      '2560',
      '280',
      '281',
    ]);
  });

  it('covers every form through some category', () => {
    const covered = new Set(memberCategories.flatMap((category) => formsInCategory(category)));
    expect(covered.size).toBe(forms.length);
  });
});
