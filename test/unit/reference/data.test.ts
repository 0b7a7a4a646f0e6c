import { describe, expect, it } from 'vitest';
import { codeTablesFile } from '../../../shared/reference/code-tables.ts';
import { formCategories, formsFile } from '../../../shared/reference/forms.ts';
import { codeTablesProvenance, formsProvenance, sourcesFile } from '../../../shared/reference/provenance.ts';
import {
  checkCodeTables,
  checkForms,
  checkSources,
  REGISTRY_CODED_TABLES,
  sourceIdsOf,
} from '../../../shared/reference/validate.ts';
import { specCodeTables } from '../../support/spec.ts';

const memberCategories = formCategories.filter((category) => category !== 'all');
const sources = sourceIdsOf(sourcesFile);

type Mutable<T> = T extends readonly (infer U)[]
  ? Mutable<U>[]
  : T extends object
    ? { -readonly [K in keyof T]: Mutable<T[K]> }
    : T;

/** A deep, writable copy of a data file to break on purpose. */
const copy = <T>(value: T) => structuredClone(value) as Mutable<T>;

/** A value the types forbid, as a hand edit could write it. */
const bad = (value: unknown) => value as never;

describe('the reference data files', () => {
  it('pass their checks', () => {
    expect(checkSources(sourcesFile)).toEqual([]);
    expect(checkCodeTables(codeTablesFile, codeTablesProvenance, sources)).toEqual([]);
    expect(checkForms(formsFile, formsProvenance, memberCategories, sources)).toEqual([]);
  });

  it('hold the 36 tables of the spec, in its order, with its entry counts', () => {
    expect(codeTablesFile.tables.map(({ table, entries }) => [table, entries.length])).toEqual(
      specCodeTables.map(([slug, count]) => [slug, count]),
    );
  });

  it('give registry codes exactly in jurisdictions, controlling-jurisdictions and number-types', () => {
    expect(REGISTRY_CODED_TABLES).toEqual(['jurisdictions', 'controlling-jurisdictions', 'number-types']);
    const withRegistryCodes = codeTablesFile.tables
      .filter((table) => table.entries.some((entry) => entry.length === 3))
      .map((table) => table.table);
    expect(withRegistryCodes.sort()).toEqual([...REGISTRY_CODED_TABLES].sort());
  });

  it('keep the labels the provenance says are reused from another table', () => {
    const labels = (slug: string) =>
      new Map(codeTablesFile.tables.find((table) => table.table === slug)?.entries.map(([c, l]) => [c, l]));
    const organisationTypes = labels('organisation-types');
    for (const [code, label] of labels('document-list-organisation-types')) {
      expect(label, code).toBe(organisationTypes.get(code));
    }
    const officeHolderRoles = labels('office-holder-roles');
    for (const slug of ['company-roles', 'register-officer-roles']) {
      for (const [code, label] of labels(slug)) {
        // EO keeps the spec's "Previous PEO"; FE and TM are not office holder roles.
        if (code !== 'EO' && officeHolderRoles.has(code)) {
          expect(label, `${slug}/${code}`).toBe(officeHolderRoles.get(code));
        }
      }
    }
  });
});

