import { all, base, get, type Json } from '../api.ts';
import { barChart, h, plural, saveFile, table } from '../dom.ts';
import { ledgerCsv } from '../ledger-csv.ts';
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
  async render({ announce }) {
    const today = new Date();
    const month = today.toISOString().slice(0, 7);
    const since = new Date(today.getTime() - 29 * 86_400_000);
    const [thisMonth, lastDays] = await Promise.all([
      get(`v1/usage?from=${month}-01&to=${day(today)}&limit=1`),
      all(`v1/usage?from=${day(since)}&to=${day(today)}`, 20),
    ]);
    const totals: Json[] = thisMonth.totals;
    const byProduct = new Map<string, { entries: number; quantity: number }>();
    for (const total of totals) {
      const sum = byProduct.get(total.product) ?? { entries: 0, quantity: 0 };
      sum.entries += total.entries;
      sum.quantity += total.quantity;
      byProduct.set(total.product, sum);
    }
    const days = Array.from({ length: 30 }, (_, i) => day(new Date(since.getTime() + i * 86_400_000)));
    const perDay = new Map(days.map((d) => [d, { entries: 0, quantity: 0 }]));
    for (const entry of lastDays) {
      const sum = perDay.get(String(entry.at).slice(0, 10));
      if (sum) {
        sum.entries += 1;
        sum.quantity += entry.quantity;
      }
    }

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
          saveFile(new Blob([ledgerCsv(entries)], { type: 'text/csv' }), `ledger-${chosen}.csv`);
          announce(`Ledger for ${chosen}: ${plural(entries.length, 'entry', 'entries')}, downloaded as CSV.`);
        },
      },
      h('label', { for: 'csv-month' }, 'Month'),
      monthInput,
      h('button', { type: 'submit' }, 'Export the fee ledger as CSV'),
    );

    return [
      h('h2', {}, `This month (${month})`),
      barChart(
        'Fee entries by product this month',
        [...byProduct].map(([name, sum]) => ({ name, value: sum.entries })),
      ),
      table(
        'Fees by product and fee code this month',
        ['Product', 'Fee code', 'Billable', 'Entries', 'Quantity'],
        totals.map((t) => [
          t.product,
          t.feeCode ?? '—',
          t.billable ? 'yes' : 'no (test)',
          t.entries,
          t.quantity,
        ]),
      ),
      h('h2', {}, 'The last 30 days'),
      table(
        'Fee entries per day, the last 30 days',
        ['Day', 'Entries', 'Quantity'],
        days.map((d) => [d, perDay.get(d)?.entries ?? 0, perDay.get(d)?.quantity ?? 0]),
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
