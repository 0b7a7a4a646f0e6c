import { call, get, type Json } from '../api.ts';
import { h, table, when } from '../dom.ts';
import { errorText, type View } from './view.ts';

const GRACES = [
  ['1h', 'one hour'],
  ['24h', '24 hours'],
  ['7d', '7 days'],
] as const;

export const keys: View = {
  route: 'keys',
  title: 'API keys',
  nav: 'Keys',
  async render({ session, announce, refresh }) {
    const list = await get('console/keys');
    const panel = h('div', {});
    const fail = (error: unknown) =>
      panel.replaceChildren(h('p', { class: 'error', role: 'alert' }, errorText(error)));

    /** Every change asks first, in the page (keyboard and screen reader friendly), then says what it did. */
    const confirm = (question: string, detail: Node | null, label: string, run: () => Promise<void>) => {
      const yes = h('button', { type: 'button', class: 'danger', onclick: () => run().catch(fail) }, label);
      panel.replaceChildren(
        h(
          'div',
          { class: 'confirm', role: 'group', 'aria-labelledby': 'confirm-question' },
          h('p', { id: 'confirm-question' }, question),
          detail,
          yes,
          h('button', { type: 'button', onclick: () => panel.replaceChildren() }, 'Cancel'),
        ),
      );
      yes.focus();
    };

    const roll = (key: Json) => {
      const grace = h(
        'select',
        { id: 'roll-grace', name: 'grace' },
        ...GRACES.map(([value, text]) => h('option', { value, selected: value === '24h' }, text)),
      );
      confirm(
        `Roll ${key.id}? A new key replaces it; the old one keeps working for the grace period, then is refused.`,
        h('div', { class: 'inline-form' }, h('label', { for: 'roll-grace' }, 'Grace period'), grace),
        'Roll key',
        async () => {
          const rolled = await call('POST', `console/keys/${key.id}/roll`, {
            grace: (grace as HTMLSelectElement).value,
          });
          panel.replaceChildren(
            h(
              'div',
              { class: 'secret', role: 'alert' },
              h(
                'p',
                {},
                `New key ${rolled.key.id}. ${key.id} works until ${when(rolled.replacedKeyExpiresAt)}. The new secret is shown once: store it now.`,
              ),
              h('code', { class: 'secret-value' }, rolled.secret),
            ),
          );
          announce(`Rolled ${key.id}.`);
        },
      );
    };
    const revoke = (key: Json) =>
      confirm(
        `Revoke ${key.id}? It is refused from the next request${key.id === session.keyId ? ', and this console session ends' : ''}.`,
        null,
        'Revoke key',
        async () => {
          await call('POST', `console/keys/${key.id}/revoke`, {});
          announce(`Revoked ${key.id}.`);
          refresh();
        },
      );

    return [
      h('p', {}, `The account's ${session.environment} keys. Last use is recorded to the hour.`),
      table(
        'Keys, newest first',
        ['Key', 'Last four', 'Status', 'Created', 'Expires', 'Last used (hour)', ''],
        (list.data as Json[]).map((key) => [
          key.id === session.keyId
            ? h('span', { class: 'current-key' }, h('code', {}, key.id), h('br', {}), 'This session’s key')
            : h('code', {}, key.id),
          `…${key.lastFour}`,
          key.status === 'revoked' && key.revokedAt ? `revoked ${when(key.revokedAt)}` : key.status,
          when(key.createdAt),
          when(key.expiresAt),
          when(key.lastUsedHour),
          key.status === 'active'
            ? h(
                'span',
                { class: 'row-actions' },
                h(
                  'button',
                  { type: 'button', onclick: () => roll(key), 'aria-label': `Roll ${key.id}` },
                  'Roll',
                ),
                h(
                  'button',
                  { type: 'button', onclick: () => revoke(key), 'aria-label': `Revoke ${key.id}` },
                  'Revoke',
                ),
              )
            : '',
        ]),
      ),
      panel,
    ];
  },
};
