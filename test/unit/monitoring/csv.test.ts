import { describe, expect, it } from 'vitest';
import { csvCell, fromCsvCell } from '../../../shared/kernel/csv.ts';
import { MONITOR_CSV_COLUMNS, monitorsCsv, prefersCsv } from '../../../shared/monitoring/csv.ts';
import { rowsOfCsv } from '../../../shared/monitoring/import.ts';
import type { MonitorRecord } from '../../../shared/monitoring/store-port.ts';

/** A company monitor (its registry name with a comma) and a person monitor, as the export test writes them. */
function exportedMonitors(): MonitorRecord[] {
  const base = {
    accountId: 'acct_1',
    environment: 'test' as const,
    baseline: null,
    known: null,
    sequence: 0,
    version: 1,
    createdAt: '2026-01-02T03:04:05Z',
    updatedAt: '2026-01-02T03:04:05Z',
  };
  return [
    {
      ...base,
      id: 'mon_000000000000000000000001',
      kind: 'company',
      subjectKey: '990000014',
      company: {
        number: '990000014',
        numberType: 'ACN',
        name: 'BLUEGUM, ORCHARDS PTY LTD',
        type: 'APTY',
        status: 'REGD',
        abn: null,
        registeredCharity: false,
        schemeCategories: [],
      },
      person: null,
      eventTypes: ['company.status_changed', 'company.name_changed'],
      sequence: 3,
    },
    {
      ...base,
      id: 'mon_000000000000000000000002',
      kind: 'person',
      subjectKey: 'PN#x',
      company: null,
      person: { familyName: '-Dash', givenNames: ['Ann', 'Marie'], birthDate: '1970-01-01' },
      eventTypes: ['person.disqualified'],
      environment: 'live',
    },
  ];
}

/** A cell's value with its RFC 4180 quotes taken off, as the importer reads it. */
const unquoted = (cell: string) => (cell.startsWith('"') ? cell.slice(1, -1).replaceAll('""', '"') : cell);

describe('the monitor list as CSV', () => {
  it('quotes cells as RFC 4180 asks', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell('cr\rhere')).toBe('"cr\rhere"');
    expect(csvCell(null)).toBe('');
    expect(csvCell(7)).toBe('7');
    expect(csvCell(false)).toBe('false');
  });

  it('prefixes every cell a spreadsheet would take for a formula with an apostrophe', () => {
    expect(csvCell('=1+2')).toBe("'=1+2");
    expect(csvCell('+61 2')).toBe("'+61 2");
    expect(csvCell('-Smith')).toBe("'-Smith");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\tx')).toBe("'\tx");
    expect(csvCell('\rx')).toBe('"\'\rx"');
    expect(csvCell('=HYPERLINK("http://x","y")')).toBe('"\'=HYPERLINK(""http://x"",""y"")"');
    expect(csvCell("O'Brien")).toBe("O'Brien");
    expect(csvCell('a=b')).toBe('a=b');
    // Apostrophes before a formula's start get the prefix too, so that it can be told apart.
    expect(csvCell("'-Odd")).toBe("''-Odd");
    expect(csvCell("'Quoted")).toBe("'Quoted");
  });

  it('takes the prefix off where the export added it, and only there: every value round-trips', () => {
    const values = [
      '=1+2',
      '+61 2',
      '-Smith',
      '@SUM(A1)',
      '\tx',
      "'-Odd",
      "''=x",
      "'Quoted",
      "O'Brien",
      "'",
      "''",
      'a,b',
      'say "hi"',
      '"=quoted"',
      ',=comma',
      'plain',
      '',
    ];
    for (const value of values) {
      expect(fromCsvCell(unquoted(csvCell(value)))).toBe(value);
    }
    expect(fromCsvCell("'plain")).toBe("'plain");
  });

  it('imports its own export: the extra columns ignored, the first five read back', () => {
    const csv = monitorsCsv(exportedMonitors());
    expect(rowsOfCsv(csv)).toStrictEqual([
      { company: '990000014', eventTypes: ['company.status_changed', 'company.name_changed'] },
      {
        person: { familyName: '-Dash', givenNames: ['Ann', 'Marie'], birthDate: '1970-01-01' },
        eventTypes: ['person.disqualified'],
      },
    ]);
  });

  it('writes a header, then a monitor a line, CRLF-ended, import columns first', () => {
    const monitors = exportedMonitors();
    expect(MONITOR_CSV_COLUMNS.slice(0, 5)).toEqual([
      'company',
      'familyName',
      'givenNames',
      'birthDate',
      'eventTypes',
    ]);
    expect(monitorsCsv(monitors)).toBe(
      'company,familyName,givenNames,birthDate,eventTypes,id,kind,companyName,companyStatus,sequence,livemode,createdAt,updatedAt\r\n' +
        '990000014,,,,company.status_changed|company.name_changed,mon_000000000000000000000001,company,"BLUEGUM, ORCHARDS PTY LTD",REGD,3,false,2026-01-02T03:04:05Z,2026-01-02T03:04:05Z\r\n' +
        ",'-Dash,Ann Marie,1970-01-01,person.disqualified,mon_000000000000000000000002,person,,,0,true,2026-01-02T03:04:05Z,2026-01-02T03:04:05Z\r\n",
    );
  });

  it('answers CSV only when Accept prefers it to JSON', () => {
    expect(prefersCsv(undefined)).toBe(false);
    expect(prefersCsv('')).toBe(false);
    expect(prefersCsv('*/*')).toBe(false);
    expect(prefersCsv('application/json')).toBe(false);
    expect(prefersCsv('text/csv')).toBe(true);
    expect(prefersCsv('TEXT/CSV; charset=utf-8')).toBe(true);
    expect(prefersCsv('text/*')).toBe(true);
    expect(prefersCsv('text/csv, application/json')).toBe(false);
    expect(prefersCsv('text/csv;q=1, application/json;q=0.5')).toBe(true);
    expect(prefersCsv('text/csv;q=0.4, application/json;q=0.5')).toBe(false);
    expect(prefersCsv('text/csv;q=0, */*')).toBe(false);
    expect(prefersCsv('text/csv, */*;q=0.1')).toBe(true);
  });
});
