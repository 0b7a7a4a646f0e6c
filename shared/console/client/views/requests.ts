/**
 * Find a request by its `X-Request-Id` (docs/console.md): what the service kept when it answered,
 * for 30 days, of this account's requests in the session's environment.
 */
import { ApiFailure, get } from '../api.ts';
import { h, when } from '../dom.ts';
import { errorText, type View } from './view.ts';

export const requests: View = {
  route: 'requests',
  title: 'Find a request',
  nav: 'Requests',
  async render({ session, announce }) {
    const id = h('input', {
      id: 'request-id',
      name: 'requestId',
      required: true,
      autocomplete: 'off',
      spellcheck: false,
      size: 44,
      pattern: 'req_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}',
      placeholder: 'req_…',
      'aria-describedby': 'request-id-hint',
    }) as HTMLInputElement;
    const result = h('div', { 'aria-live': 'polite' });
    const form = h(
      'form',
      {
        class: 'inline-form',
        role: 'search',
        onsubmit: async (event: Event) => {
          event.preventDefault();
          const requestId = id.value.trim();
          try {
            const found = await get(`console/requests/${encodeURIComponent(requestId)}`);
            result.replaceChildren(
              h(
                'dl',
                { class: 'facts' },
                h('dt', {}, 'Request'),
                h('dd', {}, h('code', {}, found.id)),
                h('dt', {}, 'Route'),
                h('dd', {}, `${found.method} ${found.path} (${found.route})`),
                h('dt', {}, 'Status'),
                h('dd', {}, String(found.status)),
                h('dt', {}, 'Error code'),
                h('dd', {}, found.errorCode ? h('code', {}, found.errorCode) : 'none'),
                h('dt', {}, 'Received'),
                h('dd', {}, `${when(found.receivedAt)} (${found.latencyMs} ms)`),
                h('dt', {}, 'Made with'),
                h(
                  'dd',
                  {},
                  found.viaConsole ? `the console (key ${found.keyId})` : h('code', {}, found.keyId),
                ),
              ),
            );
            announce(`Found ${found.id}: ${found.status}.`);
          } catch (error) {
            const text =
              error instanceof ApiFailure && error.code === 'request_not_found'
                ? `No request ${requestId} of this account's ${session.environment} environment in the last 30 days.`
                : errorText(error);
            result.replaceChildren(h('p', { class: 'error', role: 'alert' }, text));
          }
        },
      },
      h('label', { for: 'request-id' }, 'X-Request-Id'),
      id,
      h('button', { type: 'submit' }, 'Find'),
    );
    return [
      h(
        'p',
        { id: 'request-id-hint' },
        `Every response carries an X-Request-Id header (and an error its requestId). Requests of this account's ${session.environment} environment are kept 30 days: route, status, time and error code.`,
      ),
      form,
      result,
    ];
  },
};