describe('checkCodeTables', () => {
  type Tables = Mutable<typeof codeTablesFile>;
  type Provenance = Mutable<typeof codeTablesProvenance>;
  const problemsAfter = (edit: (file: Tables, provenance: Provenance) => void) => {
    const file = copy(codeTablesFile);
    const provenance = copy(codeTablesProvenance);
    edit(file, provenance);
    return checkCodeTables(file, provenance, sources);
  };
  const table = (file: Tables, slug: string) => {
    const found = file.tables.find((candidate) => candidate.table === slug);
    if (!found) throw new Error(`no table ${slug}`);
    return found;
  };
  const provenanceOf = (provenance: Provenance, slug: string) => {
    const found = provenance.tables[slug];
    if (!found) throw new Error(`no provenance for ${slug}`);
    return found;
  };

  it('reports a duplicate code', () => {
    expect(problemsAfter((file) => table(file, 'charge-types').entries.push(['B', 'Both']))).toEqual([
      'code-tables.json charge-types: duplicate code "B"',
    ]);
  });

  it('reports a registry code outside the three tables, and a missing one inside them', () => {
    expect(
      problemsAfter((file) => {
        table(file, 'charge-types').entries[0]?.push('9');
        table(file, 'number-types').entries[0]?.pop();
      }),
    ).toEqual([
      'code-tables.json charge-types: entry ["B","Both Fixed & Floating","9"] is not [code, label] of non-empty strings',
      'code-tables.json number-types: entry ["ACN","Australian Company Number"] is not [code, label, registryCode] of non-empty strings',
    ]);
  });

  it('reports a bad slug, an empty title or label, and a duplicate table', () => {
    expect(
      problemsAfter((file) => {
        table(file, 'charge-types').table = 'Charge_Types';
        table(file, 'charge-statuses').title = ' ';
        const recordStatus = table(file, 'record-status').entries[0];
        if (recordStatus) recordStatus[1] = '';
        file.tables.push(structuredClone(table(file, 'governance-types')));
      }),
    ).toEqual([
      'code-tables.json record-status: entry ["C",""] is not [code, label] of non-empty strings',
      'code-tables.json tables[6]: table must be a kebab-case slug',
      'code-tables.provenance.json Charge_Types: missing',
      'code-tables.json charge-statuses: empty title',
      'code-tables.json governance-types: duplicate table',
      'code-tables.provenance.json charge-types: no such table in code-tables.json',
    ]);
  });

  it('reports provenance with an unknown basis, source, key or code', () => {
    expect(
      problemsAfter((_, provenance) => {
        const states = provenanceOf(provenance, 'states');
        states.labels = bad('registry');
        states.from = ['nowhere'];
        states.entries = { ...states.entries, XYZ: { codes: 'spec' }, AAT: bad({ lables: 'spec' }) };
        delete provenanceOf(provenance, 'number-types').registryCodes;
      }),
    ).toEqual([
      'code-tables.provenance.json states.labels: "registry" is not one of spec, published, best-knowledge, placeholder',
      'code-tables.provenance.json states.from: unknown source "nowhere"',
      'code-tables.provenance.json states.entries["AAT"]: unknown key lables',
      'code-tables.provenance.json states.entries["XYZ"]: no entry has this code',
      'code-tables.provenance.json number-types: missing registryCodes',
    ]);
  });

  it('reports a table without provenance, provenance without a table, and provenance out of order', () => {
    expect(
      problemsAfter((_, provenance) => {
        const { 'court-types': courtTypes, ...rest } = provenance.tables;
        provenance.tables = { 'court-types': courtTypes as never, ...rest };
        delete provenance.tables['charge-types'];
        provenance.tables['no-such-table'] = { codes: 'spec', labels: 'spec' };
      }),
    ).toEqual([
      'code-tables.provenance.json charge-types: missing',
      'code-tables.provenance.json no-such-table: no such table in code-tables.json',
      'code-tables.provenance.json: tables are not in the order of code-tables.json',
    ]);
  });
});

describe('checkForms', () => {
  type Forms = Mutable<typeof formsFile>;
  type Provenance = Mutable<typeof formsProvenance>;
  const problemsAfter = (edit: (file: Forms, provenance: Provenance) => void) => {
    const file = copy(formsFile);
    const provenance = copy(formsProvenance);
    edit(file, provenance);
    return checkForms(file, provenance, memberCategories, sources);
  };
  const form = (file: Forms, code: string) => {
    const found = file.forms.find((candidate) => candidate.formCode === code);
    if (!found) throw new Error(`no form ${code}`);
    return found;
  };
  const provenanceOf = (provenance: Provenance, code: string) => {
    const found = provenance.forms.find((candidate) => candidate.formCode === code);
    if (!found) throw new Error(`no provenance for ${code}`);
    return found;
  };

  it('reports duplicate and out-of-order codes, unknown or missing categories', () => {
    expect(
      problemsAfter((file, provenance) => {
        file.forms.push(structuredClone(form(file, '902')));
        provenance.forms.push(structuredClone(provenanceOf(provenance, '902')));
        form(file, '106').categories = ['all'];
        form(file, '201').categories = [];
      }),
    ).toEqual([
      'forms.json form 106: unknown category "all"',
      'forms.json form 201: needs at least one category',
      'forms.json form 902: duplicate form code',
      'forms.json form 902: not in ascending text order (after 902)',
    ]);
  });

  it('reports categories that differ from the spec and provenance a form cannot have', () => {
    expect(
      problemsAfter((_, provenance) => {
        provenance.categories.reverse();
        provenanceOf(provenance, '207Z').title = bad('placeholder');
        provenanceOf(provenance, '106').from = ['asic', 'asic'];
      }),
    ).toEqual([
      `forms.provenance.json: categories must be ${memberCategories.join(', ')} in that order`,
      'forms.provenance.json 106.from: repeats a source',
      'forms.provenance.json 207Z.title: "placeholder" is not one of spec, published, best-knowledge',
    ]);
  });

  it('reports a form without provenance and provenance out of order', () => {
    expect(
      problemsAfter((file, provenance) => {
        file.forms.push({ formCode: '9999', description: 'New form', categories: ['debt'] });
        provenance.forms.reverse();
      }),
    ).toEqual(['forms.provenance.json: forms must list the codes of forms.json, in the same order']);
  });
});

describe('checkSources', () => {
  it('reports duplicate ids and empty texts', () => {
    const file = copy(sourcesFile);
    file.sources.push({ id: 'spec', name: 'Spec', text: '' });
    expect(checkSources(file)).toEqual([
      'sources.json sources[6]: duplicate id spec',
      'sources.json sources[6]: empty text',
    ]);
  });
});
