/** A small DOM builder: the console draws every view with it (no framework, no inline script or style). */
type Child = Node | string | number | null | undefined | false;
type Attributes = Record<string, string | number | boolean | ((event: Event) => void) | undefined>;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Attributes = {},
  ...children: (Child | Child[])[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    if (typeof value === 'function') element.addEventListener(name.replace(/^on/, ''), value);
    else if (value === true) element.setAttribute(name, '');
    else element.setAttribute(name, String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    element.append(typeof child === 'object' ? child : String(child));
  }
  return element;
}

const SVG = 'http://www.w3.org/2000/svg';
export function svg(
  tag: string,
  attributes: Record<string, string | number>,
  ...children: Node[]
): SVGElement {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  element.append(...children);
  return element;
}

/** `2026-11-28T01:02:03.456Z` → `2026-11-28 01:02 UTC`. */
export const when = (iso: string | null | undefined): string =>
  iso ? `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC` : '—';

/** A table with a caption and column headers; rows of cells. */
export function table(caption: string, headers: string[], rows: Child[][]): HTMLElement {
  if (rows.length === 0) return h('p', { class: 'empty' }, `${caption}: none.`);
  return h(
    'div',
    { class: 'table-wrap' },
    h(
      'table',
      {},
      h('caption', {}, caption),
      h('thead', {}, h('tr', {}, ...headers.map((text) => h('th', { scope: 'col' }, text)))),
      h('tbody', {}, ...rows.map((cells) => h('tr', {}, ...cells.map((cell) => h('td', {}, cell))))),
    ),
  );
}

/** A horizontal bar chart as SVG, described for screen readers; `table` beside it has the numbers. */
export function barChart(
  label: string,
  bars: { name: string; value: number }[],
  format: (value: number) => string = String,
): SVGElement {
  const max = Math.max(1, ...bars.map((bar) => bar.value));
  const rowHeight = 24;
  const width = 640;
  const labelWidth = 260;
  const chart = svg('svg', {
    viewBox: `0 0 ${width} ${Math.max(1, bars.length) * rowHeight}`,
    role: 'img',
    'aria-label': `${label}: ${bars.map((bar) => `${bar.name} ${format(bar.value)}`).join(', ') || 'nothing yet'}`,
    class: 'chart',
  });
  bars.forEach((bar, index) => {
    const y = index * rowHeight;
    const length = Math.round(((width - labelWidth - 90) * bar.value) / max);
    const name = svg('text', { x: 0, y: y + 16, class: 'chart-label' });
    name.textContent = bar.name;
    const value = svg('text', { x: labelWidth + length + 6, y: y + 16, class: 'chart-value' });
    value.textContent = format(bar.value);
    chart.append(
      name,
      svg('rect', { x: labelWidth, y: y + 4, width: Math.max(length, 1), height: 16, class: 'chart-bar' }),
      value,
    );
  });
  return chart;
}
