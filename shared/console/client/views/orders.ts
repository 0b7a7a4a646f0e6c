import { all, get, getFile, type Json } from '../api.ts';
import { h, plural, saveFile, table, when } from '../dom.ts';
import { errorText, type View } from './view.ts';

const failureOf = (item: Json): string =>
  item.failure ? `${item.failure.code ?? ''} ${item.failure.message ?? ''}`.trim() : '—';

const PRODUCTS: Record<string, string> = {
  charges_extract: 'Charges extract',
  document_image: 'Document images',
};

/** The company an order is about: its name and number, or the documents of an image order. */
const companyOf = (order: Json): Node | string =>
  order.company
    ? h(
        'span',
        {},
        order.company.name,
        h('br', {}),
        `${order.company.numberType?.code ?? 'ACN'} ${order.company.formatted}`,
      )
    : (order.documents as Json[]).map((d) => d.documentNumber).join(', ') || '—';

/** Where an order goes: web download, or the email or postal address it was given. */
const deliveryOf = (order: Json): string => {
  const d = order.delivery ?? {};
  if (d.method === 'email') return `Email to ${d.email}`;
  if (d.method === 'post')
    return `Post to ${[d.recipient, d.address, d.postcode].filter(Boolean).join(', ')}`;
  return 'Web download';
};

export const orders: View = {
  route: 'orders',
  title: 'Orders and offline searches',
  nav: 'Orders',
  async render({ announce }) {
    const [list, searches] = await Promise.all([
      get('v1/orders?limit=100'),
      get('v1/companies/search/offline?limit=100'),
    ]);
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
        PRODUCTS[order.type] ?? order.type,
        companyOf(order),
        order.status,
        when(order.createdAt),
        deliveryOf(order),
        order.clientReference ?? '—',
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
    const downloadResults = (search: Json) =>
      saving(
        'Download results',
        search.id,
        async () => {
          const path = `v1/companies/search/offline/${encodeURIComponent(search.id)}/results`;
          const matches = await all(path, Number.POSITIVE_INFINITY);
          return new Blob([JSON.stringify(matches, null, 2)], { type: 'application/json' });
        },
        `${search.id}-results.json`,
      );
    const searchRows = (items: Json[]) =>
      items.map((search) => [
        h('code', {}, search.id),
        search.q,
        search.scope,
        search.status,
        search.resultCount === null ? '—' : plural(search.resultCount, 'match', 'matches'),
        search.deliveredTo === 'webhook' ? 'Webhook' : `Email to ${search.deliveredTo}`,
        when(search.createdAt),
        search.clientReference ?? '—',
        search.status === 'ready' ? downloadResults(search) : failureOf(search),
      ]);
    const SEARCH_COLUMNS = [
      'Search',
      'Query',
      'Scope',
      'Status',
      'Results',
      'Delivery',
      'Created',
      'Client reference',
      '',
    ];
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
            result.replaceChildren(table('Offline search', SEARCH_COLUMNS, searchRows([search])));
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
      table(
        'Orders, newest first',
        [
          'Order',
          'Product',
          'Company',
          'Status',
          'Created',
          'Delivery',
          'Client reference',
          'Failure',
          'Download',
        ],
        rows,
      ),
      list.hasMore ? h('p', {}, 'Showing the newest 100 orders.') : null,
      h('h2', {}, 'Offline searches'),
      table('Offline searches, newest first', SEARCH_COLUMNS, searchRows(searches.data)),
      searches.hasMore ? h('p', {}, 'Showing the newest 100 offline searches.') : null,
      h('p', {}, 'Searches made before they were listed here are found by the id their request returned.'),
      lookup,
      result,
    ].filter((node): node is HTMLElement => node !== null);
  },
};
