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

const viewerZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
const inViewerZone = new Intl.DateTimeFormat('en-CA', {
  timeZone: viewerZone,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});
/** The zone's short name in the viewer's own language (`AEDT` in en-AU, `GMT+11` where it has none). */
const zoneName = new Intl.DateTimeFormat(undefined, { timeZone: viewerZone, timeZoneName: 'short' });

/**
 * A time in the viewer's zone with UTC beside it: `2026-11-28T01:02:03Z` in Sydney →
 * `2026-11-28 12:02 GMT+11 (01:02 UTC)`, with UTC's date too when it differs; a viewer in UTC
 * sees `2026-11-28 01:02 UTC`. The API, the ledger and support speak UTC, so it stays at hand.
 */
export function when(iso: string | null | undefined): string {
  if (!iso) return '—';
  const utc = { day: iso.slice(0, 10), time: iso.slice(11, 16) };
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const part = Object.fromEntries(inViewerZone.formatToParts(date).map((p) => [p.type, p.value]));
  const local = { day: `${part.year}-${part.month}-${part.day}`, time: `${part.hour}:${part.minute}` };
  // No-break spaces: a narrow column breaks between the viewer's time and UTC's, not within them.
  if (local.day === utc.day && local.time === utc.time) return `${utc.day}\u00a0${utc.time}\u00a0UTC`;
  const utcText = local.day === utc.day ? utc.time : `${utc.day}\u00a0${utc.time}`;
  const zone = zoneName.formatToParts(date).find((p) => p.type === 'timeZoneName')?.value ?? viewerZone;
  return `${local.day}\u00a0${local.time}\u00a0${zone} (${utcText}\u00a0UTC)`;
}

/** `1 duplicate`, `2 duplicates`; `plural(1, 'entry', 'entries')`. */
export const plural = (count: number, one: string, many = `${one}s`): string =>
  `${count} ${count === 1 ? one : many}`;

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

/**
 * Saves what the page holds as a file: a link to an object URL with `download`, clicked. The URL
 * is released a minute later (at once would cancel the download in some browsers).
 */
export function saveFile(blob: Blob, name: string): void {
  const link = h('a', { href: URL.createObjectURL(blob), download: name, hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
}

/**
 * A modal dialog (the browser's own `<dialog>`: focus moves into it and stays there, Escape closes
 * it); on closing, focus goes back to what had it. `content` gets a function that closes it.
 */
export function openDialog(
  title: string,
  content: (close: () => void) => Node[],
  options: { wide?: boolean } = {},
): HTMLDialogElement {
  const returnTo = document.activeElement as HTMLElement | null;
  const headingId = `dialog-${Date.now().toString(36)}`;
  const dialog = h('dialog', { 'aria-labelledby': headingId, class: options.wide ? 'wide' : undefined });
  const close = () => dialog.close();
  dialog.append(h('h2', { id: headingId }, title), ...content(close));
  dialog.addEventListener('close', () => {
    dialog.remove();
    if (returnTo?.isConnected) returnTo.focus();
  });
  document.body.append(dialog);
  dialog.showModal();
  return dialog;
}

/**
 * Asks before a change that cannot be taken back: Cancel (focused first, so Enter does no harm)
 * or the named action; a failure is shown in the dialog, which stays open.
 */
export function confirmAction(
  question: string,
  detail: string,
  label: string,
  run: () => Promise<void>,
): HTMLDialogElement {
  return openDialog(question, (close) => {
    const error = h('p', { class: 'error', role: 'alert', hidden: true });
    const cancel = h('button', { type: 'button', autofocus: true, onclick: close }, 'Cancel');
    const act = h('button', { type: 'button', class: 'danger' }, label);
    act.addEventListener('click', async () => {
      act.disabled = true;
      try {
        await run();
        close();
      } catch (failure) {
        error.textContent = failure instanceof Error ? failure.message : String(failure);
        error.hidden = false;
        act.disabled = false;
      }
    });
    return [h('p', {}, detail), error, h('div', { class: 'actions' }, cancel, act)];
  });
}

/** A button that puts `text` on the clipboard and says so beside itself. */
export function copyButton(text: () => string, label: string, what: string): HTMLElement {
  const said = h('span', { class: 'copied', role: 'status' });
  const button = h(
    'button',
    {
      type: 'button',
      onclick: async () => {
        try {
          await navigator.clipboard.writeText(text());
          said.textContent = `${what} copied.`;
        } catch {
          said.textContent = `${what} could not be copied: select it and copy it by hand.`;
        }
      },
    },
    label,
  );
  return h('span', { class: 'copy' }, button, ' ', said);
}
