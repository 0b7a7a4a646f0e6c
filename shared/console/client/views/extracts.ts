import { get, type Json } from '../api.ts';
import { h, table, when } from '../dom.ts';
import type { View } from './view.ts';

const SOON_MS = 30 * 86_400_000;

/** What an extract is about, whatever its kind. */
const subjectOf = (extract: Json): string =>
  extract.company?.name ??
  [extract.subject?.givenName, extract.subject?.familyName].filter(Boolean).join(' ') ??
  extract.entry?.name ??
  extract.weekStarting ??
  '—';

export const extracts: View = {
  route: 'extracts',
  title: 'Extracts',
  nav: 'Extracts',
  async render() {
    const list = await get('v1/extracts?limit=100');
    const viewer = h('section', { 'aria-labelledby': 'extract-heading', hidden: true });
    const open = async (id: string) => {
      const extract = await get(`v1/extracts/${encodeURIComponent(id)}`);
      viewer.replaceChildren(
        h('h2', { id: 'extract-heading', tabindex: -1 }, `Extract ${id}`),
        h(
          'pre',
          { class: 'json', tabindex: 0, 'aria-label': `Extract ${id} as JSON` },
          JSON.stringify(extract, null, 2),
        ),
      );
      viewer.hidden = false;
      (viewer.querySelector('h2') as HTMLElement).focus();
    };
    const now = Date.now();
    const rows = (list.data as Json[]).map((extract) => {
      const left = Date.parse(extract.expiresAt) - now;
      const soon = left > 0 && left <= SOON_MS;
      return [
        `${extract.kind ?? extract.object}${extract.type ? ` (${extract.type})` : ''}`,
        subjectOf(extract) || '—',
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
    return [
      h('p', {}, 'Extracts are kept for 12 months from purchase and read back for free.'),
      table('Held extracts, newest first', ['Kind', 'Subject', 'Purchased', 'Expires', ''], rows),
      list.hasMore ? h('p', {}, 'Showing the newest 100.') : null,
      viewer,
    ].filter((node): node is HTMLElement => node !== null);
  },
};
