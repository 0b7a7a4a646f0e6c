import { eventTypes, monitoringEventTypes, subscribableEventTypes } from '../../../webhooks/event-types.ts';
import { call, get, type Json } from '../api.ts';
import { copyButton, h, openDialog, table, when } from '../dom.ts';
import { errorText, type View } from './view.ts';

/** What a new endpoint is subscribed to unless the customer chooses otherwise (spec 6.1's types). */
const NEW_ENDPOINT_TYPES = ['order.ready', 'order.failed', 'offline_search.ready'];

const isMonitoring = (type: string) => (monitoringEventTypes as readonly string[]).includes(type);

/**
 * Checkboxes for every type an endpoint may subscribe to, from the API's own list
 * (shared/webhooks/event-types.ts), `*` first, grouped in fieldsets; `name` tells forms apart. A
 * type the endpoint has that the list lacks is shown ticked too, so that saving keeps it.
 */
export function eventTypeChoice(name: string, checked: readonly string[]): HTMLFieldSetElement {
  const box = (type: string, label = type) =>
    h(
      'label',
      { class: 'check' },
      h('input', { type: 'checkbox', name, value: type, checked: checked.includes(type) }),
      ` ${label}`,
    );
  const group = (legend: string, types: readonly string[]) =>
    h('fieldset', {}, h('legend', {}, legend), ...types.map((type) => box(type)));
  const unknown = checked.filter((type) => !(subscribableEventTypes as readonly string[]).includes(type));
  return h(
    'fieldset',
    { class: 'event-types' },
    h('legend', {}, 'Event types'),
    box('*', '* (every event type, including types added later)'),
    group(
      'Orders, offline searches and tests',
      eventTypes.filter((type) => !isMonitoring(type)),
    ),
    group('Monitoring', monitoringEventTypes),
    unknown.length > 0 ? group('Other types this endpoint has', unknown) : null,
  );
}

export const chosenTypes = (form: HTMLElement, name: string): string[] =>
  [...form.querySelectorAll<HTMLInputElement>(`input[name="${name}"]:checked`)].map((input) => input.value);

/** The secret, shown once after creating an endpoint or rotating its secret. */
export const secretNotice = (secret: string, what: string): HTMLElement =>
  h(
    'div',
    { class: 'secret', role: 'alert' },
    h('p', {}, `${what}. Its signing secret is shown once: store it now.`),
    h('code', { class: 'secret-value' }, secret),
    copyButton(() => secret, 'Copy the secret', 'The secret'),
  );

/** An event as the API answers `GET /v1/events/{id}`, in a dialog, with its JSON to copy. */
export async function showEvent(id: string): Promise<void> {
  const event = await get(`v1/events/${encodeURIComponent(id)}`);
  const json = JSON.stringify(event, null, 2);
  openDialog(
    `Event ${id}`,
    (close) => [
      h('p', {}, `${event.type}, created ${when(event.createdAt)}.`),
      h('pre', { class: 'json', tabindex: 0, 'aria-label': `Event ${id} as JSON` }, json),
      h(
        'div',
        { class: 'actions' },
        copyButton(() => json, 'Copy JSON', 'The event'),
        h('button', { type: 'button', onclick: close }, 'Close'),
      ),
    ],
    { wide: true },
  );
}

export const webhooks: View = {
  route: 'webhooks',
  title: 'Webhooks',
  nav: 'Webhooks',
  async render({ announce, refresh }) {
    const [endpoints, events] = await Promise.all([
      get('v1/webhook-endpoints?limit=100'),
      get('v1/events?limit=25'),
    ]);
    const notice = h('div', {});
    const url = h('input', {
      id: 'endpoint-url',
      name: 'url',
      type: 'url',
      required: true,
      placeholder: 'https://example.com/hooks',
    });
    const description = h('input', { id: 'endpoint-description', name: 'description', maxlength: 200 });
    const create = h(
      'form',
      {
        onsubmit: async (event: Event) => {
          event.preventDefault();
          try {
            const endpoint = await call('POST', 'v1/webhook-endpoints', {
              url: (url as HTMLInputElement).value,
              enabledEvents: chosenTypes(create, 'new-events'),
              ...((description as HTMLInputElement).value
                ? { description: (description as HTMLInputElement).value }
                : {}),
            });
            notice.replaceChildren(secretNotice(endpoint.secret, `Endpoint ${endpoint.id} created`));
            announce(`Endpoint ${endpoint.id} created.`);
            (create as HTMLFormElement).reset();
          } catch (error) {
            notice.replaceChildren(h('p', { class: 'error', role: 'alert' }, errorText(error)));
          }
        },
      },
      h('div', { class: 'field' }, h('label', { for: 'endpoint-url' }, 'URL (HTTPS)'), url),
      h(
        'div',
        { class: 'field' },
        h('label', { for: 'endpoint-description' }, 'Description (optional)'),
        description,
      ),
      eventTypeChoice('new-events', NEW_ENDPOINT_TYPES),
      h('button', { type: 'submit' }, 'Create endpoint'),
    );
    const typeFilter = h(
      'select',
      { id: 'event-type', name: 'type' },
      h('option', { value: '' }, 'All types'),
      ...eventTypes.map((type) => h('option', { value: type }, type)),
    );
    const eventRows = (list: Json[]) =>
      list.map((e) => [
        h('code', {}, e.id),
        e.type,
        when(e.createdAt),
        e.livemode ? 'live' : 'test',
        h(
          'button',
          {
            type: 'button',
            onclick: () =>
              showEvent(e.id).catch((error) =>
                notice.replaceChildren(h('p', { class: 'error', role: 'alert' }, errorText(error))),
              ),
          },
          'View payload',
          h('span', { class: 'visually-hidden' }, ` of ${e.id}`),
        ),
      ]);
    const EVENT_COLUMNS = ['Event', 'Type', 'Created', 'Mode', ''];
    const eventTable = h(
      'div',
      {},
      table('Events, newest first (kept 30 days)', EVENT_COLUMNS, eventRows(events.data)),
    );
    typeFilter.addEventListener('change', async () => {
      const type = (typeFilter as HTMLSelectElement).value;
      const list = await get(`v1/events?limit=25${type ? `&type=${encodeURIComponent(type)}` : ''}`);
      eventTable.replaceChildren(
        table('Events, newest first (kept 30 days)', EVENT_COLUMNS, eventRows(list.data)),
      );
    });
    return [
      notice,
      table(
        'Endpoints',
        ['URL', 'Description', 'Event types', 'Status', 'Last delivery', ''],
        (endpoints.data as Json[]).map((endpoint) => [
          endpoint.url,
          endpoint.description ?? '—',
          (endpoint.enabledEvents as string[])
            .map((type) => (type === '*' ? '* (every type)' : type))
            .join(', '),
          endpoint.status,
          when(endpoint.stats?.lastSucceededAt ?? endpoint.stats?.lastFailedAt),
          h(
            'a',
            { href: `#/webhooks/${endpoint.id}` },
            'Manage',
            h('span', { class: 'visually-hidden' }, ` ${endpoint.url}`),
          ),
        ]),
      ),
      h('h2', {}, 'Add an endpoint'),
      create,
      h('h2', {}, 'Event log'),
      h('div', { class: 'inline-form' }, h('label', { for: 'event-type' }, 'Type'), typeFilter),
      eventTable,
      h('button', { type: 'button', onclick: refresh }, 'Refresh'),
    ];
  },
};
