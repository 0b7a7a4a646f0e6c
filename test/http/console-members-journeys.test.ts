/**
 * Members in headless Chromium against the local stack: an admin (signed in with the key's link)
 * invites billing@… on the Members page; the invitation lands in the local outbox; its link signs
 * the member in; the member sees spend and exports the CSV with amounts, sees no key, webhook or
 * member page in the navigation, and a typed URL of one says it is not for the role (the service
 * refuses the calls: test/http/console-members.test.ts). A developer asks for a link on the
 * sign-in page and cannot reach the members; removing a member ends its session at once; the
 * audit page shows who did what. Every new page and dialog passes axe and is used by keyboard.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, buyExtract, createKey, type TestKey } from '../support/api.ts';
import { launchBrowser } from '../support/browser.ts';
import { expectAccessible, lastMailTo, linkIn, openConsole } from '../support/console.ts';

let browser: Browser;
/** The local stack is slow on a loaded machine: wait up to 20 s for the page to settle. */
const SOON = { timeout: 20_000 };
let key: TestKey;
const billingEmail = `billing+${randomBytes(4).toString('hex')}@example.com`;
const developerEmail = `dev+${randomBytes(4).toString('hex')}@example.com`;

const newPage = async (): Promise<Page> => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  return context.newPage();
};
const heading = (page: Page) => page.getByRole('heading', { level: 1 });
const navLinks = async (page: Page) =>
  page.getByRole('navigation', { name: 'Console' }).getByRole('link').allInnerTexts();

beforeAll(async () => {
  ({ browser } = await launchBrowser());
  key = await createKey('test');
  expect((await buyExtract(key.secret, '990000149', 'historical')).status).toBe(201);
});

afterAll(async () => {
  await browser?.close();
});

