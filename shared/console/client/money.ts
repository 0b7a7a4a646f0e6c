/** Amounts in words, without the DOM (unit-tested in node). */

/** Cents as the viewer's locale writes the currency (`A$12.50` in en-US for AUD). */
export const money = (cents: number, currency: string): string =>
  new Intl.NumberFormat(undefined, { style: 'currency', currency }).format(cents / 100);

/** This month's spend against the same days of last month, in words. */
export function trend(cents: number, before: number, currency: string): string {
  if (before === 0)
    return cents === 0
      ? 'Nothing on the same days of last month either.'
      : 'Nothing on the same days of last month.';
  const change = Math.round(((cents - before) / before) * 100);
  const last = `the same days of last month (${money(before, currency)})`;
  if (change === 0) return `Level with ${last}.`;
  return `${change > 0 ? 'Up' : 'Down'} ${Math.abs(change)}% on ${last}.`;
}

/** The entries left out of the amounts for want of a price, in words (empty when none). */
export const unpricedNote = (entries: number): string =>
  entries <= 0
    ? ''
    : ` ${entries} ${entries === 1 ? 'entry has' : 'entries have'} no known price and ${entries === 1 ? 'is' : 'are'} left out.`;
