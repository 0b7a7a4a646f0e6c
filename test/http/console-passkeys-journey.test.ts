/**
 * Passkeys in headless Chromium with its virtual authenticator (CDP `WebAuthn`): a developer,
 * invited by an admin, registers a passkey on the Passkeys page by keyboard, signs out, and signs
 * in with it from the signed-out page; the members' sign-in page offers it too; replaying the
 * browser's own answer is refused; a passkey is removed after a confirmation; once an admin
 * removes the member, its remaining passkey signs in no one. Every page and dialog passes axe.
 */
import { randomBytes } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, createKey } from '../support/api.ts';
import { launchBrowser } from '../support/browser.ts';
import { expectAccessible, lastMailTo, linkIn, openConsole } from '../support/console.ts';

let browser: Browser;
/** The local stack is slow on a loaded machine: wait up to 20 s for the page to settle. */
const SOON = { timeout: 20_000 };
const developerEmail = `dev+${randomBytes(4).toString('hex')}@example.com`;
const heading = (page: Page) => page.getByRole('heading', { level: 1 });

/** A page whose tab has a platform authenticator holding discoverable credentials, with user verification. */
async function pageWithAuthenticator(): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
    },
  });
  return page;
}

/** A new emailed sign-in link for the developer (the members' sign-in form), from the local outbox. */
async function emailedLink() {
  const response = await fetch(`${baseUrl}/console/sign-in/email`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email: developerEmail }).toString(),
  });
  expect(response.status).toBe(200);
  return lastMailTo(developerEmail);
}

beforeAll(async () => {
  ({ browser } = await launchBrowser());
});

afterAll(async () => {
  await browser?.close();
});

