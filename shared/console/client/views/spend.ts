/** Money on the overview: amounts in the usage report's currency, the month's trend and the 30-day chart. */
import type { Json } from '../api.ts';
import { h, svg } from '../dom.ts';
import { money, unpricedNote } from '../money.ts';

/** What the amounts are: billed, or (test keys) what the same use would have cost; example prices said so. */
export function pricingNote(amounts: Json): HTMLElement {
  return h(
    'p',
    { class: 'pricing-note' },
    amounts.billed
      ? 'Billed to the account at the prices in force when each purchase was made.'
      : 'Not billed: test keys are free. The amounts are what the same use would have cost with live keys.',
    amounts.examplePrices ? ' These are example prices, not the prices of a live account.' : '',
    unpricedNote(amounts.unpricedEntries),
  );
}

/**
 * The spend of each day as columns, drawn as SVG: an image whose label sums it up, described by the
 * table of the same numbers (`tableId`), so a screen reader has every figure.
 */
export function dailySpendChart(
  days: readonly { day: string; cents: number }[],
  currency: string,
  tableId: string,
): SVGElement {
  const width = 640;
  const height = 180;
  const bottom = 150;
  const max = Math.max(1, ...days.map((d) => d.cents));
  const total = days.reduce((sum, d) => sum + d.cents, 0);
  const highest = days.reduce(
    (best, d) => (d.cents > best.cents ? d : best),
    days[0] ?? { day: '', cents: 0 },
  );
  const column = width / Math.max(1, days.length);
  const label =
    total === 0
      ? `Spend per day, the last ${days.length} days: nothing spent.`
      : `Spend per day, the last ${days.length} days: ${money(total, currency)} in all, the most on ${highest.day} (${money(highest.cents, currency)}).`;
  const chart = svg('svg', {
    viewBox: `0 0 ${width} ${height}`,
    role: 'img',
    'aria-label': label,
    'aria-describedby': tableId,
    class: 'chart day-chart',
  });
  chart.append(svg('line', { x1: 0, y1: bottom, x2: width, y2: bottom, class: 'chart-axis' }));
  days.forEach((d, index) => {
    const barHeight = d.cents === 0 ? 0 : Math.max(2, Math.round(((bottom - 10) * d.cents) / max));
    const title = svg('title', {});
    title.textContent = `${d.day}: ${money(d.cents, currency)}`;
    chart.append(
      svg(
        'rect',
        {
          x: Math.round(index * column + 2),
          y: bottom - barHeight,
          width: Math.max(1, Math.round(column - 4)),
          height: barHeight,
          class: 'chart-bar',
        },
        title,
      ),
    );
  });
  for (const index of [0, days.length - 1]) {
    const d = days[index];
    if (!d) continue;
    const text = svg('text', {
      x: index === 0 ? 0 : width,
      y: height - 8,
      'text-anchor': index === 0 ? 'start' : 'end',
      class: 'chart-label',
    });
    text.textContent = d.day;
    chart.append(text);
  }
  if (total > 0) {
    const top = svg('text', { x: 0, y: 12, class: 'chart-value' });
    top.textContent = `highest ${money(max, currency)}`;
    chart.append(top);
  }
  return chart;
}
