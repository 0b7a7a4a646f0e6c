/**
 * The registry simulator's form schedule and code tables: the bundled copy with the kind of
 * changes the registry makes without notice (documented in docs/sandbox.md, "Reference data"), so
 * the daily refresh has something to bring in locally:
 * - a form the bundled schedule does not list (`newForm`);
 * - a form whose description the registry has reworded (`rewordedForm`);
 * - a code added at the end of a code table (`newCode`).
 */
import { bundledReference, type ReferenceSource } from '../shared/reference/adapters/sandbox.ts';

export const SIMULATOR_REFERENCE_CHANGES = {
  newForm: {
    formCode: '4300',
    description: 'Notification of change to company contact details',
    categories: ['internal-administration'],
  },
  rewordedForm: {
    formCode: '370',
    description: 'Notification of resignation or retirement of an officeholder',
  },
  newCode: {
    table: 'organisation-statuses',
    entry: { code: 'SUSP', label: 'Registration suspended pending review', registryCode: null },
  },
} as const;

const { newForm, rewordedForm, newCode } = SIMULATOR_REFERENCE_CHANGES;

export const simulatorReference: ReferenceSource = {
  forms: () => {
    const forms = bundledReference
      .forms()
      .map((form) =>
        form.formCode === rewordedForm.formCode ? { ...form, description: rewordedForm.description } : form,
      );
    forms.push({ ...newForm, categories: [...newForm.categories] });
    return forms.sort((a, b) => (a.formCode < b.formCode ? -1 : a.formCode > b.formCode ? 1 : 0));
  },
  codeTables: () =>
    bundledReference
      .codeTables()
      .map((table) =>
        table.table === newCode.table
          ? { ...table, entries: [...table.entries, { ...newCode.entry }] }
          : table,
      ),
};