// Browser journeys on a loaded machine: each waits on the page up to 20 s at a step.
describe('console members in a browser', { timeout: 90_000 }, () => {
  let admin: Page;

  it('an admin invites billing@… and a developer on the Members page, by keyboard', async () => {
    admin = await newPage();
    await openConsole(admin, key.secret);
    await expect.poll(() => navLinks(admin), SOON).toContain('Members');
    await admin.goto(`${baseUrl}/console#/members`);
    await expect.poll(() => heading(admin).innerText(), SOON).toBe('Members');
    await admin.getByText('Members: none.').waitFor();
    await expectAccessible(admin, 'members-empty');
    await admin.getByLabel('Email address').fill(billingEmail);
    await admin.getByLabel('Role', { exact: true }).selectOption('billing');
    await admin.getByRole('button', { name: 'Send invitation' }).focus();
    await admin.keyboard.press('Enter');
    await admin.getByRole('cell', { name: billingEmail, exact: true }).waitFor();
    await admin.getByLabel('Email address').fill(developerEmail);
    await admin.getByLabel('Role', { exact: true }).selectOption('developer');
    await admin.getByRole('button', { name: 'Send invitation' }).click();
    await admin.getByRole('cell', { name: developerEmail, exact: true }).waitFor();
    await expectAccessible(admin, 'members');
  });

  it('billing: the emailed link signs in; spend and the CSV with amounts; no key, webhook or member page', async () => {
    const mail = await lastMailTo(billingEmail);
    expect(mail.subject).toBe('Your invitation to the account console');
    const page = await newPage();
    await page.goto(linkIn(mail));
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => url.pathname === '/console');
    await expect.poll(() => heading(page).innerText(), SOON).toBe('Overview');
    expect(await page.locator('.who').innerText()).toContain(`${billingEmail} (billing)`);
    await expect.poll(() => navLinks(page), SOON).toEqual(['Overview', 'Passkeys']);
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: /CSV/ }).first().click();
    const csv = readFileSync(await (await download).path(), 'utf8');
    expect(csv.split('\r\n')[0]).toContain('amountCents');
    expect(csv).toContain('company_extract_historical');
    await expectAccessible(page, 'billing-overview');
    for (const hash of ['#/keys', '#/webhooks', '#/members', '#/audit']) {
      await page.goto(`${baseUrl}/console${hash}`);
      await expect
        .poll(() => page.getByRole('alert').innerText(), SOON)
        .toBe(
          'This page is not available to the billing role. Ask an admin of the account for another role.',
        );
    }
    await expectAccessible(page, 'billing-refused');
  });

  let developer: Page;
  it('a developer asks for a link on the sign-in page; sees keys, never the members', async () => {
    developer = await newPage();
    // The invitation is accepted first, then the member signs in again by email.
    await developer.goto(linkIn(await lastMailTo(developerEmail)));
    await developer.getByRole('button', { name: 'Sign in' }).click();
    await developer.waitForURL((url) => url.pathname === '/console');
    await developer.goto(`${baseUrl}/console/sign-in/email`);
    expect(await heading(developer).innerText()).toBe('Sign in to the account console');
    await expectAccessible(developer, 'email-sign-in');
    await developer.getByLabel('Email address').fill(developerEmail);
    await developer.keyboard.press('Enter');
    await expect.poll(() => heading(developer).innerText(), SOON).toBe('Check your email');
    await expectAccessible(developer, 'email-sent');
    const mail = await lastMailTo(developerEmail);
    expect(mail.subject).toBe('Your sign-in link for the account console');
    await developer.goto(linkIn(mail));
    await developer.getByRole('button', { name: 'Sign in' }).click();
    await developer.waitForURL((url) => url.pathname === '/console');
    await expect.poll(() => navLinks(developer), SOON).toContain('Keys');
    expect(await navLinks(developer)).not.toContain('Members');
    await developer.goto(`${baseUrl}/console#/keys`);
    await expect.poll(() => heading(developer).innerText(), SOON).toBe('API keys');
    await developer.goto(`${baseUrl}/console#/members`);
    await expect
      .poll(() => developer.getByRole('alert').innerText(), SOON)
      .toContain('not available to the developer role');
  });

  it('removing the developer (after a confirmation) ends its session at once', async () => {
    await admin.goto(`${baseUrl}/console#/members`);
    await admin.getByRole('cell', { name: developerEmail, exact: true }).waitFor();
    await admin.getByRole('button', { name: `Remove ${developerEmail}` }).click();
    const dialog = admin.getByRole('dialog');
    await expect.poll(() => dialog.getByRole('heading').innerText(), SOON).toBe(`Remove ${developerEmail}?`);
    // Cancel has focus: Escape closes with nothing done.
    expect(
      await dialog
        .getByRole('button', { name: 'Cancel' })
        .evaluate((b) => b === b.ownerDocument.activeElement),
    ).toBe(true);
    await expectAccessible(admin, 'members-remove-dialog');
    await admin.keyboard.press('Escape');
    await admin.getByRole('dialog').waitFor({ state: 'detached' });
    await admin.getByRole('button', { name: `Remove ${developerEmail}` }).click();
    await admin.getByRole('dialog').getByRole('button', { name: 'Remove member' }).click();
    await admin.getByRole('cell', { name: developerEmail, exact: true }).waitFor({ state: 'detached' });
    // The developer's next call is refused: the page says it is signed out.
    await developer.goto(`${baseUrl}/console#/keys`);
    await expect.poll(() => heading(developer).innerText(), SOON).toBe('You are signed out');
  });

  it('the audit page shows the sign-ins, invitations and the removal, with who', async () => {
    await admin.goto(`${baseUrl}/console#/audit`);
    await expect.poll(() => heading(admin).innerText(), SOON).toBe('Audit');
    const text = await admin.locator('table').innerText();
    expect(text).toContain('Member removed');
    expect(text).toContain('Member invited');
    expect(text).toContain(`member:${developerEmail}`);
    expect(text).toContain(`${billingEmail} as billing (test)`);
    await expectAccessible(admin, 'audit');
  });
});
