/**
 * Monthly spend caps: the account's and this session's key's, with what each spent this month, set
 * and removed through `PUT`/`DELETE /v1/spend-caps/…` (docs/usage.md, "Spend caps"). An admin's
 * page: only admins may set or remove a cap (the routes' `consoleRoles`).
 */
import { call, get, type Json } from '../api.ts';
import { h, table } from '../dom.ts';
import { money } from '../money.ts';
import { errorText, type View } from './view.ts';

const capText = (cap: Json) => (cap.amountCents === null ? 'No cap' : money(cap.amountCents, cap.currency));

export const caps: View = {
  route: 'spend-caps',
  title: 'Spend caps',
  nav: 'Spend caps',
  roles: ['admin'],
  async render({ session, announce, refresh }) {
    const list = await get('v1/spend-caps');
    const all: Json[] = list.data;
    const account = all.find((cap) => cap.scope === 'account') as Json;
    const own =
      all.find((cap) => cap.keyId === session.keyId) ?? (await get(`v1/spend-caps/keys/${session.keyId}`));
    const status = h('div', { role: 'status' });
    const fail = (error: unknown) =>
      status.replaceChildren(h('p', { class: 'error', role: 'alert' }, errorText(error)));

    /** One cap's form: the amount in the currency (whole cents sent), save and remove. */
    const capForm = (cap: Json, path: string, name: string, withEmails: boolean) => {
      const id = `cap-${cap.scope}`;
      const amount = h('input', {
        type: 'number',
        id: `${id}-amount`,
        name: 'amount',
        min: '0.01',
        step: '0.01',
        required: true,
        value: cap.amountCents === null ? '' : (cap.amountCents / 100).toFixed(2),
      });
      const emails = h('input', {
        type: 'text',
        id: `${id}-emails`,
        name: 'alertEmails',
        value: (cap.alertEmails as string[]).join(', '),
        'aria-describedby': `${id}-emails-hint`,
      });
      const save = async (event: Event) => {
        event.preventDefault();
        const amountCents = Math.round(Number((amount as HTMLInputElement).value) * 100);
        const alertEmails = (emails as HTMLInputElement).value
          .split(',')
          .map((address) => address.trim())
          .filter(Boolean);
        await call('PUT', path, { amountCents, ...(withEmails ? { alertEmails } : {}) });
        announce(`${name} capped at ${money(amountCents, cap.currency)} a month.`);
        refresh();
      };
      const remove = async () => {
        await call('DELETE', path);
        announce(`${name}: cap removed.`);
        refresh();
      };
      return h(
        'form',
        {
          class: 'inline-form',
          'aria-label': `${name} cap`,
          onsubmit: (event: Event) => save(event).catch(fail),
        },
        h('label', { for: `${id}-amount` }, `${name}: monthly cap (${cap.currency})`),
        amount,
        withEmails ? h('label', { for: `${id}-emails` }, 'Alert emails') : null,
        withEmails ? emails : null,
        withEmails
          ? h(
              'p',
              { id: `${id}-emails-hint`, class: 'hint' },
              'Comma-separated; they get the 50, 80 and 100 % alerts.',
            )
          : null,
        h('button', { type: 'submit' }, 'Save cap'),
        cap.amountCents === null
          ? null
          : h('button', { type: 'button', onclick: () => remove().catch(fail) }, 'Remove cap'),
      );
    };

    return [
      h(
        'p',
        {},
        `A purchase that would take this month's spend (UTC) past a cap is refused before it reaches the registry (spend_cap_exceeded). Alerts at 50, 80 and 100 % of each cap, once a month each. Raising or removing a cap needs an admin member signed in with their own email; a session opened with an API key may set a cap and lower it.`,
        account.billed ? '' : ' Test keys: counted at the prices a live key pays, never billed.',
        account.examplePrices ? ' These are example prices.' : '',
      ),
      table(
        `Spend caps, ${account.month}`,
        ['Applies to', 'Cap', 'Spent this month', 'Remaining', 'Alerts sent'],
        [account, ...all.filter((cap) => cap.scope === 'key')].map((cap) => [
          cap.scope === 'account' ? 'The account' : h('code', {}, cap.keyId),
          capText(cap),
          money(cap.spentCents, cap.currency),
          cap.remainingCents === null ? '—' : money(cap.remainingCents, cap.currency),
          cap.alertsSent.length === 0 ? 'none' : cap.alertsSent.map((t: number) => `${t} %`).join(', '),
        ]),
      ),
      h('h2', {}, 'The account'),
      capForm(account, 'v1/spend-caps/account', 'The account', true),
      h('h2', {}, 'This session’s key'),
      capForm(own, `v1/spend-caps/keys/${session.keyId}`, `Key ${session.keyId}`, false),
      status,
    ];
  },
};
