/** The form schedule `GET /v1/reference/forms` serves: the stored copy, else the bundled one (current.ts). */
import type { Clock } from '../domain/clock.ts';
import { type CurrentReference, currentCopy } from './current.ts';
import { type FormCategory, type FormDefinition, formCategories, forms } from './forms.ts';
import type { ReferenceStore } from './store-port.ts';

export interface FormSchedule {
  inCategory(category: FormCategory): readonly FormDefinition[];
}

const scheduleOf = (all: readonly FormDefinition[]): FormSchedule => {
  const byCategory = new Map<FormCategory, readonly FormDefinition[]>(
    formCategories.map((category) => [
      category,
      category === 'all' ? all : all.filter((form) => form.categories.includes(category)),
    ]),
  );
  return { inCategory: (category) => byCategory.get(category) ?? [] };
};

export type CurrentFormSchedule = () => Promise<CurrentReference<FormSchedule>>;

export const currentFormSchedule = (store: ReferenceStore, clock: Clock): CurrentFormSchedule =>
  currentCopy('forms', store, clock, forms, scheduleOf);
