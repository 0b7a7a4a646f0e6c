/** The fee ledger as the overview exports it (no DOM, so the unit tests read it too). */
import { csvCell } from '../../kernel/csv.ts';

export const LEDGER_CSV_FIELDS = [
  'at',
  'product',
  'feeCode',
  'quantity',
  'billable',
  'clientReference',
  'requestId',
  'resourceId',
  'unitAmountCents',
  'amountCents',
  'currency',
  'priceVersion',
] as const;

/**
 * The ledger's entries (`GET /v1/usage`'s `data`) as CSV: a header, then one line per entry with
 * the API's fields in its order then its amounts, CRLF-ended; each cell formula-safe like every CSV of the service.
 */
export function ledgerCsv(entries: readonly Record<string, unknown>[]): string {
  return [LEDGER_CSV_FIELDS, ...entries.map((entry) => LEDGER_CSV_FIELDS.map((field) => entry[field]))]
    .map((fields) => `${fields.map(csvCell).join(',')}\r\n`)
    .join('');
}
