import { startRegistration } from '@simplewebauthn/browser';
import { call, get, type Json } from '../api.ts';
import { confirmAction, h, table, when } from '../dom.ts';
import { promptFailure } from '../passkey-sign-in.ts';
import type { View } from './view.ts';

/** The member's own passkeys (every role): register one, see when each was last used, remove one. */
export const passkeys: View = {
  route: 'passkeys',
  title: 'Passkeys',
  nav: 'Passkeys',
  roles: ['admin', 'developer', 'billing'],
  async render({ session, announce, refresh }) {
    if (!session.member)
      return [
        h(
          'p',
          {},
          'Passkeys belong to members. This session was opened with an API key’s link: invite yourself on the Members page, sign in with the emailed link, and register a passkey here.',
        ),
      ];
    const list = await get('console/passkeys');
    const notice = h('div', {});
    const say = (text: string, error = false) => {
      notice.replaceChildren(h('p', error ? { class: 'error', role: 'alert' } : { role: 'status' }, text));
      if (!error) announce(text);
    };
    const name = h('input', {
      id: 'passkey-name',
      name: 'name',
      type: 'text',
      maxlength: 60,
      autocomplete: 'off',
      'aria-describedby': 'passkey-name-hint',
    });
    const register = h(
      'form',
      {
        onsubmit: async (event: Event) => {
          event.preventDefault();
          const button = (register as HTMLFormElement).querySelector('button') as HTMLButtonElement;
          button.disabled = true;
          try {
            const { options } = await call('POST', 'console/passkeys/options', {});
            const response = await startRegistration({ optionsJSON: options });
            const made = await call('POST', 'console/passkeys', {
              response,
              ...((name as HTMLInputElement).value.trim() ? { name: (name as HTMLInputElement).value } : {}),
            });
            announce(`Passkey “${made.name}” registered. You can sign in with it now.`);
            refresh();
          } catch (error) {
            say(promptFailure(error), true);
            button.disabled = false;
          }
        },
      },
      h('div', { class: 'field' }, h('label', { for: 'passkey-name' }, 'Name (optional)'), name),
      h('p', { id: 'passkey-name-hint', class: 'hint' }, 'Say which device it is on, such as “Work laptop”.'),
      h('button', { type: 'submit' }, 'Register a passkey'),
    );
    const rows = (list.data as Json[]).map((passkey) => [
      passkey.name,
      passkey.deviceType === 'multiDevice' ? 'Synced between devices' : 'This device only',
      when(passkey.createdAt),
      passkey.lastUsedAt ? when(passkey.lastUsedAt) : 'Never',
      h(
        'button',
        {
          type: 'button',
          class: 'danger',
          'aria-label': `Remove ${passkey.name}`,
          onclick: () =>
            confirmAction(
              `Remove ${passkey.name}?`,
              `${passkey.name} will no longer sign you in. Sessions already open stay open; remove the passkey from the device too.`,
              'Remove passkey',
              async () => {
                await call('DELETE', `console/passkeys/${passkey.id}`);
                say(`Removed ${passkey.name}.`);
                refresh();
              },
            ),
        },
        'Remove',
      ),
    ]);
    return [
      h(
        'p',
        {},
        `Passkeys of ${session.member.email} in ${session.accountId} (${session.environment}): sign in with your device’s lock or a security key instead of an emailed link.`,
      ),
      table('Your passkeys', ['Name', 'Kind', 'Registered', 'Last used', ''], rows),
      notice,
      h('h2', {}, 'Register a passkey'),
      register,
    ];
  },
};
