import { call, get, type Json } from '../api.ts';
import { confirmAction, h, plural, when } from '../dom.ts';
import { errorText, type View } from './view.ts';
import { chosenTypes, eventTypeChoice, secretNotice, showEvent } from './webhooks.ts';

const excerpt = (text: string | null) => (text ? (text.length > 200 ? `${text.slice(0, 200)}…` : text) : '—');

function deliveryRows(
  deliveries: Json[],
  resend: (delivery: Json) => void,
  view: (delivery: Json) => void,
): HTMLElement {
  if (deliveries.length === 0) return h('p', { class: 'empty' }, 'No deliveries yet.');
  return h(
    'div',
    { class: 'table-wrap' },
    h(
      'table',
      {},
      h('caption', {}, 'Deliveries, newest first, with every attempt'),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ...['Delivery', 'Event', 'Status', 'Attempts', ''].map((t) => h('th', { scope: 'col' }, t)),
        ),
      ),
      h(
        'tbody',
        {},
        ...deliveries.map((delivery) =>
          h(
            'tr',
            {},
            h('td', {}, h('code', {}, delivery.id), h('br', {}), when(delivery.createdAt)),
            h('td', {}, delivery.eventType, h('br', {}), h('code', {}, delivery.eventId)),
            h(
              'td',
              {},
              delivery.status,
              delivery.nextAttemptAt ? ` (next ${when(delivery.nextAttemptAt)})` : '',
            ),
            h(
              'td',
              {},
              h(
                'ol',
                { class: 'attempts' },
                ...(delivery.attempts as Json[]).map((attempt) =>
                  h(
                    'li',
                    {},
                    `${when(attempt.at)} · ${attempt.statusCode ?? 'no response'} · ${attempt.latencyMs} ms${attempt.manual ? ' · resent' : ''}`,
                    h('br', {}),
                    h('span', { class: 'excerpt' }, excerpt(attempt.error ?? attempt.responseBody)),
                  ),
                ),
              ),
            ),
            h(
              'td',
              {},
              h(
                'button',
                {
                  type: 'button',
                  onclick: () => resend(delivery),
                  'aria-label': `Resend ${delivery.eventId}`,
                },
                'Resend',
              ),
              h(
                'button',
                {
                  type: 'button',
                  onclick: () => view(delivery),
                },
                'View payload',
                h('span', { class: 'visually-hidden' }, ` of ${delivery.eventId}`),
              ),
            ),
          ),
        ),
      ),
    ),
  );
}

