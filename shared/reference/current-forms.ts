/** The form schedule `GET /v1/reference/forms` serves: the stored copy, else the bundled one (current.ts). */
import type { Clock } from '../kernel/clock.ts';
import { currentCopy } from './current.ts';
import type { CurrentFormSchedule, FormSchedule } from './current-port.ts';
import { type FormCategory, type FormDefinition, formCategories, forms } from './forms.ts';
import type { ReferenceStore } from './store-port.ts';

const scheduleOf = (all: readonly FormDefinition[]): FormSchedule => {
  const byCategory = new Map<FormCategory, readonly FormDefinition[]>(
    formCategories.map((category) => [
      category,
      category === 'all' ? all : all.filter((form) => form.categories.includes(category)),
    ]),
  );
  return { inCategory: (category) => byCategory.get(category) ?? [] };
};

export const currentFormSchedule = (store: ReferenceStore, clock: Clock): CurrentFormSchedule =>
  currentCopy('forms', store, clock, forms, scheduleOf);
