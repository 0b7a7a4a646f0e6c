import { all, get, getFile, type Json } from '../api.ts';
import { h, saveFile, table, when } from '../dom.ts';
import { errorText, type View } from './view.ts';

const failureOf = (item: Json): string =>
  item.failure ? `${item.failure.code ?? ''} ${item.failure.message ?? ''}`.trim() : '—';

export const orders: View = {
  route: 'orders',
  title: 'Orders and offline searches',
  nav: 'Orders',
  async render({ announce }) {
    const list = await get('v1/orders?limit=100');
    const notice = h('div', {});
    /** A button that fetches a file with the session and saves it (a plain link is refused). */
    const saving = (label: string, of: string, fetchFile: () => Promise<Blob>, name: string) => {
      const button = h(
        'button',
        { type: 'button' },
        label,
        h('span', { class: 'visually-hidden' }, ` ${of}`),
      );
      button.addEventListener('click', async () => {
        button.disabled = true;
        try {
          saveFile(await fetchFile(), name);
          notice.replaceChildren();
          announce(`${name} downloaded.`);
        } catch (error) {
          notice.replaceChildren(
            h('p', { class: 'error', role: 'alert' }, `${label} ${of}: ${errorText(error)}`),
          );
        } finally {
          button.disabled = false;
        }
      });
      return button;
    };
    const now = Date.now();
    const rows = (list.data as Json[]).map((order) => {
      const downloadable =
        order.status === 'ready' &&
        order.downloadUrl &&
        (!order.downloadExpiresAt || Date.parse(order.downloadExpiresAt) > now);
      return [
        h('code', {}, order.id),
        order.type,
        order.status,
        when(order.createdAt),
        failureOf(order),
        downloadable
          ? saving(
              'Download',
              order.id,
              () => getFile(`v1/orders/${encodeURIComponent(order.id)}/download`, 'application/pdf'),
              `${order.id}.pdf`,
            )
          : order.status === 'ready'
            ? 'link expired'
            : '—',
      ];
    });
    const searchId = h('input', {
      id: 'search-id',
      name: 'searchId',
      required: true,
      pattern: 'ofs_[0-9a-f]{24}',
      placeholder: 'ofs_…',
    });
    const result = h('div', { 'aria-live': 'polite' });
    const lookup = h(
      'form',
      {
        class: 'inline-form',
        onsubmit: async (event: Event) => {
          event.preventDefault();
          const id = (searchId as HTMLInputElement).value.trim();
          try {
            const search = await get(`v1/companies/search/offline/${encodeURIComponent(id)}`);
            result.replaceChildren(
              table(
                'Offline search',
                ['Id', 'Query', 'Status', 'Results', 'Failure', ''],
                [
                  [
                    h('code', {}, search.id),
                    search.q,
                    search.status,
                    search.resultCount ?? '—',
                    failureOf(search),
                    search.status === 'ready'
                      ? saving(
                          'Download results',
                          search.id,
                          async () => {
                            const path = `v1/companies/search/offline/${encodeURIComponent(search.id)}/results`;
                            const matches = await all(path, Number.POSITIVE_INFINITY);
                            return new Blob([JSON.stringify(matches, null, 2)], { type: 'application/json' });
                          },
                          `${search.id}-results.json`,
                        )
                      : '—',
                  ],
                ],
              ),
            );
          } catch (error) {
            result.replaceChildren(h('p', { class: 'error' }, errorText(error)));
          }
        },
      },
      h('label', { for: 'search-id' }, 'Offline search id'),
      searchId,
      h('button', { type: 'submit' }, 'Look up'),
    );
    return [
      notice,
      table('Orders, newest first', ['Order', 'Type', 'Status', 'Created', 'Failure', 'Download'], rows),
      h('h2', {}, 'Offline searches'),
      h('p', {}, 'An offline search is found by the id its request returned.'),
      lookup,
      result,
    ];
  },
};