export const endpoint: View = {
  route: 'webhooks/:id',
  title: 'Webhook endpoint',
  async render({ params, announce, refresh, onLeave }) {
    const id = params[0] as string;
    const path = `v1/webhook-endpoints/${encodeURIComponent(id)}`;
    const [current, deliveries] = await Promise.all([get(path), get(`${path}/deliveries?limit=50`)]);
    const notice = h('div', {});
    const fail = (error: unknown) =>
      notice.replaceChildren(h('p', { class: 'error', role: 'alert' }, errorText(error)));
    const view = (delivery: Json) => showEvent(delivery.eventId).catch(fail);
    const list = h(
      'div',
      {},
      deliveryRows(deliveries.data, (d) => resend(d), view),
    );
    const reload = async () => {
      const fresh = await get(`${path}/deliveries?limit=50`);
      list.replaceChildren(deliveryRows(fresh.data, (d) => resend(d), view));
    };
    const resend = async (delivery: Json) => {
      try {
        await call('POST', `v1/events/${encodeURIComponent(delivery.eventId)}/resend`, { endpointId: id });
        announce(`Resent ${delivery.eventId}.`);
        await reload();
      } catch (error) {
        fail(error);
      }
    };
    // Deliveries appear as the dispatcher makes them: the list follows them while the page is open.
    const timer = setInterval(() => reload().catch(() => {}), 2000);
    onLeave(() => clearInterval(timer));

    const edit = h(
      'form',
      {
        onsubmit: async (event: Event) => {
          event.preventDefault();
          try {
            await call('PATCH', path, { enabledEvents: chosenTypes(edit, 'edit-events') });
            announce('Event types saved.');
          } catch (error) {
            fail(error);
          }
        },
      },
      eventTypeChoice('edit-events', current.enabledEvents),
      h('button', { type: 'submit' }, 'Save event types'),
    );
    const since = h('input', {
      id: 'recover-since',
      name: 'since',
      type: 'datetime-local',
      required: true,
      step: 1,
    });
    const recover = h(
      'form',
      {
        class: 'inline-form',
        onsubmit: async (event: Event) => {
          event.preventDefault();
          try {
            const at = new Date(`${(since as HTMLInputElement).value}Z`)
              .toISOString()
              .replace(/\.\d{3}Z$/, 'Z');
            const result = await call('POST', `${path}/recover`, { since: at });
            announce(`${plural(result.resent, 'failed delivery', 'failed deliveries')} sent again.`);
            await reload();
          } catch (error) {
            fail(error);
          }
        },
      },
      h('label', { for: 'recover-since' }, 'Failed since (UTC)'),
      since,
      h('button', { type: 'submit' }, 'Recover'),
    );
    const description = h('input', {
      id: 'edit-description',
      name: 'description',
      maxlength: 200,
      value: current.description ?? '',
    });
    // Only the description is sent: the URL, event types and status stay as they are.
    const describe = h(
      'form',
      {
        class: 'inline-form',
        onsubmit: async (event: Event) => {
          event.preventDefault();
          try {
            const text = (description as HTMLInputElement).value.trim();
            const saved = await call('PATCH', path, { description: text === '' ? null : text });
            shownDescription.textContent = saved.description ?? '—';
            announce(saved.description ? 'Description saved.' : 'Description removed.');
          } catch (error) {
            fail(error);
          }
        },
      },
      h('label', { for: 'edit-description' }, 'Description'),
      description,
      h('button', { type: 'submit' }, 'Save description'),
    );
    const shownDescription = h('dd', {}, current.description ?? '—');
    const action = (label: string, run: () => Promise<void>) =>
      h('button', { type: 'button', onclick: () => run().catch(fail) }, label);
    const confirmed = (label: string, question: string, detail: string, run: () => Promise<void>) =>
      h('button', { type: 'button', onclick: () => confirmAction(question, detail, label, run) }, label);
    const disabling = current.status !== 'disabled';
    return [
      h('p', {}, h('a', { href: '#/webhooks' }, '← All endpoints')),
      h(
        'dl',
        { class: 'facts' },
        h('dt', {}, 'URL'),
        h('dd', {}, current.url),
        h('dt', {}, 'Status'),
        h('dd', {}, current.status, current.disabledReason ? ` (${current.disabledReason})` : ''),
        h('dt', {}, 'Description'),
        shownDescription,
        h('dt', {}, 'Id'),
        h('dd', {}, h('code', {}, current.id)),
        h('dt', {}, 'Created'),
        h('dd', {}, when(current.createdAt)),
      ),
      notice,
      h(
        'div',
        { class: 'actions' },
        action('Send a test event', async () => {
          await call('POST', `${path}/test`, {});
          announce('Test event sent: its delivery appears below.');
          await reload();
        }),
        confirmed(
          'Rotate the secret',
          'Rotate the signing secret?',
          'A new secret signs every delivery from now on, shown once; the old one also signs for 24 more hours, so update your receiver within a day.',
          async () => {
            const rotated = await call('POST', `${path}/rotate-secret`, {});
            notice.replaceChildren(
              secretNotice(rotated.secret, 'Secret rotated (the old one signs for 24 more hours)'),
            );
            announce('Secret rotated.');
          },
        ),
        disabling
          ? confirmed(
              'Disable',
              'Disable this endpoint?',
              `No event is sent to ${current.url} while it is disabled; enable it again to resume.`,
              async () => {
                await call('PATCH', path, { status: 'disabled' });
                refresh();
              },
            )
          : action('Enable', async () => {
              await call('PATCH', path, { status: 'enabled' });
              refresh();
            }),
        confirmed(
          'Delete the endpoint',
          'Delete this endpoint?',
          `${current.url} receives no more events, and its pending deliveries are not sent. This cannot be undone.`,
          async () => {
            await call('DELETE', path);
            announce(`Endpoint ${id} deleted.`);
            location.hash = '#/webhooks';
          },
        ),
      ),
      h('h2', {}, 'Description'),
      describe,
      h('h2', {}, 'Event types'),
      edit,
      h('h2', {}, 'Deliveries'),
      h('button', { type: 'button', onclick: () => reload().catch(fail) }, 'Refresh deliveries'),
      list,
      h('h2', {}, 'Recover failed deliveries'),
      recover,
    ];
  },
};
