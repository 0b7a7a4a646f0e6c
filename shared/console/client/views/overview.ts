import { all, base, get, type Json } from '../api.ts';
import { barChart, h, plural, saveFile, table } from '../dom.ts';
import { ledgerCsv } from '../ledger-csv.ts';
import { money, trend } from '../money.ts';
import { dailySpendChart, pricingNote } from './spend.ts';
import type { View } from './view.ts';

const day = (date: Date) => date.toISOString().slice(0, 10);

function monthRange(month: string): { from: string; to: string } {
  const [year, monthNumber] = month.split('-').map(Number) as [number, number];
  const last = new Date(Date.UTC(year, monthNumber, 0));
  return { from: `${month}-01`, to: day(last) };
}

export const overview: View = {
  route: '',
  title: 'Overview',
  nav: 'Overview',
  // Spend and the ledger: every member, billing included.
  roles: ['admin', 'developer', 'billing'],
  async render({ announce }) {
    const today = new Date();
    const month = today.toISOString().slice(0, 7);
    const since = new Date(today.getTime() - 29 * 86_400_000);
    const lastMonth = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - 1, 1));
    const lastMonthEnd = monthRange(day(lastMonth).slice(0, 7)).to;
    const sameDayLastMonth = `${day(lastMonth).slice(0, 8)}${day(today).slice(8, 10)}`;
    const beforeFrom = day(lastMonth);
    const beforeTo = sameDayLastMonth < lastMonthEnd ? sameDayLastMonth : lastMonthEnd;
    const earliest = beforeFrom < day(since) ? beforeFrom : day(since);
    // Two bounded reports: this month's amounts by product, and the per-day sums from which both
    // the 30-day chart and the same days of last month are read (never the entries themselves).
    const [thisMonth, span] = await Promise.all([
      get(`v1/usage?from=${month}-01&to=${day(today)}&limit=1`),
      get(`v1/usage?from=${earliest}&to=${day(today)}&limit=1`),
    ]);
    const amounts: Json = thisMonth.amounts;
    const currency: string = amounts.currency;
    const spanDays = span.days as { date: string; entries: number; amountCents: number }[];
    const beforeCents = spanDays
      .filter((d) => d.date >= beforeFrom && d.date <= beforeTo)
      .reduce((sum, d) => sum + d.amountCents, 0);
    const days = Array.from({ length: 30 }, (_, i) => day(new Date(since.getTime() + i * 86_400_000)));
    const perDay = new Map(days.map((d) => [d, { entries: 0, cents: 0 }]));
    for (const sum of spanDays) {
      if (perDay.has(sum.date)) perDay.set(sum.date, { entries: sum.entries, cents: sum.amountCents });
    }
    const monthName = new Intl.DateTimeFormat(undefined, {
      month: 'long',
      year: 'numeric',
      timeZone: 'UTC',
    }).format(today);

    const monthInput = h('input', {
      type: 'month',
      id: 'csv-month',
      name: 'month',
      value: month,
      required: true,
    });
    const exportForm = h(
      'form',
      {
        class: 'inline-form',
        onsubmit: async (event: Event) => {
          event.preventDefault();
          const chosen = (monthInput as HTMLInputElement).value;
          const { from, to } = monthRange(chosen);
          announce(`Preparing the ledger for ${chosen}…`);
          const entries = await all(`v1/usage?from=${from}&to=${to}`);
          const priced = entries.map((entry) => ({ ...entry, currency }));
          saveFile(new Blob([ledgerCsv(priced)], { type: 'text/csv' }), `ledger-${chosen}.csv`);
          announce(`Ledger for ${chosen}: ${plural(entries.length, 'entry', 'entries')}, downloaded as CSV.`);
        },
      },
      h('label', { for: 'csv-month' }, 'Month'),
      monthInput,
      h('button', { type: 'submit' }, 'Export the fee ledger as CSV'),
    );

    const products: Json[] = amounts.products;
    return [
      h('h2', {}, `This month (${monthName})`),
      h(
        'p',
        { class: 'spend' },
        h('strong', { class: 'spend-total' }, money(amounts.totalCents, currency)),
        amounts.billed ? ' spent this month. ' : ' of use this month, not billed. ',
        trend(amounts.totalCents, beforeCents, currency),
      ),
      pricingNote(amounts),
      barChart(
        'Spend by product this month',
        products.map((p) => ({ name: p.name, value: p.amountCents })),
        (cents) => money(cents, currency),
      ),
      table(
        'Spend by product this month',
        ['Product', 'Quantity', 'Amount'],
        products.map((p) => [p.name, p.quantity, money(p.amountCents, currency)]),
      ),
      h('h2', {}, 'The last 30 days'),
      dailySpendChart(
        days.map((d) => ({ day: d, cents: perDay.get(d)?.cents ?? 0 })),
        currency,
        'spend-per-day',
      ),
      h(
        'details',
        { class: 'chart-table', id: 'spend-per-day' },
        h('summary', {}, 'The 30 days as a table'),
        table(
          'Spend per day, the last 30 days',
          ['Day', 'Entries', 'Amount'],
          days.map((d) => [d, perDay.get(d)?.entries ?? 0, money(perDay.get(d)?.cents ?? 0, currency)]),
        ),
      ),
      h('h2', {}, 'Export'),
      h(
        'p',
        {},
        'The fee ledger of any month, one line per entry, as ',
        h('a', { href: `${base}docs#tag/extracts` }, 'GET /v1/usage'),
        ' returns it.',
      ),
      exportForm,
    ];
  },
};
