import { ApiFailure, call, get, type Json, send } from '../api.ts';
import { copyButton, h, openDialog, table, when } from '../dom.ts';
import { errorText, type View } from './view.ts';

/** What the API accepts as a label (shared/kernel/api-keys.ts KEY_LABEL_PATTERN), said for people. */
const LABEL_HINT =
  "Up to 40 letters, digits, spaces or . , ' ( ) / & : # + @ _ -, starting with a letter or digit.";

/** A label field with its hint and, under it, what the API said was wrong with it. */
function labelField(id: string, value: string) {
  const input = h('input', {
    id,
    name: 'label',
    maxlength: 40,
    value,
    autocomplete: 'off',
    'aria-describedby': `${id}-hint ${id}-error`,
  });
  const error = h('p', { id: `${id}-error`, class: 'error', role: 'alert', hidden: true });
  const field = h(
    'div',
    { class: 'field' },
    h('label', { for: id }, 'Label (optional)'),
    input,
    h('p', { id: `${id}-hint`, class: 'hint' }, LABEL_HINT),
    error,
  );
  return {
    field,
    /** The label as typed, trimmed; null when empty. */
    value: () => (input as HTMLInputElement).value.trim() || null,
    fail(failure: unknown) {
      error.textContent = errorText(failure);
      error.hidden = false;
      if (failure instanceof ApiFailure && failure.param === 'label')
        input.setAttribute('aria-invalid', 'true');
      input.focus();
    },
  };
}

/**
 * The dialog that creates a key: a label, then the secret, once, with a copy button. Its client
 * token is made when it opens, so a second click (or a retry) of the same dialog makes no second key.
 */
function createKeyDialog(environment: string, done: (message: string) => void) {
  const clientToken = crypto.randomUUID();
  let made: string | null = null;
  const dialog = openDialog(`Create a ${environment} key`, () => {
    const label = labelField('new-key-label', '');
    const create = h('button', { type: 'submit' }, 'Create key');
    const form = h(
      'form',
      {
        onsubmit: async (event: Event) => {
          event.preventDefault();
          create.disabled = true;
          try {
            const name = label.value();
            const { body } = await send('POST', 'console/keys', {
              clientToken,
              ...(name === null ? {} : { label: name }),
            });
            made = `Created ${body.key.name} (${body.key.id}).`;
            form.replaceWith(...shown(body));
          } catch (failure) {
            label.fail(failure);
            create.disabled = false;
          }
        },
      },
      h(
        'p',
        {},
        `The key works for this account's ${environment} requests, like the one you signed in with.`,
      ),
      label.field,
      h(
        'div',
        { class: 'actions' },
        h('button', { type: 'button', onclick: () => dialog.close() }, 'Cancel'),
        create,
      ),
    );
    return [form];
  });
  const shown = (body: Json): Node[] => {
    const close = h('button', { type: 'button', onclick: () => dialog.close() }, 'Done');
    const parts: Node[] = [
      h('p', {}, `Created ${body.key.name}: `, h('code', {}, body.key.id), '.'),
      body.secret
        ? h(
            'div',
            { class: 'secret' },
            h(
              'p',
              { class: 'secret-warning' },
              'This is the only time the secret is shown: copy it and store it now. You will not see it again.',
            ),
            h('code', { class: 'secret-value', 'aria-label': 'The new secret' }, body.secret),
            copyButton(() => body.secret, 'Copy the secret', 'The secret'),
          )
        : h(
            'p',
            { class: 'error' },
            'This key was made by an earlier click, whose answer showed its secret: it cannot be shown again. If you did not store it, revoke the key and create another.',
          ),
      h('div', { class: 'actions' }, close),
    ];
    queueMicrotask(() => close.focus());
    return parts;
  };
  dialog.addEventListener('close', () => {
    if (made) done(made);
  });
}

/** The dialog that names a key, or removes its name (an empty field). */
function labelKeyDialog(key: Json, done: (message: string) => void) {
  const dialog = openDialog(`Label ${key.id}`, () => {
    const label = labelField('key-label', key.label ?? '');
    const save = h('button', { type: 'submit' }, 'Save label');
    return [
      h(
        'form',
        {
          onsubmit: async (event: Event) => {
            event.preventDefault();
            save.disabled = true;
            try {
              const saved = await call('POST', `console/keys/${key.id}/label`, { label: label.value() });
              dialog.close();
              done(
                saved.label === null
                  ? `Removed the label of ${key.id}.`
                  : `Labelled ${key.id} ${saved.label}.`,
              );
            } catch (failure) {
              label.fail(failure);
              save.disabled = false;
            }
          },
        },
        h('p', {}, 'Leave it empty to remove the label.'),
        label.field,
        h(
          'div',
          { class: 'actions' },
          h('button', { type: 'button', onclick: () => dialog.close() }, 'Cancel'),
          save,
        ),
      ),
    ];
  });
}

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
              copyButton(() => rolled.secret, 'Copy the secret', 'The secret'),
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

    const changed = (message: string) => {
      announce(message);
      refresh();
    };
    return [
      h('p', {}, `The account's ${session.environment} keys. Last use is recorded to the hour.`),
      h(
        'p',
        {},
        h(
          'button',
          { type: 'button', onclick: () => createKeyDialog(session.environment, changed) },
          'Create key',
        ),
      ),
      table(
        'Keys, newest first',
        ['Key', 'Last four', 'Status', 'Created', 'Expires', 'Last used (hour)', ''],
        (list.data as Json[]).map((key) => [
          h(
            'span',
            { class: key.id === session.keyId ? 'key-name current-key' : 'key-name' },
            key.label === null ? h('span', { class: 'unlabelled' }, key.name) : key.name,
            h('br', {}),
            h('code', {}, key.id),
            key.id === session.keyId ? [h('br', {}), 'This session’s key'] : null,
          ),
          `…${key.lastFour}`,
          key.status === 'revoked' && key.revokedAt ? `revoked ${when(key.revokedAt)}` : key.status,
          when(key.createdAt),
          when(key.expiresAt),
          when(key.lastUsedHour),
          h(
            'span',
            { class: 'row-actions' },
            h(
              'button',
              {
                type: 'button',
                onclick: () => labelKeyDialog(key, changed),
                'aria-label': `Label ${key.id}`,
              },
              'Label',
            ),
            key.status === 'active'
              ? [
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
                ]
              : null,
          ),
        ]),
      ),
      panel,
    ];
  },
};
