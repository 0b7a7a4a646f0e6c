/**
 * The account console's script (bundled by esbuild: `npm run console:build`). It reads the session
 * (`GET /console/session`), then draws the page the URL's fragment names (`#/webhooks`), each from
 * the API's own routes (views/). No framework: the DOM, and a 60-line builder (dom.ts).
 */
import { base, call, get, type Session, useCsrfToken, whenSignedOut } from './api.ts';
import { h, when } from './dom.ts';
import { passkeySignIn } from './passkey-sign-in.ts';
import { views } from './views/index.ts';
import { errorText, type View, viewFor } from './views/view.ts';

/** Absent on the members' sign-in page, which loads the script for its passkey button only. */
const app = document.getElementById('app') as HTMLElement;
let leaving: (() => void)[] = [];

function match(fragment: string): { view: View; params: string[] } | undefined {
  const parts = fragment.replace(/^#\/?/, '').split('/').filter(Boolean);
  for (const view of views) {
    const pattern = view.route.split('/').filter(Boolean);
    if (pattern.length !== parts.length) continue;
    const params: string[] = [];
    if (
      pattern.every((segment, i) =>
        segment.startsWith(':')
          ? params.push(decodeURIComponent(parts[i] as string)) > 0
          : segment === parts[i],
      )
    )
      return { view, params };
  }
  return undefined;
}

function signedOutPage(reason: string) {
  for (const cleanup of leaving) cleanup();
  leaving = [];
  document.title = 'Signed out · Account console';
  app.replaceChildren(
    h(
      'main',
      { id: 'main', class: 'notice' },
      h('h1', {}, 'You are signed out'),
      h('p', {}, reason),
      h(
        'p',
        {},
        'Sign in again: ',
        h('a', { href: 'console/sign-in/email' }, 'a members’ sign-in link by email'),
        ', or a new link from ',
        h('code', {}, 'POST /v1/console/sessions'),
        ' with your API key.',
      ),
      ...passkeySignIn(),
    ),
  );
}

function shell(session: Session) {
  const live = h('p', { class: 'visually-hidden', role: 'status', 'aria-live': 'polite' });
  const main = h('main', { id: 'main', tabindex: -1 });
  const nav = h('ul', {});
  const signOut = h(
    'button',
    {
      type: 'button',
      class: 'sign-out',
      onclick: async () => {
        await call('POST', 'console/sign-out', {});
        signedOutPage('You signed out. The session has ended on the server too.');
      },
    },
    'Sign out',
  );
  const testBanner =
    session.environment === 'test'
      ? h(
          'p',
          { class: 'test-banner', role: 'note' },
          'Test data: this session shows the account’s test environment (sandbox registry, never billed).',
        )
      : null;
  app.replaceChildren(
    h(
      'header',
      { class: session.environment === 'test' ? 'test' : 'live' },
      h('p', { class: 'brand' }, 'Company Register Data Service · Account console'),
      h(
        'p',
        { class: 'who' },
        `${session.member ? `${session.member.email} (${session.role}) · ` : ''}${session.accountId} · `,
        h(
          'strong',
          { class: `env env-${session.environment}` },
          session.environment === 'test' ? 'TEST' : 'LIVE',
        ),
        ` · until ${when(session.expiresAt)} `,
        signOut,
      ),
      h('nav', { 'aria-label': 'Console' }, nav),
    ),
    ...(testBanner ? [testBanner] : []),
    main,
    live,
  );

  let first = true;
  // Pages draw one after another without waiting: only the latest may fill the page. A slower
  // earlier one (the Overview's usage reads, then a quick move to Passkeys) must not land after it.
  let latest = 0;
  const draw = async () => {
    const drawing = ++latest;
    const current = () => drawing === latest;
    for (const cleanup of leaving) cleanup();
    leaving = [];
    const found = match(location.hash) ?? { view: views[0] as View, params: [] };
    const { view, params } = found;
    nav.replaceChildren(
      ...views
        .filter((v) => v.nav && viewFor(v, session.role))
        .map((v) => {
          const current = v === view || (view.route.startsWith(`${v.route}/`) && v.route !== '');
          return h(
            'li',
            {},
            h('a', { href: `#/${v.route}`, 'aria-current': current ? 'page' : undefined }, v.nav as string),
          );
        }),
    );
    document.title = `${view.title} · Account console${session.environment === 'test' ? ' (test data)' : ''}`;
    const heading = h('h1', { tabindex: -1 }, view.title);
    main.replaceChildren(heading, h('p', { class: 'loading' }, 'Loading…'));
    const context = {
      session,
      params,
      announce: (message: string) => {
        live.textContent = message;
      },
      refresh: () => {
        if (current()) draw();
      },
      onLeave: (cleanup: () => void) => {
        if (current()) leaving.push(cleanup);
        else cleanup();
      },
    };
    try {
      // A typed URL of a page the role may not use says so; the service would refuse its calls.
      const nodes = viewFor(view, session.role)
        ? await view.render(context)
        : [
            h(
              'p',
              { class: 'error', role: 'alert' },
              `This page is not available to the ${session.role} role. Ask an admin of the account for another role.`,
            ),
          ];
      if (!current()) return;
      main.replaceChildren(
        heading,
        ...(testBanner ? [h('p', { class: 'test-tag' }, 'Test data')] : []),
        ...nodes,
      );
    } catch (error) {
      if (!current()) return;
      main.replaceChildren(
        heading,
        h('p', { class: 'error', role: 'alert' }, `This page could not be loaded: ${errorText(error)}`),
      );
    }
    // After a move between pages, focus goes to the new page's heading (screen readers announce
    // it); on the first load it stays at the top, so that Tab reaches the skip link first.
    if (!first) heading.focus();
    first = false;
  };
  window.addEventListener('hashchange', draw);
  draw();
}

/**
 * The skip link (first in the page's HTML) points at `#main`, which the router would read as a
 * route and draw the Overview: it moves focus to the current view's main content instead.
 */
function skipToMain(event: Event) {
  const main = document.getElementById('main');
  if (!main) return;
  event.preventDefault();
  if (!main.hasAttribute('tabindex')) main.setAttribute('tabindex', '-1');
  main.focus();
  main.scrollIntoView();
}

async function start() {
  const passkeySlot = document.getElementById('passkey-sign-in');
  if (passkeySlot) passkeySlot.replaceChildren(...passkeySignIn());
  if (!app) return;
  document.querySelector('a.skip')?.addEventListener('click', skipToMain);
  whenSignedOut(() => signedOutPage('Your session has ended (signed out, expired, or its key was revoked).'));
  try {
    const session = (await get('console/session')) as Session;
    useCsrfToken(session.csrfToken);
    shell(session);
  } catch (error) {
    if (!document.querySelector('.notice')) signedOutPage(`No session: ${errorText(error)}`);
  }
}

void base;
start();
