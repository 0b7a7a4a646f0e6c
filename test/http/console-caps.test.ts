/**
 * Spend caps on the console (issue 43, part 1), in headless Chromium against the local stack: the
 * account's and the session key's caps with this month's spend, set and removed through the forms,
 * and the page passes axe-core's WCAG 2.2 A/AA rules.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX } from '../../shared/adapters/sandbox/data/companies.ts';
import { buyExtract, call, createKey } from '../support/api.ts';
import { launchBrowser } from '../support/browser.ts';
import { expectAccessible, openConsole } from '../support/console.ts';

let browser: Browser;

beforeAll(async () => {
  ({ browser } = await launchBrowser());
});

afterAll(async () => {
  await browser?.close();
});

const month = () => new Date().toISOString().slice(0, 7);

async function capsPage(secret: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
  const page = await context.newPage();
  await openConsole(page, secret);
  await page.getByRole('link', { name: 'Spend caps' }).click();
  await page.getByRole('table', { name: `Spend caps, ${month()}` }).waitFor();
  return page;
}

const rowsOf = (page: Page) =>
  page
    .getByRole('table', { name: `Spend caps, ${month()}` })
    .locator('tbody tr')
    .allInnerTexts();

describe('spend caps on the console', () => {
  it("shows the month's spend, sets the account's and the key's caps, and refuses to remove one for a key's session", async () => {
    const key = await createKey('live');
    expect((await buyExtract(key.secret, SANDBOX.proprietary, 'current')).status).toBe(201);
    const page = await capsPage(key.secret);
    expect(await rowsOf(page)).toStrictEqual(['The account\tNo cap\tA$25.00\t—\tnone']);
    await expectAccessible(page, 'spend-caps');

    await page.getByLabel('The account: monthly cap (AUD)').fill('50');
    await page.getByLabel('Alert emails').fill('billing@example.com, cfo@example.com');
    await page
      .getByRole('form', { name: 'The account cap' })
      .getByRole('button', { name: 'Save cap' })
      .click();
    await page.getByText('The account capped at A$50.00 a month.').waitFor();
    await page.getByLabel(`Key ${key.keyId}: monthly cap (AUD)`).fill('30');
    await page
      .getByRole('form', { name: `Key ${key.keyId} cap` })
      .getByRole('button', { name: 'Save cap' })
      .click();
    await page.getByText(`Key ${key.keyId} capped at A$30.00 a month.`).waitFor();
    await page.getByRole('cell', { name: 'A$5.00' }).waitFor();
    expect(await rowsOf(page)).toStrictEqual([
      // A cap set at or below what the month spent alerts its thresholds at once.
      'The account\tA$50.00\tA$25.00\tA$25.00\t50 %',
      `${key.keyId}\tA$30.00\tA$25.00\tA$5.00\t50 %, 80 %`,
    ]);
    const account = await call<{ amountCents: number; alertEmails: string[] }>('/v1/spend-caps/account', {
      key: key.secret,
    });
    expect(account.body).toMatchObject({
      amountCents: 5000,
      alertEmails: ['billing@example.com', 'cfo@example.com'],
    });
    await expectAccessible(page, 'spend-caps-set');

    // A session opened with a key's link stands for the key: it may lower a cap, not remove one.
    await page
      .getByRole('form', { name: 'The account cap' })
      .getByRole('button', { name: 'Remove cap' })
      .click();
    await page
      .getByRole('alert')
      .getByText("Only an admin member signed in to the console may remove the account's spend cap", {
        exact: false,
      })
      .waitFor();
    expect(
      (await call<{ amountCents: number | null }>('/v1/spend-caps/account', { key: key.secret })).body
        .amountCents,
    ).toBe(5000);
  }, 90_000);
});
