import { all, get, type Json } from '../api.ts';
import { copyButton, h, plural, saveFile, table, when } from '../dom.ts';
import type { View } from './view.ts';

const SOON_MS = 30 * 86_400_000;
/** Pages of 100 read for the list (its filters work on what was read). */
const MAX_PAGES = 5;

/** The API's kinds (`GET /v1/extracts?kind=`), by the names customers know them by. */
const KIND_NAMES: Record<string, string> = {
  company: 'Company',
  person: 'Person',
  register: 'Register entry',
  weeklySummary: 'Weekly summary',
};

/** What an extract is about, whatever its kind. */
const subjectOf = (extract: Json): string =>
  extract.company?.name ||
  [extract.subject?.givenName, extract.subject?.familyName].filter(Boolean).join(' ') ||
  extract.entry?.name ||
  extract.weekStarting ||
  '—';

/** Whether an extract is about the company `text` names: part of its name, or its ACN or ABN. */
function isAbout(extract: Json, text: string): boolean {
  const wanted = text.trim().toLowerCase();
  if (!wanted) return true;
  const company = extract.company;
  if (!company) return false;
  const digits = wanted.replace(/\s/g, '');
  if (/^\d+$/.test(digits)) return [company.acn, company.abn].some((n) => n?.includes(digits));
  return String(company.name ?? '')
    .toLowerCase()
    .includes(wanted);
}

export const extracts: View = {
  route: 'extracts',
  title: 'Extracts',
  nav: 'Extracts',
  async render({ announce }) {
    let held: Json[] = await all('v1/extracts', MAX_PAGES);
    const viewer = h('section', { 'aria-labelledby': 'extract-heading', hidden: true });
    const open = async (id: string) => {
      const extract = await get(`v1/extracts/${encodeURIComponent(id)}`);
      const json = JSON.stringify(extract, null, 2);
      viewer.replaceChildren(
        h('h2', { id: 'extract-heading', tabindex: -1 }, `Extract ${id}`),
        h(
          'div',
          { class: 'actions' },
          copyButton(() => json, 'Copy JSON', 'The extract'),
          h(
            'button',
            {
              type: 'button',
              onclick: () => {
                saveFile(new Blob([json], { type: 'application/json' }), `${id}.json`);
                announce(`${id}.json downloaded.`);
              },
            },
            'Download JSON',
          ),
        ),
        h('pre', { class: 'json', tabindex: 0, 'aria-label': `Extract ${id} as JSON` }, json),
      );
      viewer.hidden = false;
      (viewer.querySelector('h2') as HTMLElement).focus();
    };
    const rowsOf = (list: Json[]) => {
      const now = Date.now();
      return list.map((extract) => {
        const left = Date.parse(extract.expiresAt) - now;
        const soon = left > 0 && left <= SOON_MS;
        return [
          `${KIND_NAMES[extract.kind] ?? extract.kind ?? extract.object}${extract.type ? ` (${extract.type})` : ''}`,
          extract.company
            ? h('span', {}, subjectOf(extract), h('br', {}), `ACN ${extract.company.formatted}`)
            : subjectOf(extract),
          extract.clientReference ?? '—',
          when(extract.purchasedAt ?? extract.createdAt),
          h(
            'span',
            { class: soon ? 'soon' : '' },
            when(extract.expiresAt),
            soon ? ` — expires within 30 days` : '',
          ),
          h(
            'button',
            { type: 'button', onclick: () => open(extract.id), 'aria-label': `Open extract ${extract.id}` },
            'Open',
          ),
        ];
      });
    };
    const kind = h(
      'select',
      { id: 'extract-kind', name: 'kind' },
      h('option', { value: '' }, 'Every kind'),
      ...Object.entries(KIND_NAMES).map(([value, name]) => h('option', { value }, name)),
    );
    const company = h('input', {
      id: 'extract-company',
      name: 'company',
      type: 'search',
      autocomplete: 'off',
      'aria-describedby': 'extract-company-hint',
    });
    const shown = h('div', {});
    const draw = () => {
      const text = (company as HTMLInputElement).value;
      const matching = held.filter((extract) => isAbout(extract, text));
      shown.replaceChildren(
        table(
          'Held extracts, newest first',
          ['Kind', 'Subject', 'Client reference', 'Purchased', 'Expires', ''],
          rowsOf(matching),
        ),
      );
      return matching.length;
    };
    const filtered = () => announce(`${plural(draw(), 'extract')} shown.`);
    kind.addEventListener('change', async () => {
      const chosen = (kind as HTMLSelectElement).value;
      held = await all(`v1/extracts${chosen ? `?kind=${encodeURIComponent(chosen)}` : ''}`, MAX_PAGES);
      filtered();
    });
    company.addEventListener('input', filtered);
    draw();
    return [
      h('p', {}, 'Extracts are kept for 12 months from purchase and read back for free.'),
      h(
        'form',
        {
          class: 'inline-form',
          role: 'search',
          'aria-label': 'Filter extracts',
          onsubmit: (e: Event) => e.preventDefault(),
        },
        h('label', { for: 'extract-kind' }, 'Kind'),
        kind,
        h('label', { for: 'extract-company' }, 'Company'),
        company,
        h('span', { id: 'extract-company-hint', class: 'hint' }, 'Part of its name, or its ACN or ABN'),
      ),
      shown,
      held.length >= MAX_PAGES * 100 ? h('p', {}, `Showing the newest ${MAX_PAGES * 100}.`) : null,
      viewer,
    ].filter((node): node is HTMLElement => node !== null);
  },
};
