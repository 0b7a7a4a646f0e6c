import { get, type Json } from '../api.ts';
import { h, table, when } from '../dom.ts';
import type { View } from './view.ts';

const ACTIONS: Record<string, string> = {
  signed_in: 'Signed in',
  signed_out: 'Signed out',
  member_invited: 'Member invited',
  member_role_changed: 'Role changed',
  member_removed: 'Member removed',
  passkey_registered: 'Passkey registered',
  passkey_removed: 'Passkey removed',
  created: 'Key created',
  rotated: 'Key rolled',
  revoked: 'Key revoked',
};

/** Who did what and when to the account's access (admins only). */
export const audit: View = {
  route: 'audit',
  title: 'Audit',
  nav: 'Audit',
  roles: ['admin'],
  async render() {
    const list = await get('console/audit');
    return [
      h(
        'p',
        {},
        'Sign-ins (key link, emailed link, passkey), invitations, role changes, removals, passkeys registered and removed, key rolls and revokes, newest first. “By” is a console session (cs_…), a member’s address, or an operator.',
      ),
      table(
        'Audit records, newest first',
        ['When', 'What', 'By', 'About', 'Detail'],
        (list.data as Json[]).map((record) => [
          when(record.at),
          ACTIONS[record.action] ?? record.action,
          h('code', {}, record.by),
          h('code', {}, record.subject),
          record.detail,
        ]),
      ),
    ];
  },
};