describe('passkeys in a browser', { timeout: 90_000 }, () => {
  let admin: Page;
  let developer: Page;

  it('a developer registers a passkey on the Passkeys page, by keyboard', async () => {
    admin = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await openConsole(admin, (await createKey('test')).secret);
    await admin.goto(`${baseUrl}/console#/members`);
    await admin.getByLabel('Email address').fill(developerEmail);
    await admin.getByLabel('Role', { exact: true }).selectOption('developer');
    await admin.getByRole('button', { name: 'Send invitation' }).click();
    await admin.getByRole('cell', { name: developerEmail, exact: true }).waitFor();

    developer = await pageWithAuthenticator();
    await developer.goto(linkIn(await lastMailTo(developerEmail)));
    await developer.getByRole('button', { name: 'Sign in' }).click();
    await developer.waitForURL((url) => url.pathname === '/console');
    await developer.getByRole('link', { name: 'Passkeys' }).click();
    await expect.poll(() => heading(developer).innerText(), SOON).toBe('Passkeys');
    await developer.getByText('Your passkeys: none.').waitFor(SOON);
    await expectAccessible(developer, 'passkeys-empty');
    await developer.getByLabel('Name (optional)').fill('Work laptop');
    await developer.getByRole('button', { name: 'Register a passkey' }).focus();
    await developer.keyboard.press('Enter');
    await developer.getByRole('cell', { name: 'Work laptop', exact: true }).waitFor(SOON);
    const row = developer.getByRole('row', { name: /Work laptop/ });
    expect(await row.getByRole('cell').nth(3).innerText()).toBe('Never');
    // The same device again: the options exclude the passkey it holds, and the page says so.
    await developer.getByLabel('Name (optional)').fill('Again');
    await developer.getByRole('button', { name: 'Register a passkey' }).click();
    await expect
      .poll(() => developer.getByRole('alert').innerText(), SOON)
      .toBe(
        'This device already holds one of your passkeys: it is in the list. Use another device or security key.',
      );
    expect(await developer.locator('tbody tr').count()).toBe(1);
    await expectAccessible(developer, 'passkeys');
  });

  it('signs out, then signs in with the passkey from the signed-out page', async () => {
    await developer.getByRole('button', { name: 'Sign out' }).click();
    await expect.poll(() => heading(developer).innerText(), SOON).toBe('You are signed out');
    await expectAccessible(developer, 'passkeys-signed-out');
    await developer.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await developer.waitForURL((url) => url.pathname === '/console', SOON);
    await expect
      .poll(() => developer.locator('.who').innerText(), SOON)
      .toContain(`${developerEmail} (developer)`);
    await developer.goto(`${baseUrl}/console#/passkeys`);
    await developer.getByRole('cell', { name: 'Work laptop', exact: true }).waitFor(SOON);
    expect(await developer.locator('tbody tr td:nth-child(4)').innerText()).not.toBe('Never');
  });

  it("the members' sign-in page offers the passkey; replaying the browser's answer is refused", async () => {
    await developer.getByRole('button', { name: 'Sign out' }).click();
    await developer.goto(`${baseUrl}/console/sign-in/email`);
    const button = developer.getByRole('button', { name: 'Sign in with a passkey' });
    await button.waitFor(SOON);
    await expectAccessible(developer, 'email-sign-in-passkey');
    const posted = developer.waitForRequest(
      (request) =>
        request.method() === 'POST' && new URL(request.url()).pathname === '/console/sign-in/passkey',
    );
    await button.click();
    await developer.waitForURL((url) => url.pathname === '/console', SOON);
    const answer = (await posted).postData() as string;
    const replayed = await developer.request.post(`${baseUrl}/console/sign-in/passkey`, {
      data: answer,
      headers: { 'Content-Type': 'application/json' },
    });
    expect(replayed.status()).toBe(400);
    expect((await replayed.json()).error).toMatchObject({
      code: 'passkey_challenge_invalid',
      param: 'response',
    });
  });

  it('removes a passkey after a confirmation: it signs in no more; the device registers anew', async () => {
    await developer.goto(`${baseUrl}/console#/passkeys`);
    await developer.getByRole('button', { name: 'Remove Work laptop' }).click();
    const dialog = developer.getByRole('dialog');
    await expect.poll(() => dialog.getByRole('heading').innerText(), SOON).toBe('Remove Work laptop?');
    await expectAccessible(developer, 'passkeys-remove-dialog');
    await dialog.getByRole('button', { name: 'Remove passkey' }).click();
    await developer.getByText('Your passkeys: none.').waitFor(SOON);

    await developer.getByRole('button', { name: 'Sign out' }).click();
    await developer.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await expect
      .poll(() => developer.getByRole('alert').innerText(), SOON)
      .toBe('This passkey signs in no member: it is not registered, was removed, or its member was removed.');

    await developer.goto(linkIn(await emailedLink()));
    await developer.getByRole('button', { name: 'Sign in' }).click();
    await developer.waitForURL((url) => url.pathname === '/console');
    await developer.goto(`${baseUrl}/console#/passkeys`);
    await developer.getByLabel('Name (optional)').fill('Work laptop again');
    await developer.getByRole('button', { name: 'Register a passkey' }).click();
    await developer.getByRole('cell', { name: 'Work laptop again', exact: true }).waitFor(SOON);
  });

  it('once the member is removed, its passkey signs in no one', async () => {
    await admin.goto(`${baseUrl}/console#/members`);
    await admin.getByRole('button', { name: `Remove ${developerEmail}` }).click();
    await admin.getByRole('dialog').getByRole('button', { name: 'Remove member' }).click();
    await admin
      .getByRole('cell', { name: developerEmail, exact: true })
      .waitFor({ state: 'detached', ...SOON });

    await developer.goto(`${baseUrl}/console/sign-in/email`);
    await developer.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await expect
      .poll(() => developer.getByRole('alert').innerText(), SOON)
      .toBe('This passkey signs in no member: it is not registered, was removed, or its member was removed.');
    expect(new URL(developer.url()).pathname).toBe('/console/sign-in/email');
    await expectAccessible(developer, 'passkey-refused');
  });
});
