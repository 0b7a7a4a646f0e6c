import { call, get, type Json } from '../api.ts';
import { confirmAction, h, table, when } from '../dom.ts';
import { errorText, type View } from './view.ts';

const ROLES = [
  ['admin', 'Admin: members, keys, everything'],
  ['developer', 'Developer: keys, webhooks, monitors, orders, extracts, requests'],
  ['billing', 'Billing: spend and the fee ledger only'],
] as const;

/** The invitation's select says what each role may do; a row's select names the roles only (the table stays narrow). */
const roleSelect = (id: string, current: string, label?: string) =>
  h(
    'select',
    { id, name: 'role', ...(label ? { 'aria-label': label } : {}) },
    ...ROLES.map(([value, text]) =>
      h('option', { value, selected: value === current }, label ? (text.split(':')[0] as string) : text),
    ),
  );

/** The account's members (admins only): invite by email, change a role, remove, each said in the page. */
export const members: View = {
  route: 'members',
  title: 'Members',
  nav: 'Members',
  roles: ['admin'],
  async render({ session, announce, refresh }) {
    const list = await get('console/members');
    const notice = h('div', {});
    const say = (text: string, error = false) => {
      notice.replaceChildren(h('p', error ? { class: 'error', role: 'alert' } : { role: 'status' }, text));
      if (!error) announce(text);
    };

    const email = h('input', {
      id: 'invite-email',
      name: 'email',
      type: 'email',
      required: true,
      autocomplete: 'off',
    });
    const role = roleSelect('invite-role', 'developer');
    const invite = h(
      'form',
      {
        onsubmit: async (event: Event) => {
          event.preventDefault();
          try {
            const invited = await call('POST', 'console/members', {
              email: (email as HTMLInputElement).value,
              role: (role as HTMLSelectElement).value,
            });
            (invite as HTMLFormElement).reset();
            announce(`Invited ${invited.email} as ${invited.role}.`);
            refresh();
          } catch (error) {
            say(errorText(error), true);
          }
        },
      },
      h('div', { class: 'field' }, h('label', { for: 'invite-email' }, 'Email address'), email),
      h('div', { class: 'field' }, h('label', { for: 'invite-role' }, 'Role'), role),
      h('button', { type: 'submit' }, 'Send invitation'),
    );

    const rows = (list.data as Json[]).map((member) => {
      const select = roleSelect(`role-${member.id}`, member.role, `Role of ${member.email}`);
      const own = session.member?.memberId === member.id;
      return [
        member.email,
        h(
          'span',
          { class: 'inline-form' },
          select,
          h(
            'button',
            {
              type: 'button',
              'aria-label': `Save the role of ${member.email}`,
              onclick: async () => {
                try {
                  const changed = await call('PATCH', `console/members/${member.id}`, {
                    role: (select as HTMLSelectElement).value,
                  });
                  say(`${member.email} is now ${changed.role}; their sessions have ended.`);
                  if (own) location.reload();
                } catch (error) {
                  say(errorText(error), true);
                }
              },
            },
            'Save',
          ),
        ),
        member.status === 'invited' ? 'invited' : 'active',
        when(member.invitedAt),
        when(member.joinedAt),
        h(
          'button',
          {
            type: 'button',
            class: 'danger',
            'aria-label': `Remove ${member.email}`,
            onclick: () =>
              confirmAction(
                `Remove ${member.email}?`,
                `${member.email} loses access at once: every session they have ends now.${own ? ' That includes yours.' : ''}`,
                'Remove member',
                async () => {
                  await call('DELETE', `console/members/${member.id}`);
                  say(`Removed ${member.email}.`);
                  refresh();
                },
              ),
          },
          'Remove',
        ),
      ];
    });

    return [
      h(
        'p',
        {},
        `Members of ${session.accountId} (${session.environment}). Each signs in with a link sent to their address. A change of role or a removal ends their sessions at once.`,
      ),
      table('Members', ['Email', 'Role', 'Status', 'Invited', 'Joined', ''], rows),
      notice,
      h('h2', {}, 'Invite a member'),
      invite,
    ];
  },
};
