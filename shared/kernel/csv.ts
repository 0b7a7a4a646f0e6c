/**
 * A CSV cell as every CSV the service writes has it (the monitor list, the console's fee ledger).
 * Imports nothing, so that the console's browser script uses this same function.
 */

/**
 * A formula's start, after any apostrophes: what gets the `'` prefix (so that `fromCsvCell` can
 * tell the prefix from a value's own apostrophe).
 */
const FORMULA_START = /^'*[=+\-@\t\r]/;

/**
 * One cell: formula-safe, then quoted as RFC 4180 asks. A text that starts with `=`, `+`, `-`,
 * `@`, a tab or a carriage return is prefixed with `'`, so that no spreadsheet takes it for a
 * formula (OWASP, "CSV injection"); a number or a boolean is written as it is (`-2` stays a number),
 * anything else (null, an object) as an empty cell.
 */
export function csvCell(value: unknown): string {
  let text =
    typeof value === 'number' || typeof value === 'boolean'
      ? String(value)
      : typeof value === 'string'
        ? value
        : '';
  if (typeof value === 'string' && FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** A cell's value (its RFC 4180 quotes taken off) as it was before `csvCell` made it formula-safe. */
export const fromCsvCell = (text: string): string =>
  text.startsWith("'") && FORMULA_START.test(text.slice(1)) ? text.slice(1) : text;
