import { describe, expect, it } from 'vitest';
import { codeTables, findCodeTable, labelFor } from '../../../shared/reference/code-tables.ts';
import { specCodeTables as expectedTables } from '../../support/spec.ts';

const tablesWithRegistryCodes = ['jurisdictions', 'controlling-jurisdictions', 'number-types'];

function codesOf(slug: string): string[] {
  const definition = findCodeTable(slug);
  if (!definition) throw new Error(`missing table ${slug}`);
  return definition.entries.map((entry) => entry.code);
}

describe('codeTables', () => {
  it('has exactly the 36 slugs of the spec, in the spec order', () => {
    expect(codeTables).toHaveLength(36);
    expect(codeTables.map((definition) => definition.table)).toEqual(expectedTables.map(([slug]) => slug));
  });

  it.each(expectedTables)('%s has %i entries', (slug, count) => {
    expect(findCodeTable(slug)?.entries).toHaveLength(count);
  });

  it('has no duplicate codes within a table', () => {
    for (const definition of codeTables) {
      const codes = definition.entries.map((entry) => entry.code);
      expect(new Set(codes).size, definition.table).toBe(codes.length);
    }
  });

  it('gives every table a title and every entry a non-empty code and label', () => {
    for (const definition of codeTables) {
      expect(definition.title.trim(), definition.table).not.toBe('');
      for (const entry of definition.entries) {
        expect(entry.code, definition.table).not.toBe('');
        expect(entry.label.trim(), `${definition.table}/${entry.code}`).not.toBe('');
      }
    }
  });

  it('sets registryCode exactly in jurisdictions, controlling-jurisdictions and number-types', () => {
    for (const definition of codeTables) {
      const expectsRegistryCode = tablesWithRegistryCodes.includes(definition.table);
      for (const entry of definition.entries) {
        if (expectsRegistryCode) {
          expect(entry.registryCode, `${definition.table}/${entry.code}`).toEqual(expect.any(String));
          expect(entry.registryCode, `${definition.table}/${entry.code}`).not.toBe('');
        } else {
          expect(entry.registryCode, `${definition.table}/${entry.code}`).toBeNull();
        }
      }
    }
  });

  it('maps number types to the registry digits 1 to 4', () => {
    expect(findCodeTable('number-types')?.entries).toEqual([
      { code: 'ACN', label: 'Australian Company Number', registryCode: '1' },
      { code: 'ARBN', label: 'Australian Registered Body Number', registryCode: '2' },
      { code: 'NUMBER', label: 'Registration Number', registryCode: '3' },
      { code: 'ARSN', label: 'Australian Registered Scheme Number', registryCode: '4' },
    ]);
  });

  it('keeps deregistration reason codes verbatim, including embedded spaces', () => {
    const codes = codesOf('deregistration-reasons');
    expect(codes).toContain('ALT REGN');
    expect(codes).toContain('SA ACT');
    expect(codes).not.toContain('ALTREGN');
    expect(codes).toContain('S601AA');
    expect(codes).toContain('S601PB');
  });

  it('lists office holder roles alphabetically as the spec table does, including BP', () => {
    const codes = codesOf('office-holder-roles');
    expect(codes).toContain('BP');
    expect(codes[0]).toBe('AA');
    expect(codes.at(-1)).toBe('VQ');
    expect(codes).toEqual([...codes].sort());
    expect(labelFor('office-holder-roles', 'BP')).toBe('Restructuring Plan Practitioner');
  });

  it('has the 33 fee codes including 955E and 930G', () => {
    const codes = codesOf('asic-fee-codes');
    expect(codes).toHaveLength(33);
    for (const code of ['930A', '930G', '934', '949', '951', '954', '955A', '955B', '955C', '955E', '958']) {
      expect(codes).toContain(code);
    }
    expect(codes).not.toContain('955D');
    expect(codes.filter((code) => code.startsWith('959'))).toHaveLength(11);
    expect(codes.filter((code) => code.startsWith('930'))).toHaveLength(7);
  });

  it('keeps the registry order of tables with a stated record order', () => {
    expect(codesOf('address-types')).toEqual(['RG', 'RP', 'PA', 'RO', 'CC']);
    expect(codesOf('company-roles')).toEqual(['AG', 'DR', 'UH', 'TM', 'TR', 'RN']);
    expect(codesOf('record-status')).toEqual(['C', 'E', 'F']);
  });

  it('holds the spot-checked spec values', () => {
    expect(codesOf('document-list-organisation-types')).toEqual([
      'APTY',
      'APUB',
      'FNOS',
      'MISM',
      'NRET',
      'RACN',
      'TRST',
    ]);
    expect(labelFor('organisation-types', 'APTY')).toBe('Australian Proprietary Company');
    expect(labelFor('organisation-statuses', 'EXAD')).toBe(
      '*Under External Administration And/Or Controller Appointed*',
    );
    expect(labelFor('charge-types', 'X')).toBe('Fixed');
    expect(labelFor('pre-asic-legislation', '0004')).toBe('Companies Code');
    expect(labelFor('person-additional-roles', 'SH')).toBe('Member');
    expect(codesOf('court-types')).toEqual(['F', 'M', 'S']);
    expect(codesOf('states')).toEqual(
      expect.arrayContaining(['ACT', 'NSW', 'NT', 'QLD', 'SA', 'TAS', 'VIC', 'WA']),
    );
  });
});

describe('findCodeTable', () => {
  it('finds a table by slug', () => {
    expect(findCodeTable('charge-statuses')?.title).toBe('Charge statuses');
  });

  it('returns undefined for an unknown or differently cased slug', () => {
    expect(findCodeTable('no-such-table')).toBeUndefined();
    expect(findCodeTable('Charge-Statuses')).toBeUndefined();
  });
});

describe('labelFor', () => {
  it('returns the label of a known code', () => {
    expect(labelFor('deregistration-reasons', 'ALT REGN')).toBe('Altered Registration');
    expect(labelFor('governance-types', 'R')).toBe('Replaceable Rules');
  });

  it('returns the code itself for an unknown code or table', () => {
    expect(labelFor('deregistration-reasons', 'S999')).toBe('S999');
    expect(labelFor('no-such-table', 'APTY')).toBe('APTY');
  });

  it('compares codes case-sensitively', () => {
    expect(labelFor('organisation-types', 'apty')).toBe('apty');
    expect(labelFor('deregistration-reasons', 'ALTREGN')).toBe('ALTREGN');
  });
});
